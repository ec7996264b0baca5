"use client";
/**
 * Upload a node log bundle: drop or pick files (archives or plain logs, several at once), or
 * paste log text (into the "Paste log text" box, or anywhere on the page outside another field:
 * it lands in the box), name a new incident or add to an existing one, optionally give node /
 * zone / year / collection time, then watch two progress bars: the upload (XHR upload progress)
 * and the parse (polling the bundle status). Goes to the incident when it is ready.
 *
 * A paste is uploaded as one more file, `pasted-<yyyy-mm-dd-hhmm>.log` (UTC, named when the text
 * arrives), with the same options. While the text is there the panel shows, debounced, what
 * bootline recognises in it (`POST /api/preview`: nothing stored). Ctrl/Cmd+Enter submits.
 *
 * The parts: the flow (checks, upload, parse, dismiss, the leave guard) in use-upload-flow.ts
 * over the state machine of lib/upload/upload-state.ts; the page-wide paste in use-page-paste.ts;
 * the files, the paste box with its preview, the incident and options fields and the progress in
 * a component each.
 */
import { useRef, useState } from "react";
import type { TUploadFieldText } from "@/lib/upload/upload-fields";
import { mergeFiles, pasteFileName } from "@/lib/upload/upload-state";
import { FilePicker } from "./file-picker";
import { PasteBox, PastePreviewArea } from "./paste-box";
import { IncidentTarget, UploadOptionFields } from "./upload-target";
import { UploadStatus } from "./upload-status";
import { usePagePaste } from "./use-page-paste";
import { useUploadFlow } from "./use-upload-flow";

export function UploadPanel(p: { incidents: Array<{ id: string; title: string }>; defaultIncidentId?: string | null }) {
  const flow = useUploadFlow();
  const { busy, touched } = flow;
  const [files, setFiles] = useState<File[]>([]);
  const [target, setTarget] = useState<"new" | "existing">(p.defaultIncidentId && p.incidents.some((i) => i.id === p.defaultIncidentId) ? "existing" : "new");
  const [title, setTitle] = useState("");
  const [incidentId, setIncidentId] = useState(p.defaultIncidentId ?? p.incidents[0]?.id ?? "");
  const [fields, setFields] = useState<TUploadFieldText>({ node: "", tz: "", year: "", collected: "" });
  const [pasteText, setPasteText] = useState("");
  const [pasteName, setPasteName] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const pasteRef = useRef<HTMLTextAreaElement>(null);

  const addFiles = (list: FileList | null) => {
    if (!list) return;
    const add = Array.from(list);
    setFiles((prev) => mergeFiles(prev, add));
    touched();
  };
  /** Takes `text` as the pasted log text (named on its first arrival). */
  const takePaste = (text: string) => {
    setPasteText(text);
    setPasteName((n) => (text.trim() ? (n ?? pasteFileName(new Date())) : null));
    touched();
  };
  // a paste anywhere on the page (not into another field) lands in the paste box; pasted files join the list
  usePagePaste({
    disabled: busy,
    onFiles: addFiles,
    onText: (text) => {
      takePaste(text);
      pasteRef.current?.focus({ preventScroll: true });
      pasteRef.current?.scrollIntoView({ block: "nearest" });
    },
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const pasted = pasteText.trim() ? [new File([pasteText], pasteName ?? pasteFileName(new Date()), { type: "text/plain" })] : [];
    void flow.submit({ files: [...files, ...pasted], target, title, incidentId, fields });
  };

  return (
    <form
      ref={formRef}
      className="panel upload"
      id="upload"
      onSubmit={submit}
      aria-labelledby="upload-h"
      data-testid="upload-form"
      onKeyDown={(e) => {
        // Ctrl/Cmd+Enter submits from anywhere in the form (the paste box included)
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          formRef.current?.requestSubmit();
        }
      }}
    >
      <h2 id="upload-h">Upload a log bundle</h2>
      <FilePicker files={files} busy={busy} onAdd={addFiles} onRemove={(i) => setFiles(files.filter((_, j) => j !== i))} />
      <PasteBox ref={pasteRef} text={pasteText} name={pasteName} busy={busy} onText={takePaste} />
      {pasteText.trim() && <PastePreviewArea text={pasteText} name={pasteName} {...fields} />}
      <IncidentTarget
        busy={busy}
        incidents={p.incidents}
        target={target}
        onTarget={setTarget}
        title={title}
        onTitle={setTitle}
        incidentId={incidentId}
        onIncidentId={setIncidentId}
      />
      <UploadOptionFields busy={busy} fields={fields} onField={(k, v) => setFields((f) => ({ ...f, [k]: v }))} />

      <div className="upload-actions">
        <button type="submit" className="btn primary" disabled={busy}>
          Upload and parse
        </button>
        {flow.stage.kind === "uploading" && (
          <button type="button" className="btn" onClick={flow.cancel}>
            cancel
          </button>
        )}
      </div>
      <UploadStatus stage={flow.stage} status={flow.status} opening={flow.opening} onDismiss={() => void flow.dismiss()} />
    </form>
  );
}
