/**
 * One finding: severity, detector, title, window start/end as UTC wall clock and T+
 * seconds, the metrics reviewers quote (attempts, pods, error class, closed by) and the
 * explanation. A finding whose `metrics.approximate` lists reasons (counts spread from Kubernetes
 * event counts, relative ages, a T+0 without a boot marker) carries an "approximate" badge and
 * the reasons. Plain server-renderable markup; actions are passed in.
 */
import type { ReactNode } from "react";
import type { TFindingView } from "@/lib/incidents/get-incident";
import styles from "./approximate.module.css";
import { fmtBootKey, fmtDuration, fmtMetric as metricText, fmtOffset, fmtUtc, metricLabel } from "@/lib/timeline/format";

const KNOWN = ["attempts", "pods", "errorClass", "closedBy"] as const;
const KNOWN_LABEL: Record<(typeof KNOWN)[number], string> = { attempts: "attempts", pods: "pods", errorClass: "error class", closedBy: "closed by" };
/** Metrics shown elsewhere on the card than in the metrics list. */
const NOT_LISTED = ["approximate"];

/** The reasons a finding's numbers or times are approximate (`metrics.approximate`), or none. */
export function approximateReasons(metrics: Record<string, unknown>): string[] {
  const v = metrics.approximate;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
}

export function FindingItem(p: { f: TFindingView; actions?: ReactNode; showNode?: boolean; selected?: boolean }) {
  const f = p.f;
  const extra = Object.entries(f.metrics).filter(([k]) => !(KNOWN as readonly string[]).includes(k) && !NOT_LISTED.includes(k));
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
        {KNOWN.filter((k) => k in f.metrics).map((k) => (
          <div key={k}>
            <dt>{KNOWN_LABEL[k]}</dt>
            <dd className="mono">{metricText(f.metrics[k])}</dd>
          </div>
        ))}
        {extra.map(([k, v]) => (
          <div key={k}>
            <dt title={k}>{metricLabel(k)}</dt>
            <dd className="mono">{metricText(v)}</dd>
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
    </li>
  );
}
