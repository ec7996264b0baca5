/**
 * One finding: severity, detector, title, window start/end as UTC wall clock and T+
 * seconds, its metrics in words with their units (lib/export/finding-metrics.ts: lists as
 * lists, not-applicable ones left out), the explanation, and for a known cause
 * (lib/causes/causes.ts) what it means, what to do and the public reports and fixes. A finding whose `metrics.approximate` lists reasons (counts spread from Kubernetes
 * event counts, relative ages, a T+0 without a boot marker) carries an "approximate" badge and
 * the reasons. A folded finding (a retry storm's pods) carries its parts as a sortable table
 * (`PartTable`). Server-renderable markup; actions are passed in.
 */
import type { ReactNode } from "react";
import type { TFindingView } from "@/lib/incidents/get-incident";
import styles from "./approximate.module.css";
import { causeOfFinding, type Cause } from "@/lib/causes/causes";
import { metricLines, partTable, partsCount } from "@/lib/export/finding-metrics";
import { PartTable } from "./part-table";
import { fmtBootKey, fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";

/** The reasons a finding's numbers or times are approximate (`metrics.approximate`), or none. */
export function approximateReasons(metrics: Record<string, unknown>): string[] {
  const v = metrics.approximate;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
}

export function FindingItem(p: {
  f: TFindingView;
  actions?: ReactNode;
  showNode?: boolean;
  selected?: boolean;
  /** the incident, for the part table's timeline links (no table without it) */
  incidentId?: string;
  /** the part (pod) selected in the URL */
  selectedPart?: string | null;
}) {
  const f = p.f;
  const parts = p.incidentId ? partTable(f.metrics) : null;
  const lines = metricLines(f.detector, f.metrics);
  const cause = causeOfFinding(f);
  const approx = approximateReasons(f.metrics);
  return (
    <li
      className={`finding sev-${f.severity}${p.selected ? " selected" : ""}`}
      data-testid="finding"
      data-detector={f.detector}
      data-finding-id={f.id}
      aria-current={p.selected || undefined}
    >
      <div className="finding-head">
        <span className={`sev-badge sev-${f.severity}`}>{f.severity}</span>
        <span className="finding-detector mono">{f.detector}</span>
        <span className="finding-title">{f.title}</span>
        {approx.length > 0 && (
          <span className={styles.badge} title={`approximate: ${approx.join("; ")}`} data-testid="finding-approximate">
            approximate
          </span>
        )}
        {p.showNode && (
          <span className="muted">
            {f.nodeName} · boot {fmtBootKey(f.bootKey)}
          </span>
        )}
        <span className="spacer" />
        {p.actions}
      </div>
      <div className="finding-window mono">
        <span title="start">
          {fmtUtc(f.startMs)} UTC <b>{fmtOffset(f.startMs, f.bootStartMs)}</b>
        </span>
        <span className="muted"> → </span>
        {f.endMs === null ? (
          <span className="warn">open until the end of the data</span>
        ) : (
          <span title="end">
            {fmtUtc(f.endMs)} UTC <b>{fmtOffset(f.endMs, f.bootStartMs)}</b>
          </span>
        )}
        {f.endMs !== null && <span className="muted"> · {fmtDuration(f.endMs - f.startMs)}</span>}
      </div>
      <dl className="finding-metrics">
        {lines.map((l) => (
          <div key={l.key}>
            <dt title={l.key}>{l.label}</dt>
            <dd className={l.code ? "mono" : undefined}>
              {l.items ? (
                <ul className="metric-list">
                  {l.items.map((x) => (
                    <li key={x}>{x}</li>
                  ))}
                </ul>
              ) : (
                l.text
              )}
            </dd>
          </div>
        ))}
      </dl>
      {approx.length > 0 && (
        <ul className={styles.reasons} aria-label="why the numbers are approximate" data-testid="finding-approximate-reasons">
          {approx.map((r) => (
            <li key={r}>approximate: {r}</li>
          ))}
        </ul>
      )}
      <p className="finding-explanation">{f.explanation}</p>
      {parts && p.incidentId && (
        <PartTable
          table={parts}
          count={partsCount(f.metrics) ?? ""}
          findingId={f.id}
          incidentId={p.incidentId}
          nodeName={f.nodeName}
          bootKey={f.bootKey}
          selectedKey={p.selected ? p.selectedPart : null}
        />
      )}
      {cause && <CauseNotes cause={cause} />}
    </li>
  );
}

/** The table's text with its `code` spans as <code>. */
function withCode(text: string): ReactNode[] {
  return text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

/** What a known cause means, what to do next, and the public reports and fixes (folded). */
export function CauseNotes({ cause }: { cause: Cause }) {
  return (
    <details className="cause" data-testid="finding-cause" data-cause={cause.key}>
      <summary>
        Next steps: <b>{cause.title}</b>
      </summary>
      <p>{withCode(cause.meaning)}</p>
      <ol>
        {cause.remediation.map((r) => (
          <li key={r}>{withCode(r)}</li>
        ))}
      </ol>
      {cause.refs.length > 0 && (
        <ul className="cause-refs">
          {cause.refs.map((r) => (
            <li key={r.url}>
              <span className="muted">{r.kind === "fix" ? "fix" : r.kind === "docs" ? "guide" : "report"}:</span>{" "}
              <a href={r.url} rel="noreferrer noopener" target="_blank">
                {r.label}
              </a>{" "}
              <span className="muted">{withCode(r.note)}</span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
