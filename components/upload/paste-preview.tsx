/**
 * What bootline recognised in a pasted text (`POST /api/preview`, lib/ingest/preview-text.ts),
 * shown before anything is stored: per file the format (and what it is), records, lines read,
 * records with a time and the node (marked when no log named it); per node boot T+0 (flagged
 * when approximate), failed sandbox attempts, the sandbox failure windows with their numbers and
 * the other findings' titles. A file that is not read says why.
 */
import { NodeNameMark } from "@/components/incidents/node-name-mark";
import { plural } from "@/lib/detect/numbers";
import type { TPreview, TPreviewBoot, TPreviewFile } from "@/lib/ingest/preview-text";
import { fmtCount, fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import styles from "./paste.module.css";

const DETECTED_BY: Record<string, string> = {
  separator: "journal boot separator",
  "boot-id": "journal boot id",
  "kubelet-start": "kubelet start after silence",
  "runtime-start": "runtime start after silence",
  "first-event": "the earliest event (no boot marker)",
  "last-reboot": "last reboot row",
  "list-boots": "journalctl --list-boots row",
};

function FileSummary({ f }: { f: TPreviewFile }) {
  const nonBlank = f.lines - f.blank;
  return (
    <div className={styles.file} data-testid="preview-file" data-read={f.read ? "yes" : "no"}>
      <div className={styles.fileHead}>
        <span className={styles.format}>
          format{" "}
          <b className={`mono ${f.read ? "ok" : "bad"}`} data-testid="preview-format">
            {f.format}
          </b>
        </span>
        <span className="muted small">{f.description}</span>
      </div>
      <dl className={styles.facts}>
        <div>
          <dt>records</dt>
          <dd data-testid="preview-records">{fmtCount(f.records)}</dd>
        </div>
        <div>
          <dt>lines read</dt>
          <dd data-testid="preview-lines">
            {fmtCount(f.linesRead)} / {fmtCount(nonBlank)}
            {f.blank > 0 && <span className="muted"> (+{fmtCount(f.blank)} blank)</span>}
          </dd>
        </div>
        <div>
          <dt>with a time</dt>
          <dd data-testid="preview-timed">
            {fmtCount(f.timed)}
            {f.aged > 0 && <span className="muted"> (+{fmtCount(f.aged)} from ages)</span>}
          </dd>
        </div>
        {f.components.length > 0 && (
          <div>
            <dt>from</dt>
            <dd>{f.components.join(", ")}</dd>
          </div>
        )}
        <div>
          <dt>node</dt>
          <dd>
            {f.node ? (
              <>
                <span className="mono" data-testid="preview-node">
                  {f.node}
                </span>{" "}
                {f.nodeUnnamed && <NodeNameMark nameSource="upload" />}
              </>
            ) : (
              <span className="muted">none</span>
            )}
          </dd>
        </div>
        {f.timed + f.aged > 0 && (
          <div>
            <dt>zone</dt>
            <dd>
              {f.timeZone}
              {f.zoneSource === "default" && <span className="muted"> (assumed for zone-less stamps)</span>}
            </dd>
          </div>
        )}
      </dl>
      {!f.read && (
        <p className={styles.notRead} data-testid="preview-not-read">
          <strong>Not read</strong> (under 80% of its non-blank lines parsed){f.explanation ? `: ${f.explanation}` : "."}
        </p>
      )}
      {f.read && f.explanation && (
        <p className="warn small" data-testid="preview-file-note">
          {f.explanation}
        </p>
      )}
    </div>
  );
}

function BootSummary({ b, count }: { b: TPreviewBoot; count: number }) {
  return (
    <li className={styles.boot} data-testid="preview-boot">
      <div>
        <b>boot {count > 1 ? `${b.bootKey}` : ""}</b> T+0 <span className="mono">{fmtUtc(b.startMs)} UTC</span>
        {b.approximate ? (
          <span className="warn" data-testid="preview-t0-approximate">
            {" "}
            (approximate: {DETECTED_BY[b.detectedBy] ?? b.detectedBy})
          </span>
        ) : (
          <span className="muted"> ({DETECTED_BY[b.detectedBy] ?? b.detectedBy})</span>
        )}
        <span className="muted"> · {plural(b.events, "event")}</span>
      </div>
      <div data-testid="preview-attempts">{plural(b.attempts, "failed sandbox attempt")}</div>
      {b.windows.map((w, i) => (
        <div key={i} className={`${styles.window} sev-${w.severity}`} data-testid="preview-window">
          <div>
            <span className={`sev-badge sev-${w.severity}`}>{w.severity}</span> <b>sandbox failure window</b>: {plural(w.attempts, "attempt")},{" "}
            {plural(w.pods, "pod")}
            {w.errorClass && (
              <>
                , class{" "}
                <span className="mono" data-testid="preview-error-class">
                  {w.errorClass}
                </span>
              </>
            )}
          </div>
          <div className="mono small">
            first {fmtUtc(w.firstMs)} UTC ({fmtOffset(w.firstMs, b.startMs)}) · last {fmtUtc(w.lastMs)} UTC ({fmtOffset(w.lastMs, b.startMs)})
            {w.endMs === null ? (
              <span className="warn"> · still open when the data ends</span>
            ) : (
              <span className="muted"> · closed, {fmtDuration(w.endMs - w.firstMs)}</span>
            )}
          </div>
          {w.approximate.length > 0 && (
            <ul className={styles.approx} data-testid="preview-approximate">
              {w.approximate.map((r) => (
                <li key={r}>approximate: {r}</li>
              ))}
            </ul>
          )}
        </div>
      ))}
      {b.findings.length > 0 && (
        <ul className={styles.findings}>
          {b.findings.map((f, i) => (
            <li key={i} data-testid="preview-finding">
              <span className={`sev-badge sev-${f.severity}`}>{f.severity}</span> <span className="muted mono small">{f.detector}</span> {f.title}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function PastePreview({ preview }: { preview: TPreview }) {
  const boots = preview.nodes.reduce((n, x) => n + x.boots.length, 0);
  return (
    <section className={styles.preview} aria-labelledby="preview-h" data-testid="paste-preview" aria-live="polite">
      <h3 id="preview-h">What bootline recognised</h3>
      {preview.files.map((f) => (
        <FileSummary key={f.path} f={f} />
      ))}
      {preview.nodes.map((n) => (
        <div key={n.name} className={styles.node}>
          <div>
            node <span className="mono">{n.name}</span> {n.unnamed && <NodeNameMark nameSource="upload" />}
          </div>
          <ul className={styles.boots}>
            {n.boots.map((b) => (
              <BootSummary key={b.bootKey} b={b} count={n.boots.length} />
            ))}
          </ul>
          {n.untimedAttempts > 0 && (
            <div data-testid="preview-untimed-attempts">
              {plural(n.untimedAttempts, "failed sandbox attempt")} without a time (in no window)
              {n.untimedErrorClass && (
                <>
                  , class <span className="mono">{n.untimedErrorClass}</span>
                </>
              )}
            </div>
          )}
        </div>
      ))}
      {boots === 0 && preview.files.some((f) => f.records > 0) && <p className="muted small">No boot: no record has a time.</p>}
      {preview.unplaced > 0 && <p className="muted small">{plural(preview.unplaced, "record")} on no boot (no time, or before every boot).</p>}
      {preview.detectorErrors.length > 0 && <p className="bad small">Detectors that failed: {preview.detectorErrors.join("; ")}</p>}
      <p className="muted small">Nothing is stored until you upload it.</p>
    </section>
  );
}
