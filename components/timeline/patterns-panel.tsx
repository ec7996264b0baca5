"use client";
/**
 * The timeline's patterns panel: the boot's message templates (lib/patterns), most events first,
 * each with a sparkline over the boot, its count, first and last T+, lanes, and whether the
 * baseline (the node's previous boot, or the other nodes) logged it; "only" shows its events
 * alone in the events table, "hide" leaves them out (both kept in the URL: `pat`, `xpat`). Below,
 * the templates of the previous boot this one no longer logs.
 */
import { useState } from "react";
import { useBootPatternsQuery } from "@/components/data/use-boot-patterns-query";
import type { TPatternRow } from "@/lib/queries/get-boot-patterns";
import { fmtCount } from "@/lib/view/format";

/** Templates listed before "show all". */
const FIRST_ROWS = 15;

const fmtT = (s: number | null) => (s === null ? "–" : `T+${s < 60 ? `${s.toFixed(1)}s` : s < 3600 ? `${(s / 60).toFixed(1)}m` : `${(s / 3600).toFixed(1)}h`}`);

function Spark({ bins }: { bins: number[] }) {
  const max = Math.max(1, ...bins);
  const w = 80;
  const h = 16;
  const step = w / bins.length;
  return (
    <svg width={w} height={h} aria-hidden="true" className="pat-spark">
      {bins.map((n, i) =>
        n ? <rect key={i} x={i * step} y={h - Math.max(1, (n / max) * h)} width={Math.max(1, step - 0.5)} height={Math.max(1, (n / max) * h)} /> : null,
      )}
    </svg>
  );
}

export function PatternsPanel(props: {
  incidentId: string;
  bootId: number;
  pat: string | null;
  xpat: string[];
  onPat(pat: string | null): void;
  onXpat(xpat: string[]): void;
}) {
  const q = useBootPatternsQuery(props.incidentId, props.bootId);
  const [all, setAll] = useState(false);
  const data = q.data;
  const list = data?.patterns ?? [];
  const shown = all ? list : list.slice(0, FIRST_ROWS);
  const hidden = new Set(props.xpat);
  const toggleHide = (p: TPatternRow) => props.onXpat(hidden.has(p.key) ? props.xpat.filter((k) => k !== p.key) : [...props.xpat, p.key]);
  const baseline =
    data?.baseline.kind === "previous" ? "the node's previous boot" : data?.baseline.kind === "other-nodes" ? "the other nodes over the same T+ span" : null;
  return (
    <section className="panel patterns-panel" aria-label="patterns" data-testid="patterns-panel">
      <h2>
        Patterns{" "}
        <span className="muted small">
          {q.isLoading ? "loading…" : `${fmtCount(list.length)} message templates${baseline ? `; new: not logged by ${baseline}` : ""}`}
        </span>
      </h2>
      {q.isError && <p className="error small">The patterns could not be read.</p>}
      {(props.pat || props.xpat.length > 0) && (
        <p className="small">
          {props.pat && (
            <button type="button" className="btn small" onClick={() => props.onPat(null)} data-testid="pattern-clear">
              show every pattern
            </button>
          )}{" "}
          {props.xpat.length > 0 && (
            <button type="button" className="btn small" onClick={() => props.onXpat([])} data-testid="pattern-unhide">
              show {props.xpat.length} hidden
            </button>
          )}
        </p>
      )}
      {list.length > 0 && (
        <table className="pat-table small">
          <thead>
            <tr>
              <th>over the boot</th>
              <th>events</th>
              <th>template</th>
              <th>first – last</th>
              <th>lanes</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => (
              <tr key={p.key} data-testid="pattern-row" data-key={p.key} className={hidden.has(p.key) ? "muted" : undefined}>
                <td>
                  <Spark bins={p.spark} />
                </td>
                <td className="mono">{fmtCount(p.count)}</td>
                <td className="mono pat-template" title={p.components.join(", ")}>
                  {p.new && (
                    <span className="badge" title={`not logged by ${baseline ?? "the baseline"}`}>
                      new
                    </span>
                  )}{" "}
                  {p.template}
                </td>
                <td className="mono">
                  {fmtT(p.firstT)} – {fmtT(p.lastT)}
                </td>
                <td>{p.lanes.join(", ")}</td>
                <td className="pat-actions">
                  <button
                    type="button"
                    className="btn small"
                    aria-pressed={props.pat === p.key}
                    data-testid="pattern-only"
                    onClick={() => props.onPat(props.pat === p.key ? null : p.key)}
                  >
                    only
                  </button>
                  <button type="button" className="btn small" aria-pressed={hidden.has(p.key)} data-testid="pattern-hide" onClick={() => toggleHide(p)}>
                    {hidden.has(p.key) ? "unhide" : "hide"}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.length > FIRST_ROWS && (
        <button type="button" className="btn small" onClick={() => setAll(!all)}>
          {all ? `first ${FIRST_ROWS}` : `all ${fmtCount(list.length)}`}
        </button>
      )}
      {data && data.stopped.length > 0 && (
        <details className="small">
          <summary>{fmtCount(data.stopped.length)} templates of the previous boot this boot did not log</summary>
          <ul>
            {data.stopped.slice(0, 20).map((p) => (
              <li key={p.key} className="mono">
                {fmtCount(p.count)} × {p.template} (first {fmtT(p.firstT)})
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
