"use client";
/**
 * The interactive part of the node boot page: toolbar (zoom, pan, reset, copy link),
 * lanes chart, whole-boot brush, the boot's findings, and the events table with its
 * filters and the selected event. All view state is in the URL (useViewState), so the
 * address is a permalink; data comes through one query hook per resource.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { CopyLinkButton } from "@/components/copy-link-button";
import { useEventsCountQuery } from "@/components/data/use-events-count-query";
import { useEventsPageQuery } from "@/components/data/use-events-page-query";
import { useLaneDensityQuery } from "@/components/data/use-lane-density-query";
import { FindingItem } from "@/components/findings/finding-item";
import type { TBootView } from "@/lib/timeline/get-boot-view";
import { fmtCount, fmtDuration, fmtOffset, fmtUtc } from "@/lib/timeline/format";
import { FAILURE_WINDOW_DETECTOR, LANES, SEVERITY_NAMES, type TLane } from "@/lib/timeline/lanes";
import { bootPath } from "@/lib/timeline/view-state";
import { EventDetail } from "./event-detail";
import { EventsTable } from "./events-table";
import { LanesChart } from "./lanes-chart";
import { OverviewBrush } from "./overview-brush";
import { panRange, zoomRange } from "@/lib/timeline/time-scale";
import { useViewState } from "./use-view-state";

const BUCKETS = 300;

export function TimelineView({ view }: { view: TBootView }) {
  const { state, setRange, setLanes, setSev, setQ, setEv } = useViewState();
  const t0 = view.boot.startMs;
  const bounds = view.range;
  const from = state.from ?? bounds.fromMs;
  const to = state.to ?? bounds.toMs;
  const zoomed = state.from !== null || state.to !== null;
  const dataEndMs = view.extent?.lastMs ?? view.boot.endMs ?? bounds.toMs;

  const windows = useMemo(() => view.findings.filter((f) => f.detector === FAILURE_WINDOW_DETECTOR).sort((a, b) => a.startMs - b.startMs), [view.findings]);
  const others = useMemo(() => view.findings.filter((f) => f.detector !== FAILURE_WINDOW_DETECTOR), [view.findings]);

  const base = { incidentId: view.incident.id, bootId: view.boot.id };
  const overview = useLaneDensityQuery({ ...base, from: bounds.fromMs, to: bounds.toMs, lanes: LANES, buckets: BUCKETS });
  const density = useLaneDensityQuery({ ...base, from, to, lanes: LANES, buckets: BUCKETS });
  const filter = { ...base, from, to, lanes: state.lanes, sev: state.sev, q: state.q };
  const events = useEventsPageQuery(filter);
  const counts = useEventsCountQuery(filter);
  const rows = useMemo(() => events.data?.pages.flatMap((p) => p.events) ?? [], [events.data]);

  // lanes that get a row: the six source lanes, and `other` only when the boot has some
  const otherTotal = overview.data?.lanes.find((l) => l.lane === "other")?.total ?? 0;
  const laneRows = useMemo<TLane[]>(() => LANES.filter((l) => l !== "other" || otherTotal > 0), [otherTotal]);

  const zoomTo = (a: number, b: number) => {
    const lo = Math.max(bounds.fromMs, Math.floor(Math.min(a, b)));
    const hi = Math.min(bounds.toMs, Math.ceil(Math.max(a, b)));
    if (hi - lo < 1) return;
    if (lo <= bounds.fromMs && hi >= bounds.toMs) setRange(null, null);
    else setRange(lo, hi);
  };
  const zoomBy = (factor: number) => zoomTo(...zoomRange(from, to, factor, bounds.fromMs, bounds.toMs));
  const pan = (fraction: number) => zoomTo(...panRange(from, to, fraction, bounds.fromMs, bounds.toMs));
  const toggleLane = (l: TLane) => setLanes(state.lanes.includes(l) ? state.lanes.filter((x) => x !== l) : [...state.lanes, l]);

  // search box: local text, written to the URL after a pause
  // (the URL wins only when it changed from elsewhere: Back, a permalink)
  const [qText, setQText] = useState(state.q);
  const written = useRef(state.q);
  useEffect(() => {
    if (state.q !== written.current) {
      written.current = state.q;
      setQText(state.q);
    }
  }, [state.q]);
  useEffect(() => {
    const next = qText.trim() ? qText : "";
    if (next === written.current) return;
    const t = setTimeout(() => {
      written.current = next;
      setQ(next);
    }, 300);
    return () => clearTimeout(t);
  }, [qText, setQ]);

  const permalink = () =>
    `${window.location.origin}${bootPath(view.incident.id, view.node.name, view.boot.bootKey, { ...state, from, to })}`;

  const firstWindow = windows[0];
  return (
    <div className="timeline-page">
      <div className="tl-toolbar panel" role="toolbar" aria-label="timeline view">
        <div className="tl-range" data-testid="visible-range" data-from={from} data-to={to}>
          <b className="mono">
            {fmtOffset(from, t0)} → {fmtOffset(to, t0)}
          </b>
          <span className="muted mono">
            {fmtUtc(from)} – {fmtUtc(to, { date: new Date(from).toISOString().slice(0, 10) !== new Date(to).toISOString().slice(0, 10) })} UTC ·{" "}
            {fmtDuration(to - from)}
          </span>
        </div>
        <span className="spacer" />
        <div className="btn-group">
          <button type="button" className="btn" onClick={() => pan(-0.5)} disabled={from <= bounds.fromMs} aria-label="pan left" title="pan left">
            ◀
          </button>
          <button type="button" className="btn" onClick={() => zoomBy(0.5)} aria-label="zoom in" title="zoom in">
            +
          </button>
          <button type="button" className="btn" onClick={() => zoomBy(2)} disabled={!zoomed} aria-label="zoom out" title="zoom out">
            −
          </button>
          <button type="button" className="btn" onClick={() => pan(0.5)} disabled={to >= bounds.toMs} aria-label="pan right" title="pan right">
            ▶
          </button>
        </div>
        {firstWindow && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              const end = firstWindow.endMs ?? dataEndMs;
              const pad = Math.max(1000, (end - firstWindow.startMs) * 0.15);
              zoomTo(firstWindow.startMs - pad, end + pad);
            }}
          >
            failure window
          </button>
        )}
        <button type="button" className="btn" onClick={() => setRange(null, null)} disabled={!zoomed}>
          reset zoom
        </button>
        <CopyLinkButton getUrl={permalink} />
      </div>

      <section className="panel tl-panel" aria-label="timeline">
        <LanesChart
          t0={t0}
          from={from}
          to={to}
          rows={laneRows}
          lanes={state.lanes}
          density={density.data}
          fetching={density.isFetching}
          windows={windows}
          findings={others}
          dataEndMs={dataEndMs}
          milestones={view.milestones}
          onZoom={zoomTo}
          onToggleLane={toggleLane}
          onSelectEvent={setEv}
        />
        <OverviewBrush
          t0={t0}
          min={bounds.fromMs}
          max={bounds.toMs}
          from={from}
          to={to}
          density={overview.data}
          windows={windows}
          dataEndMs={dataEndMs}
          onRange={zoomTo}
        />
        {density.error && <p className="bad">timeline: {(density.error as Error).message}</p>}
      </section>

      {view.findings.length > 0 && (
        <section className="panel" aria-label="findings of this boot">
          <h2>Findings</h2>
          <ul className="findings">
            {view.findings.map((f) => (
              <FindingItem
                key={f.id}
                f={f}
                actions={
                  <button
                    type="button"
                    className="btn small"
                    onClick={() => {
                      const end = f.endMs ?? dataEndMs;
                      const pad = Math.max(1000, (end - f.startMs) * 0.15);
                      zoomTo(f.startMs - pad, end + pad);
                    }}
                  >
                    zoom to
                  </button>
                }
              />
            ))}
          </ul>
        </section>
      )}

      <section className="panel events-panel" aria-label="events">
        <div className="ev-toolbar">
          <h2>
            Events{" "}
            <span className="muted small mono">
              {fmtOffset(from, t0, 1)} – {fmtOffset(to, t0, 1)}
            </span>{" "}
            <span className="small" data-testid="events-count">
              {counts.data ? (
                counts.data.matching === counts.data.total ? (
                  `${fmtCount(counts.data.total)} events`
                ) : (
                  `${fmtCount(counts.data.matching)} of ${fmtCount(counts.data.total)}`
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
            placeholder="search message or pod…"
            aria-label="search events"
            value={qText}
            maxLength={200}
            onChange={(e) => setQText(e.target.value)}
          />
          <select className="input" aria-label="minimum severity" value={state.sev} onChange={(e) => setSev(Number(e.target.value))}>
            {SEVERITY_NAMES.map((n, i) => (
              <option key={n} value={i}>
                {i === 0 ? "all severities" : `${n} and above`}
              </option>
            ))}
          </select>
          {state.lanes.length < LANES.length && (
            <button type="button" className="btn small" onClick={() => setLanes([...LANES])}>
              all lanes
            </button>
          )}
        </div>
        <div className={`ev-layout${state.ev ? " with-detail" : ""}`}>
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
            onSelect={setEv}
          />
          {state.ev && (
            <EventDetail
              incidentId={view.incident.id}
              eventId={state.ev}
              t0={t0}
              bootKey={view.boot.bootKey}
              onClose={() => setEv(null)}
              onZoomTo={(ts) => zoomTo(ts - 5000, ts + 5000)}
            />
          )}
        </div>
      </section>
    </div>
  );
}
