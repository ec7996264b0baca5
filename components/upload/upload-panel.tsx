"use client";
/**
 * Upload a node log bundle: drop or pick files (archives or plain logs, several at once),
 * name a new incident or add to an existing one, optionally give node / zone / year /
 * collection time, then watch two progress bars: the upload (XHR upload progress) and
 * the parse (polling the bundle status). Goes to the incident when it is ready.
 */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { queryKeys } from "@/components/data/query-keys";
import { useBundleStatusQuery } from "@/components/data/use-bundle-status-query";
import { ProgressBar } from "@/components/progress-bar";
import { fmtBytes, fmtCount } from "@/lib/timeline/format";
import { buildUploadForm, uploadWithProgress, type TUploadResult } from "./upload-request";

const ACCEPTED_HINT = ".tar.gz .tgz .tar .tar.xz .zip .gz, or plain log files";
const COMMON_ZONES = ["UTC", "America/Los_Angeles", "America/New_York", "Europe/London", "Europe/Berlin", "Asia/Kolkata", "Asia/Shanghai", "Asia/Tokyo", "Australia/Sydney"];
const PHASES: Record<string, string> = { queued: "waiting to start", unpack: "unpacking", parse: "parsing lines", ingest: "parsing and storing events", store: "storing events", detect: "running detectors", done: "done" };

type TStage =
  | { kind: "idle" }
  | { kind: "uploading"; loaded: number; total: number }
  | { kind: "parsing"; result: TUploadResult }
  | { kind: "error"; message: string; result?: TUploadResult };

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

  const bundleId = stage.kind === "parsing" ? stage.result.bundleId : null;
  const status = useBundleStatusQuery(bundleId);
  const s = status.data;

  useEffect(() => {
    if (stage.kind !== "parsing" || !s) return;
    if (s.status === "ready") {
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      router.push(`/i/${encodeURIComponent(stage.result.incidentId)}`);
    } else if (s.status === "failed") {
      setStage({ kind: "error", message: s.error || "parsing failed", result: stage.result });
    }
  }, [s, stage, router, qc]);

  useEffect(() => {
    if (stage.kind === "parsing" && status.error)
      setStage({ kind: "error", message: `lost track of the parse: ${(status.error as Error).message}`, result: stage.result });
  }, [status.error, stage]);

  const addFiles = (list: FileList | null) => {
    if (!list) return;
    const add = Array.from(list);
    setFiles((prev) => {
      const seen = new Set(prev.map((f) => `${f.name}:${f.size}`));
      return [...prev, ...add.filter((f) => !seen.has(`${f.name}:${f.size}`))];
    });
    if (stage.kind === "error") setStage({ kind: "idle" });
  };

  const busy = stage.kind === "uploading" || stage.kind === "parsing";
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (files.length === 0) return setStage({ kind: "error", message: "choose at least one file to upload" });
    if (target === "existing" && !incidentId) return setStage({ kind: "error", message: "choose the incident to add to" });
    const bad = checkFields({ tz, year, collected });
    if (bad) return setStage({ kind: "error", message: bad });
    const form = buildUploadForm({
      files,
      title: target === "new" ? title : undefined,
      incidentId: target === "existing" ? incidentId : undefined,
      node,
      tz,
      year,
      collected: collected.trim() ? new Date(Date.parse(normaliseCollected(collected))).toISOString() : undefined,
    });
    const total = files.reduce((n, f) => n + f.size, 0);
    setStage({ kind: "uploading", loaded: 0, total });
    const req = uploadWithProgress("/api/uploads", form, (loaded, t) => setStage({ kind: "uploading", loaded, total: t || total }));
    abortRef.current = req.abort;
    try {
      const result = await req.promise;
      setStage({ kind: "parsing", result });
    } catch (err) {
      setStage({ kind: "error", message: (err as Error).message });
    } finally {
      abortRef.current = null;
    }
  };

  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  return (
    <form className="panel upload" id="upload" onSubmit={submit} aria-labelledby="upload-h" data-testid="upload-form">
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
            label={s ? `${s.status === "queued" ? "queued" : PHASES[s.phase] ?? s.phase}${s.status === "ready" ? " ✓" : ""}` : "waiting for the parser"}
            value={s ? (s.status === "ready" ? 1 : s.progress) : null}
          />
          {s?.counts && typeof s.counts.events === "number" && <p className="muted small">{fmtCount(s.counts.events)} events so far</p>}
          <p className="small">
            <Link href={`/i/${encodeURIComponent(stage.result.incidentId)}`}>open the incident</Link> (it fills in as parsing goes on)
          </p>
        </>
      )}
      {stage.kind === "error" && (
        <div className="error-box" role="alert" data-testid="upload-error">
          <strong>Could not {stage.result ? "parse" : "upload"} the bundle.</strong> {stage.message}
          {stage.result && (
            <div>
              <Link href={`/i/${encodeURIComponent(stage.result.incidentId)}`}>see what was read in the incident</Link>
            </div>
          )}
        </div>
      )}
    </form>
  );
}
