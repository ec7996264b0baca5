"use client";
/**
 * The upload panel's pasted text: the "Paste log text" box with the name it will be uploaded
 * under, its lines and bytes, and, while it holds text, what bootline recognises in it
 * (`POST /api/preview`, nothing stored), asked for once the text and the options have stayed
 * the same for `PREVIEW_DEBOUNCE_MS`.
 */
import { type Ref, useMemo } from "react";
import { usePastePreviewQuery } from "@/components/data/use-paste-preview-query";
import { useDebouncedValue } from "@/components/use-debounced-value";
import { PREVIEW_MAX_BYTES } from "@/lib/ingest/preview-limits";
import { checkUploadFields, type TUploadFieldText } from "@/lib/upload/upload-fields";
import { pasteSize } from "@/lib/upload/upload-state";
import { fmtBytes, fmtCount } from "@/lib/view/format";
import { PastePreview } from "./paste-preview";
import styles from "./paste.module.css";

/** Wait after the last change of the pasted text or the options before asking for a preview, ms. */
export const PREVIEW_DEBOUNCE_MS = 400;

export function PasteBox(p: { text: string; name: string | null; busy: boolean; onText(text: string): void; ref?: Ref<HTMLTextAreaElement> }) {
  const size = useMemo(() => pasteSize(p.text), [p.text]);
  return (
    <div className={styles.paste}>
      <div className={styles.pasteHead}>
        <label htmlFor="paste-text">Paste log text</label>
        <span className="spacer" />
        {p.text && !p.busy && (
          <button type="button" className="btn small" onClick={() => p.onText("")} aria-label="clear the pasted text">
            clear
          </button>
        )}
      </div>
      <textarea
        id="paste-text"
        ref={p.ref}
        className="input"
        value={p.text}
        onChange={(e) => p.onText(e.target.value)}
        disabled={p.busy}
        spellCheck={false}
        autoComplete="off"
        wrap="off"
        placeholder="kubelet, containerd or journalctl lines, kubectl events… (or paste anywhere on this page)"
        aria-describedby="paste-hint"
        data-testid="paste-text"
      />
      <span id="paste-hint" className="small">
        {p.text ? (
          <>
            uploaded as <span className="mono">{p.name}</span> ({fmtCount(size.lines)} line{size.lines === 1 ? "" : "s"}, {fmtBytes(size.bytes)}) ·{" "}
          </>
        ) : null}
        <span className={styles.kbd}>Ctrl</span>+<span className={styles.kbd}>Enter</span> uploads
      </span>
    </div>
  );
}

/** The preview of a pasted text (mount it only while there is text): debounced key, then the query. */
export function PastePreviewArea(p: { text: string; name: string | null } & TUploadFieldText) {
  const { text, name, node, tz, year, collected } = p;
  const input = useMemo(() => ({ text, name, fields: { node, tz, year, collected } }), [text, name, node, tz, year, collected]);
  const settled = useDebouncedValue(input, PREVIEW_DEBOUNCE_MS);
  // the form's own checks first: a field the server would refuse, or more text than the preview reads
  const ask = useMemo(() => {
    if (!settled) return null;
    const checked = checkUploadFields(settled.fields);
    if (!checked.ok) return { error: checked.message };
    const bytes = pasteSize(settled.text).bytes;
    if (bytes > PREVIEW_MAX_BYTES)
      return { error: `${fmtBytes(bytes)} of text is more than the preview reads (${fmtBytes(PREVIEW_MAX_BYTES)}); “Upload and parse” still takes it` };
    return { req: { text: settled.text, name: settled.name ?? undefined, options: checked.options } };
  }, [settled]);
  const q = usePastePreviewQuery(ask?.req ?? null);
  const error = ask?.error ?? (q.isError && !q.isFetching ? (q.error as Error).message : null);
  const shown = ask?.req && !q.isError ? q.data : undefined;
  return (
    <div data-testid="paste-preview-area">
      {ask?.req && q.isFetching && (
        <p className={styles.status} role="status">
          reading the pasted text…
        </p>
      )}
      {error !== null && (
        <p className="warn small" role="status" data-testid="paste-preview-error">
          No preview: {error}
        </p>
      )}
      {shown && <PastePreview preview={shown} />}
    </div>
  );
}
