"use client";
/**
 * "Copy link": writes a permalink to the clipboard and shows it in a small box (selected,
 * so it can be copied by hand where the clipboard is not available).
 */
import { useEffect, useRef, useState } from "react";

export function CopyLinkButton(p: { getUrl(): string; label?: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [status, setStatus] = useState<"copied" | "manual" | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (url) inputRef.current?.select();
  }, [url]);
  const copy = async () => {
    const u = p.getUrl();
    setUrl(u);
    try {
      await navigator.clipboard.writeText(u);
      setStatus("copied");
    } catch {
      setStatus("manual");
    }
  };
  return (
    <span className="copy-link">
      <button type="button" className="btn" data-testid="copy-link" onClick={copy}>
        {p.label ?? "copy link"}
      </button>
      {url && (
        <span className="copy-link-pop panel" role="status">
          <input ref={inputRef} readOnly value={url} data-testid="permalink" aria-label="permalink" onFocus={(e) => e.currentTarget.select()} />
          <span className={status === "copied" ? "ok" : "muted"}>{status === "copied" ? "copied" : "select and copy"}</span>
          <button type="button" className="btn small" aria-label="close" onClick={() => setUrl(null)}>
            ✕
          </button>
        </span>
      )}
    </span>
  );
}
