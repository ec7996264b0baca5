"use client";
/**
 * The node boot page's events: the count of the range (exact, or "at least" while the count goes
 * on), the search (whole words or part of a word), the lane, severity, pod and kind filters, the
 * selected finding's evidence note, the events table and the selected event's detail. Filters
 * live in the URL (the view state); the search and pod boxes write to it after a pause.
 */
import { useState } from "react";
import type { useEventFacetsQuery } from "@/components/data/use-event-facets-query";
import type { useEventsCountQuery } from "@/components/data/use-events-count-query";
import type { useEventsPageQuery } from "@/components/data/use-events-page-query";
import type { TFindingView } from "@/lib/incidents/get-incident";
import type { TEventRow } from "@/lib/queries/get-events-page";
import { fmtCount, fmtOffset } from "@/lib/view/format";
import { LANE_LABELS, LANES, SEVERITY_NAMES, type TLane } from "@/lib/view/lanes";
import { EventDetail } from "./event-detail";
import { EventsTable } from "./events-table";
import { useUrlText } from "./use-url-text";
import type { TViewStateApi } from "./use-view-state";

export function EventsPanel(p: {
  incidentId: string;
  bootKey: string;
  /** T+0 and the visible range, UTC ms */
  t0: number;
  from: number;
  to: number;
  vs: TViewStateApi;
  events: ReturnType<typeof useEventsPageQuery>;
  /** the rows of the pages loaded */
  rows: TEventRow[];
  counts: ReturnType<typeof useEventsCountQuery>;
  facets: ReturnType<typeof useEventFacetsQuery>;
  /** how far the pages loaded have read the range (a search still under way), UTC ms; null when done */
  scannedToMs: number | null;
  selectedFinding: TFindingView | null;
  /** the selected finding's evidence event ids, their number (null while loading) and how many are in the rows loaded */
  evidence: ReadonlySet<string>;
  evidenceCount: number | null;
  evidenceInView: number;
  onZoomTo(from: number, to: number): void;
}) {
  const { vs, events, counts, facets, rows, scannedToMs, from, to, t0 } = p;
  const { state } = vs;
  // search and pod boxes: local text, written to the URL after a pause
  const [qText, setQText] = useUrlText(state.q, vs.setQ);
  const [podText, setPodText] = useUrlText(state.pod, vs.setPod);
  // the selected event's panel at half the width (long raw lines)
  const [detailWide, setDetailWide] = useState(false);
  const singleLane = state.lanes.length === 1 ? state.lanes[0] : "";
  const filtered = state.sev > 0 || !!state.q || !!state.pod || !!state.kind || !!state.pat || state.xpat.length > 0;
  return (
    <section className="panel events-panel" aria-label="events" id="events" tabIndex={-1}>
      <div className="ev-toolbar">
        <h2>
          Events{" "}
          <span className="muted small mono">
            {fmtOffset(from, t0, 1)} – {fmtOffset(to, t0, 1)}
          </span>{" "}
          <span
            className="small"
            data-testid="events-count"
            data-total={counts.data && !counts.isPlaceholderData && !counts.progress ? counts.data.total : undefined}
            data-matching={counts.data && !counts.isPlaceholderData && !counts.progress ? counts.data.matching : undefined}
          >
            {counts.progress ? (
              <span data-testid="events-count-progress" title="counted so far; the count goes on through the rest of the range">
                at least {fmtCount(counts.progress.matching)} of {fmtCount(counts.progress.total)}{" "}
                <span className="muted">
                  · counting, {fmtOffset(from, t0, 1)} – {fmtOffset(counts.progress.scannedToMs, t0, 1)} done (
                  {Math.floor(((counts.progress.scannedToMs - from) / Math.max(1, to - from)) * 100)}%)
                </span>
              </span>
            ) : counts.data && counts.isPlaceholderData ? (
              <span className="muted">counting…</span>
            ) : counts.data ? (
              !filtered ? (
                `${fmtCount(counts.data.total)} events`
              ) : (
                `${fmtCount(counts.data.matching)}${counts.data.capped ? "+" : ""} of ${fmtCount(counts.data.total)}`
              )
            ) : (
              <span className="muted">counting…</span>
            )}
          </span>
        </h2>
        <span className="spacer" />
        <input
          type="search"
          className="input"
          placeholder={state.match === "substring" ? "search message or pod…" : "pod, sandbox id or error words…"}
          aria-label="search events"
          title={
            state.match === "substring"
              ? "any part of a word in the message or pod"
              : "whole words, in order, in the message, pod, sandbox id or parsed fields (as the incident search); a short id (12 or more hex digits) finds the full id"
          }
          data-testid="events-search"
          value={qText}
          maxLength={200}
          onChange={(e) => setQText(e.target.value)}
        />
        <label className="small" title="match any part of a word or id (reads every event of the range: slower)">
          <input
            type="checkbox"
            checked={state.match === "substring"}
            onChange={(e) => vs.setMatch(e.target.checked ? "substring" : "words")}
            data-testid="events-search-substring"
          />{" "}
          part of a word
        </label>
        <select
          className="input"
          aria-label="lane"
          data-testid="filter-lane"
          value={singleLane}
          onChange={(e) => vs.setLanes(e.target.value ? [e.target.value as TLane] : [...LANES])}
        >
          <option value="">{state.lanes.length === LANES.length ? "all lanes" : `${state.lanes.length} lanes`}</option>
          {LANES.map((l) => (
            <option key={l} value={l}>
              {LANE_LABELS[l]}
            </option>
          ))}
        </select>
        <select className="input" aria-label="minimum severity" data-testid="filter-sev" value={state.sev} onChange={(e) => vs.setSev(Number(e.target.value))}>
          {SEVERITY_NAMES.map((n, i) => (
            <option key={n} value={i}>
              {i === 0 ? "all severities" : `${n} and above`}
            </option>
          ))}
        </select>
        <input
          type="search"
          className="input input-pod"
          placeholder="pod…"
          aria-label="pod"
          data-testid="filter-pod"
          list="ev-pods"
          value={podText}
          maxLength={320}
          onChange={(e) => setPodText(e.target.value)}
        />
        <datalist id="ev-pods">
          {(facets.data?.pods ?? []).map((x) => (
            <option key={x.pod} value={x.pod}>
              {`${fmtCount(x.n)} signal events`}
            </option>
          ))}
        </datalist>
        <select className="input" aria-label="kind" data-testid="filter-kind" value={state.kind} onChange={(e) => vs.setKind(e.target.value)}>
          <option value="">all kinds</option>
          {state.kind && !facets.data?.kinds.some((k) => k.kind === state.kind) && state.kind !== "log" && <option value={state.kind}>{state.kind}</option>}
          {(facets.data?.kinds ?? []).map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.kind} ({fmtCount(k.n)})
            </option>
          ))}
          <option value="log">log (plain lines)</option>
        </select>
        {(filtered || state.lanes.length < LANES.length) && (
          <button
            type="button"
            className="btn small"
            onClick={() => {
              vs.setLanes([...LANES]);
              vs.setSev(0);
              vs.setQ("");
              vs.setPod("");
              vs.setKind("");
            }}
          >
            clear filters
          </button>
        )}
      </div>
      {p.selectedFinding && (
        <p className="ev-evidence-note small" data-testid="evidence-note">
          <span className="evidence-swatch" /> evidence of <b>{p.selectedFinding.detector}</b>:{" "}
          {p.evidenceCount !== null ? `${fmtCount(p.evidenceCount)} events, ${fmtCount(p.evidenceInView)} in the rows loaded` : "loading…"}{" "}
          <button type="button" className="btn small" onClick={() => vs.selectFinding(null)}>
            clear
          </button>
        </p>
      )}
      <div className={`ev-layout${state.ev ? " with-detail" : ""}${detailWide ? " wide-detail" : ""}`}>
        <EventsTable
          t0={t0}
          rows={rows}
          hasNextPage={!!events.hasNextPage}
          isFetchingNextPage={events.isFetchingNextPage}
          fetchNextPage={() => void events.fetchNextPage()}
          loading={events.isLoading}
          stale={events.isPlaceholderData}
          error={events.error ? (events.error as Error).message : null}
          selectedId={state.ev}
          onSelect={vs.setEv}
          evidence={p.evidence}
          scanning={scannedToMs === null ? null : { at: scannedToMs, from, to }}
        />
        {state.ev && (
          <EventDetail
            incidentId={p.incidentId}
            eventId={state.ev}
            t0={t0}
            bootKey={p.bootKey}
            onClose={() => vs.setEv(null)}
            onZoomTo={(ts) => p.onZoomTo(ts - 5000, ts + 5000)}
            wide={detailWide}
            onToggleWide={() => setDetailWide((w) => !w)}
          />
        )}
      </div>
    </section>
  );
}
