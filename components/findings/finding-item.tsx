/**
 * One finding: severity, detector, title, window start/end as UTC wall clock and T+
 * seconds, the metrics reviewers quote (attempts, pods, error class, closed by) and the
 * explanation. Plain server-renderable markup; actions are passed in.
 */
import type { ReactNode } from "react";
import type { TFindingView } from "@/lib/incidents/get-incident";
import { fmtBootKey, fmtDuration, fmtMetric as metricText, fmtOffset, fmtUtc, metricLabel } from "@/lib/timeline/format";

const KNOWN = ["attempts", "pods", "errorClass", "closedBy"] as const;
const KNOWN_LABEL: Record<(typeof KNOWN)[number], string> = { attempts: "attempts", pods: "pods", errorClass: "error class", closedBy: "closed by" };

export function FindingItem(p: { f: TFindingView; actions?: ReactNode; showNode?: boolean; selected?: boolean }) {
  const f = p.f;
  const extra = Object.entries(f.metrics).filter(([k]) => !(KNOWN as readonly string[]).includes(k));
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
      <p className="finding-explanation">{f.explanation}</p>
    </li>
  );
}
