"use client";
/**
 * "Explain this range": the message templates, pods, components and error classes more frequent
 * in a range of the timeline (the brushed view, or a finding's window) than in a baseline (the
 * span of the same length before it, or the rest of the boot), most significant first
 * (lib/explain/rank.ts), each with its events and share on both sides. A row filters the events
 * table through the filters the URL already keeps: a template shows its events alone (`pat`), a
 * pod fills the pod filter, a component keeps its lane, an error class becomes the search.
 */
import { useRangeExplainQuery } from "@/components/data/use-range-explain-query";
import type { TExplainDimension } from "@/lib/explain/rank";
import type { TExplainBaseline, TRangeExplainRow } from "@/lib/queries/get-range-explain";
import { fmtCount, fmtDuration, fmtOffset } from "@/lib/view/format";

const DIMENSIONS: Array<[TExplainDimension, string]> = [
  ["pattern", "Templates"],
  ["pod", "Pods"],
  ["component", "Components"],
  ["errorClass", "Error classes"],
];
/** Rows shown per dimension. */
const ROWS = 8;

const pct = (share: number) => `${(share * 100).toFixed(share < 0.01 ? 2 : 1)}%`;
const fmtP = (p: number | null) => (p === null ? "–" : p < 1e-6 ? "< 1e-6" : p < 0.001 ? p.toExponential(1) : p.toFixed(3));
/** The ratio of the shares as a factor ("12×"), "new" when the baseline had none of it. */
const fmtRatio = (r: TExplainRow) => {
  if (r.baseline.count === 0) return "new";
  const f = r.range.share / r.baseline.share;
  return `${f >= 100 ? Math.round(f) : f.toFixed(1)}×`;
};
type TExplainRow = TRangeExplainRow;

export interface ExplainFilters {
  onPattern(key: string): void;
  onPod(pod: string): void;
  onComponent(lane: string): void;
  onErrorClass(errorClass: string): void;
}

export function ExplainPanel(
  props: {
    incidentId: string;
    bootId: number;
    t0: number;
    range: { from: number; to: number; label: string };
    baseline: TExplainBaseline;
    onBaseline(b: TExplainBaseline): void;
    onClose(): void;
  } & ExplainFilters,
) {
  const q = useRangeExplainQuery(props.incidentId, props.bootId, props.range, props.baseline);
  const data = q.data;
  const pick = (r: TExplainRow) => {
    if (r.dimension === "pattern" && r.key) props.onPattern(r.key);
    else if (r.dimension === "pod") props.onPod(r.value);
    else if (r.dimension === "component" && r.lane) props.onComponent(r.lane);
    else if (r.dimension === "errorClass") props.onErrorClass(r.value);
  };
  const clickable = (r: TExplainRow) => r.dimension !== "pattern" || r.key !== null;
  const what = (d: TExplainDimension) =>
    d === "pattern" ? "its events alone" : d === "pod" ? "this pod's events" : d === "component" ? "this component's lane" : "events naming this error";
  return (
    <section className="panel explain-panel" aria-label="explain range" data-testid="explain-panel">
      <h2>
        Explain {props.range.label}{" "}
        <span className="muted small mono">
          {fmtOffset(props.range.from, props.t0, 1)} – {fmtOffset(props.range.to, props.t0, 1)} ({fmtDuration(props.range.to - props.range.from)})
        </span>
      </h2>
      <p className="small">
        <label>
          against{" "}
          <select
            className="input"
            aria-label="baseline"
            data-testid="explain-baseline"
            value={props.baseline}
            onChange={(e) => props.onBaseline(e.target.value as TExplainBaseline)}
          >
            <option value="before">the span of the same length before it</option>
            <option value="boot">the rest of the boot</option>
          </select>
        </label>{" "}
        <button type="button" className="btn small" onClick={props.onClose} data-testid="explain-close">
          close
        </button>{" "}
        {q.isFetching && (
          <span className="muted" data-testid="explain-loading">
            counting…
          </span>
        )}
      </p>
      {q.isError && <p className="error small">The range could not be explained: {(q.error as Error).message}</p>}
      {data && (
        <p className="muted small" data-testid="explain-summary">
          {fmtCount(data.range.events)} events in the range,{" "}
          {data.baseline.kind === "before"
            ? `${fmtCount(data.baseline.events)} in the ${fmtDuration(data.baseline.toMs - data.baseline.fromMs)} before it`
            : `${fmtCount(data.baseline.events)} in the rest of the boot`}
          {data.baseline.events === 0 ? ": no baseline, values by their count in the range" : ""}. Ranked by the log-likelihood ratio test of each value's
          share; p: the chance of so uneven a split were the value as frequent on both sides.
          {data.patternsCounted.range === "histogram" || data.patternsCounted.baseline === "histogram"
            ? " Template counts estimated from per-minute histograms (a span of many events)."
            : ""}
        </p>
      )}
      {data && (
        <div className="explain-grid">
          {DIMENSIONS.map(([dim, title]) => {
            const rows = data.rows[dim].slice(0, ROWS);
            return (
              <div key={dim} className="explain-dim" data-testid={`explain-${dim}`}>
                <h3 className="small">{title}</h3>
                {rows.length === 0 ? (
                  <p className="muted small">none more frequent than in the baseline</p>
                ) : (
                  <table className="pat-table small">
                    <thead>
                      <tr>
                        <th>value</th>
                        <th title="events in the range (share of the range's events)">range</th>
                        <th title="events in the baseline (share of its events)">baseline</th>
                        <th title="share in the range over share in the baseline (new: the baseline had none)">ratio</th>
                        <th title="p-value of the log-likelihood ratio test">p</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r) => (
                        <tr key={`${r.key ?? ""}|${r.value}`} data-testid="explain-row" data-dimension={dim} data-key={r.key ?? undefined} data-value={r.value}>
                          <td className="mono pat-template">
                            {clickable(r) ? (
                              <button type="button" className="link-button" onClick={() => pick(r)} title={`show ${what(dim)} in the events table`}>
                                {r.value}
                              </button>
                            ) : (
                              r.value
                            )}
                          </td>
                          <td className="mono">
                            {fmtCount(r.range.count)} <span className="muted">{pct(r.range.share)}</span>
                          </td>
                          <td className="mono">
                            {fmtCount(r.baseline.count)} <span className="muted">{pct(r.baseline.share)}</span>
                          </td>
                          <td className="mono">{fmtRatio(r)}</td>
                          <td className="mono">{fmtP(r.pValue)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
