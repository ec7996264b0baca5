"use client";
/** The upload panel's files: a drop zone that also opens the file chooser, and the list of files picked (each removable while idle). */
import { useRef, useState } from "react";
import { fmtBytes } from "@/lib/view/format";

const ACCEPTED_HINT = ".tar.gz .tgz .tar .tar.xz .zip .gz, or plain log files";

export function FilePicker(p: { files: File[]; busy: boolean; onAdd(list: FileList | null): void; onRemove(index: number): void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragOver, setDragOver] = useState(false);
  const totalBytes = p.files.reduce((n, f) => n + f.size, 0);
  return (
    <>
      <div
        className={`dropzone${dragOver ? " over" : ""}${p.busy ? " disabled" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragOver(true);
        }}
        onDragLeave={() => setDragOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragOver(false);
          if (!p.busy) p.onAdd(e.dataTransfer.files);
        }}
        onClick={() => !p.busy && inputRef.current?.click()}
        role="button"
        tabIndex={0}
        onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && !p.busy && inputRef.current?.click()}
        aria-label="drop files here or choose files"
      >
        <strong>Drop files here</strong> or <span className="link">choose files</span>
        <span className="muted small">{ACCEPTED_HINT}; several at once is fine</span>
        <input
          ref={inputRef}
          type="file"
          multiple
          hidden
          data-testid="upload-files"
          aria-label="log files"
          onChange={(e) => {
            p.onAdd(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />
      </div>
      {p.files.length > 0 && (
        <ul className="file-list" data-testid="upload-file-list">
          {p.files.map((f, i) => (
            <li key={`${f.name}:${f.size}`}>
              <span className="mono">{f.name}</span>
              <span className="muted">{fmtBytes(f.size)}</span>
              {!p.busy && (
                <button type="button" className="btn small" aria-label={`remove ${f.name}`} onClick={() => p.onRemove(i)}>
                  ✕
                </button>
              )}
            </li>
          ))}
          <li className="muted small">
            {p.files.length} file{p.files.length === 1 ? "" : "s"}, {fmtBytes(totalBytes)}
          </li>
        </ul>
      )}
    </>
  );
}
