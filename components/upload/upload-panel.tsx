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
 * While the bytes are still going up, leaving the page (reload, Back, closing the tab, a link)
 * asks first: the upload would be lost. When the parse of a bundle that started a new incident
 * fails, "dismiss" deletes that incident (nothing of it is usable) and clears the error. The
 * incident list is invalidated when an upload is stored, when it is ready and when it is dismissed.
 */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { queryKeys } from "@/components/data/query-keys";
import { useBundleStatusQuery } from "@/components/data/use-bundle-status-query";
import { ProgressBar } from "@/components/progress-bar";
import { fetchJson } from "@/components/data/fetch-json";
import { PREVIEW_MAX_BYTES } from "@/lib/ingest/preview-limits";
import { phaseLabel } from "@/lib/ingest/progress";
import type { TPreview } from "@/lib/ingest/preview-text";
import { fmtBytes, fmtCount } from "@/lib/view/format";
import { PastePreview } from "./paste-preview";
import styles from "./paste.module.css";
import { buildUploadForm, uploadWithProgress, type TUploadResult } from "./upload-request";

const ACCEPTED_HINT = ".tar.gz .tgz .tar .tar.xz .zip .gz, or plain log files";
const COMMON_ZONES = [
  "UTC",
  "America/Los_Angeles",
  "America/New_York",
  "Europe/London",
  "Europe/Berlin",
  "Asia/Kolkata",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Australia/Sydney",
];
/** Wait after the last change of the pasted text or the options before asking for a preview, ms. */
const PREVIEW_DEBOUNCE_MS = 400;

type TPreviewState = { kind: "idle" } | { kind: "loading"; last: TPreview | null } | { kind: "ready"; data: TPreview } | { kind: "error"; message: string };

/** The file name of a paste made at `d`: `pasted-<yyyy-mm-dd-hhmm>.log`, UTC. */
export function pasteFileName(d: Date): string {
  const iso = d.toISOString();
  return `pasted-${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}.log`;
}

/** True when `el` is a field that takes a paste itself (another input, a text box, an editable element). */
function isField(el: Element | null): boolean {
  return !!el && el instanceof HTMLElement && !!el.closest("input, textarea, select, [contenteditable]:not([contenteditable='false'])");
}

type TStage =
  | { kind: "idle" }
  | { kind: "uploading"; loaded: number; total: number }
  | { kind: "parsing"; result: TUploadResult; newIncident: boolean }
  | { kind: "error"; message: string; result?: TUploadResult; newIncident?: boolean };

function validTz(tz: string): boolean {
  if (/^[+-]\d{2}:?\d{2}$/.test(tz)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Checks the optional fields; returns an error text or null. `collected` without a zone is taken as UTC. */
function checkFields(v: { tz: string; year: string; collected: string }): string | null {
  if (v.tz.trim() && !validTz(v.tz.trim())) return `unknown time zone “${v.tz}” (use an IANA name such as Europe/Berlin, or an offset such as +02:00)`;
  if (v.year.trim() && !/^(19[7-9]\d|20\d\d|2100)$/.test(v.year.trim())) return "year must be a four-digit year between 1970 and 2100";
  if (v.collected.trim() && !Number.isFinite(Date.parse(normaliseCollected(v.collected)))) return "collection time must look like 2026-03-14T02:30:00Z";
  return null;
}

function normaliseCollected(s: string): string {
  const t = s.trim().replace(" ", "T");
  return /(Z|[+-]\d{2}:?\d{2})$/i.test(t) || !/T/.test(t) ? t : `${t}Z`;
}

export function UploadPanel(p: { incidents: Array<{ id: string; title: string }>; defaultIncidentId?: string | null }) {
  const router = useRouter();
  const qc = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<(() => void) | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [dragOver, setDragOver] = useState(false);
  const [target, setTarget] = useState<"new" | "existing">(p.defaultIncidentId && p.incidents.some((i) => i.id === p.defaultIncidentId) ? "existing" : "new");
  const [title, setTitle] = useState("");
  const [incidentId, setIncidentId] = useState(p.defaultIncidentId ?? p.incidents[0]?.id ?? "");
  const [node, setNode] = useState("");
  const [tz, setTz] = useState("");
  const [year, setYear] = useState("");
  const [collected, setCollected] = useState("");
  const [stage, setStage] = useState<TStage>({ kind: "idle" });
  const [pasteText, setPasteText] = useState("");
  const [pasteName, setPasteName] = useState<string | null>(null);
  const [preview, setPreview] = useState<TPreviewState>({ kind: "idle" });
  const formRef = useRef<HTMLFormElement>(null);
  const pasteRef = useRef<HTMLTextAreaElement>(null);
  const busyRef = useRef(false);

  const bundleId = stage.kind === "parsing" ? stage.result.bundleId : null;
  const status = useBundleStatusQuery(bundleId);
  const s = status.data;
  // stored is not done: done is the incident open with its data, so the bar says "opening" until
  // the incident page has rendered (the navigation's transition ends; this panel is gone by then)
  const [opening, startOpening] = useTransition();
  const openedRef = useRef<string | null>(null);

  useEffect(() => {
    if (stage.kind !== "parsing" || !s) return;
    if (s.status === "ready") {
      if (openedRef.current === s.id) return;
      openedRef.current = s.id;
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      startOpening(() => router.push(`/i/${encodeURIComponent(stage.result.incidentId)}`));
    } else if (s.status === "failed") {
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      setStage({ kind: "error", message: s.error || "parsing failed", result: stage.result, newIncident: stage.newIncident });
    }
  }, [s, stage, router, qc]);

  useEffect(() => {
    if (stage.kind === "parsing" && status.error)
      setStage({ kind: "error", message: `lost track of the parse: ${(status.error as Error).message}`, result: stage.result, newIncident: stage.newIncident });
  }, [status.error, stage]);

  // leaving while the bytes go up loses the upload: the browser asks first (reload, Back, close), and so does a link on the page
  const uploading = stage.kind === "uploading";
  useEffect(() => {
    if (!uploading) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.("a[href]");
      if (!a || a.getAttribute("target") === "_blank") return;
      if (!window.confirm("The upload is still in progress and leaving the page stops it. Leave anyway?")) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [uploading]);

  const [dismissing, setDismissing] = useState(false);
  /** Clears a failed upload's error; a new incident it made goes with it (after a confirm). */
  const dismiss = async () => {
    if (stage.kind !== "error") return;
    if (stage.result && stage.newIncident) {
      if (!window.confirm("Delete the incident this upload started? Nothing of it could be parsed.")) return;
      setDismissing(true);
      try {
        await fetchJson(`/api/incidents/${encodeURIComponent(stage.result.incidentId)}`, { method: "DELETE" });
      } catch (err) {
        setDismissing(false);
        return setStage({ ...stage, message: `${stage.message} (and the incident could not be deleted: ${(err as Error).message})` });
      }
      setDismissing(false);
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      router.refresh();
    }
    setStage({ kind: "idle" });
  };

  const addFiles = (list: FileList | null) => {
    if (!list) return;
    const add = Array.from(list);
    setFiles((prev) => {
      const seen = new Set(prev.map((f) => `${f.name}:${f.size}`));
      return [...prev, ...add.filter((f) => !seen.has(`${f.name}:${f.size}`))];
    });
    setStage((st) => (st.kind === "error" ? { kind: "idle" } : st));
  };

  /** Takes `text` as the pasted log text (named on its first arrival). */
  const takePaste = (text: string) => {
    setPasteText(text);
    setPasteName((n) => (text.trim() ? (n ?? pasteFileName(new Date())) : null));
    setStage((st) => (st.kind === "error" ? { kind: "idle" } : st));
  };

  const busy = stage.kind === "uploading" || stage.kind === "parsing";
  busyRef.current = busy;

  // a paste anywhere on the page (not into another field) lands in the paste box; pasted files join the list
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      if (busyRef.current || isField(e.target as Element | null) || isField(document.activeElement)) return;
      const data = e.clipboardData;
      if (!data) return;
      if (data.files.length > 0) {
        e.preventDefault();
        addFiles(data.files);
        return;
      }
      const text = data.getData("text/plain");
      if (!text.trim()) return;
      e.preventDefault();
      takePaste(text);
      pasteRef.current?.focus({ preventScroll: true });
      pasteRef.current?.scrollIntoView({ block: "nearest" });
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
    // addFiles and takePaste only use state setters: registered once
  }, []);

  // what bootline recognises in the paste, debounced; a newer text or option cancels the older request
  useEffect(() => {
    if (!pasteText.trim()) {
      setPreview({ kind: "idle" });
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(async () => {
      const bad = checkFields({ tz, year, collected });
      if (bad) return setPreview({ kind: "error", message: bad });
      const bytes = new TextEncoder().encode(pasteText).length;
      if (bytes > PREVIEW_MAX_BYTES)
        return setPreview({
          kind: "error",
          message: `${fmtBytes(bytes)} of text is more than the preview reads (${fmtBytes(PREVIEW_MAX_BYTES)}); “Upload and parse” still takes it`,
        });
      setPreview((p) => ({ kind: "loading", last: p.kind === "ready" ? p.data : p.kind === "loading" ? p.last : null }));
      try {
        const data = await fetchJson<TPreview>("/api/preview", {
          method: "POST",
          headers: { "content-type": "application/json" },
          signal: ctl.signal,
          body: JSON.stringify({
            text: pasteText,
            name: pasteName ?? undefined,
            node: node.trim() || undefined,
            tz: tz.trim() || undefined,
            year: year.trim() || undefined,
            collected: collected.trim() ? new Date(Date.parse(normaliseCollected(collected))).toISOString() : undefined,
          }),
        });
        if (!ctl.signal.aborted) setPreview({ kind: "ready", data });
      } catch (err) {
        if (!ctl.signal.aborted) setPreview({ kind: "error", message: (err as Error).message });
      }
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [pasteText, pasteName, node, tz, year, collected]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const pasted = pasteText.trim() ? [new File([pasteText], pasteName ?? pasteFileName(new Date()), { type: "text/plain" })] : [];
    const all = [...files, ...pasted];
    if (all.length === 0) return setStage({ kind: "error", message: "choose at least one file to upload, or paste log text" });
    if (target === "existing" && !incidentId) return setStage({ kind: "error", message: "choose the incident to add to" });
    const bad = checkFields({ tz, year, collected });
    if (bad) return setStage({ kind: "error", message: bad });
    const form = buildUploadForm({
      files: all,
      title: target === "new" ? title : undefined,
      incidentId: target === "existing" ? incidentId : undefined,
      node,
      tz,
      year,
      collected: collected.trim() ? new Date(Date.parse(normaliseCollected(collected))).toISOString() : undefined,
    });
    const total = all.reduce((n, f) => n + f.size, 0);
    setStage({ kind: "uploading", loaded: 0, total });
    const req = uploadWithProgress("/api/uploads", form, (loaded, t) => setStage({ kind: "uploading", loaded, total: t || total }));
    abortRef.current = req.abort;
    try {
      const result = await req.promise;
      setStage({ kind: "parsing", result, newIncident: target === "new" });
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
    } catch (err) {
      setStage({ kind: "error", message: (err as Error).message });
    } finally {
      abortRef.current = null;
    }
  };

  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  const pasteLines = useMemo(() => (pasteText ? pasteText.split("\n").length - (pasteText.endsWith("\n") ? 1 : 0) : 0), [pasteText]);
  const pasteBytes = useMemo(() => new TextEncoder().encode(pasteText).length, [pasteText]);
  const shown = preview.kind === "ready" ? preview.data : preview.kind === "loading" ? preview.last : null;
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
      <div
        className={`dropzone${dragOver ? " over" : ""}${busy ? " disabled" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragOver(true);
        }}
        onDragLeave={() => setDragOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragOver(false);
          if (!busy) addFiles(e.dataTransfer.files);
        }}
        onClick={() => !busy && inputRef.current?.click()}
        role="button"
        tabIndex={0}
        onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && !busy && inputRef.current?.click()}
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
            addFiles(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />
      </div>
      {files.length > 0 && (
        <ul className="file-list" data-testid="upload-file-list">
          {files.map((f, i) => (
            <li key={`${f.name}:${f.size}`}>
              <span className="mono">{f.name}</span>
              <span className="muted">{fmtBytes(f.size)}</span>
              {!busy && (
                <button type="button" className="btn small" aria-label={`remove ${f.name}`} onClick={() => setFiles(files.filter((_, j) => j !== i))}>
                  ✕
                </button>
              )}
            </li>
          ))}
          <li className="muted small">
            {files.length} file{files.length === 1 ? "" : "s"}, {fmtBytes(totalBytes)}
          </li>
        </ul>
      )}

      <div className={styles.paste}>
        <div className={styles.pasteHead}>
          <label htmlFor="paste-text">Paste log text</label>
          <span className="spacer" />
          {pasteText && !busy && (
            <button type="button" className="btn small" onClick={() => takePaste("")} aria-label="clear the pasted text">
              clear
            </button>
          )}
        </div>
        <textarea
          id="paste-text"
          ref={pasteRef}
          className="input"
          value={pasteText}
          onChange={(e) => takePaste(e.target.value)}
          disabled={busy}
          spellCheck={false}
          autoComplete="off"
          wrap="off"
          placeholder="kubelet, containerd or journalctl lines, kubectl events… (or paste anywhere on this page)"
          aria-describedby="paste-hint"
          data-testid="paste-text"
        />
        <span id="paste-hint" className="small">
          {pasteText ? (
            <>
              uploaded as <span className="mono">{pasteName}</span> ({fmtCount(pasteLines)} line{pasteLines === 1 ? "" : "s"}, {fmtBytes(pasteBytes)}) ·{" "}
            </>
          ) : null}
          <span className={styles.kbd}>Ctrl</span>+<span className={styles.kbd}>Enter</span> uploads
        </span>
      </div>
      {pasteText.trim() && (
        <div data-testid="paste-preview-area">
          {preview.kind === "loading" && (
            <p className={styles.status} role="status">
              reading the pasted text…
            </p>
          )}
          {preview.kind === "error" && (
            <p className="warn small" role="status" data-testid="paste-preview-error">
              No preview: {preview.message}
            </p>
          )}
          {shown && <PastePreview preview={shown} />}
        </div>
      )}

      <fieldset className="target" disabled={busy}>
        <legend className="sr-only">incident</legend>
        <label className="radio">
          <input type="radio" name="target" checked={target === "new"} onChange={() => setTarget("new")} /> new incident
        </label>
        <label className="radio">
          <input type="radio" name="target" checked={target === "existing"} onChange={() => setTarget("existing")} disabled={p.incidents.length === 0} /> add to
          an existing incident
        </label>
        {target === "new" ? (
          <label className="field">
            <span>Incident title</span>
            <input className="input" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="prod-eu reboot 03-14" maxLength={200} />
          </label>
        ) : (
          <label className="field">
            <span>Incident</span>
            <select className="input" value={incidentId} onChange={(e) => setIncidentId(e.target.value)}>
              {p.incidents.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.title}
                </option>
              ))}
            </select>
          </label>
        )}
      </fieldset>

      <details className="advanced">
        <summary>Node, time zone, year, collection time (optional)</summary>
        <fieldset disabled={busy}>
          <label className="field">
            <span>Node name</span>
            <input className="input" value={node} onChange={(e) => setNode(e.target.value)} placeholder="from the bundle layout or hostnames" />
          </label>
          <label className="field">
            <span>Time zone of zone-less stamps</span>
            <input className="input" list="tz-list" value={tz} onChange={(e) => setTz(e.target.value)} placeholder="UTC" />
            <datalist id="tz-list">
              {COMMON_ZONES.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </label>
          <label className="field">
            <span>Year of year-less stamps</span>
            <input className="input" inputMode="numeric" value={year} onChange={(e) => setYear(e.target.value)} placeholder="inferred" />
          </label>
          <label className="field">
            <span>Collected at (UTC unless a zone is given)</span>
            <input className="input" value={collected} onChange={(e) => setCollected(e.target.value)} placeholder="2026-03-14T02:30:00Z" />
          </label>
        </fieldset>
      </details>

      <div className="upload-actions">
        <button type="submit" className="btn primary" disabled={busy}>
          Upload and parse
        </button>
        {stage.kind === "uploading" && (
          <button type="button" className="btn" onClick={() => abortRef.current?.()}>
            cancel
          </button>
        )}
      </div>

      {stage.kind === "uploading" && (
        <ProgressBar
          testId="upload-progress"
          label={`uploading ${fmtBytes(stage.loaded)} of ${fmtBytes(stage.total)}`}
          value={stage.total ? stage.loaded / stage.total : null}
        />
      )}
      {stage.kind === "parsing" && (
        <>
          <ProgressBar testId="upload-progress" label="uploaded" value={1} tone="ok" />
          <ProgressBar
            testId="parse-progress"
            label={
              !s
                ? "waiting for the parser"
                : s.status === "queued"
                  ? "queued"
                  : s.status === "ready"
                    ? opening || openedRef.current !== s.id
                      ? "stored, opening the incident…"
                      : "done ✓"
                    : phaseLabel(s.phase)
            }
            value={s ? (s.status === "ready" ? 1 : s.progress) : null}
          />
          {s?.counts && typeof s.counts.events === "number" && <p className="muted small">{fmtCount(s.counts.events)} events so far</p>}
          <p className="small">
            <Link href={`/i/${encodeURIComponent(stage.result.incidentId)}`}>open the incident</Link> (its nodes show there as they are found)
          </p>
        </>
      )}
      {stage.kind === "error" && (
        <div className="error-box" role="alert" data-testid="upload-error">
          <strong>Could not {stage.result ? "parse" : "upload"} the bundle.</strong> {stage.message}
          <div className="row-gap">
            {stage.result && <Link href={`/i/${encodeURIComponent(stage.result.incidentId)}`}>see what was read in the incident</Link>}
            <button type="button" className="btn small" data-testid="upload-dismiss" onClick={dismiss} disabled={dismissing}>
              {stage.result && stage.newIncident ? (dismissing ? "deleting…" : "dismiss and delete the incident") : "dismiss"}
            </button>
          </div>
        </div>
      )}
    </form>
  );
}
