"use client";
/**
 * The interactive part of the node boot page: toolbar (zoom, pan, reset, copy link),
 * lanes chart, whole-boot brush, the boot's findings, "explain this range", templates, notes,
 * and the events table with its filters and the selected event. All view state is in the URL
 * (useViewState), so the address is a permalink; data comes through one query hook per resource.
 * This file holds the state and the data; the toolbar, the findings and the events are
 * timeline-toolbar.tsx, findings-panel.tsx and events-panel.tsx.
 */
import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useAnnotationsQuery } from "@/components/data/use-annotations-query";
import { useEventFacetsQuery } from "@/components/data/use-event-facets-query";
import { useEventsCountQuery } from "@/components/data/use-events-count-query";
import { useEventQuery } from "@/components/data/use-event-query";
import { useEventsPageQuery } from "@/components/data/use-events-page-query";
import { useFindingEvidenceQuery } from "@/components/data/use-finding-evidence-query";
import { useLaneDensityQuery } from "@/components/data/use-lane-density-query";
import type { TBootView } from "@/lib/queries/get-boot-view";
import { fmtOffset } from "@/lib/view/format";
import { FAILURE_WINDOW_DETECTOR, isLane, LANES, type TLane } from "@/lib/view/lanes";
import { bootPath } from "@/lib/view/view-state";
import type { TAnnotation } from "@/lib/annotations/annotation";
import { AnnotationsPanel } from "./annotations-panel";
import { PatternsPanel } from "./patterns-panel";
import { ExplainPanel } from "./explain-panel";
import { EventsPanel } from "./events-panel";
import { FindingsPanel } from "./findings-panel";
import { LanesChart } from "./lanes-chart";
import { OverviewBrush } from "./overview-brush";
import { panRange, zoomRange } from "@/lib/view/time-scale";
import { TimelineToolbar } from "./timeline-toolbar";
import { useViewState } from "./use-view-state";
import "./timeline.css";

const BUCKETS = 300;
/** Pages (of EVENTS_PAGE_SIZE rows) loaded at most to bring one selected event into the table. */
const SEEK_PAGES = 40;

/** The explained range of the URL in UTC ms, named after the finding whose window it is (else "this range"); null when none. */
function explainedRange(
  state: { xfrom: number | null; xto: number | null },
  t0: number,
  findings: ReadonlyArray<{ detector: string; startMs: number; endMs: number | null }>,
  windowOf: (f: { startMs: number; endMs: number | null }) => { from: number; to: number },
): { from: number; to: number; label: string } | null {
  if (state.xfrom === null || state.xto === null) return null;
  const r = { from: t0 + state.xfrom, to: t0 + state.xto };
  const f = findings.find((f) => {
    const w = windowOf(f);
    return w.from === r.from && w.to === r.to;
  });
  return { ...r, label: f ? `the window of ${f.detector}` : "this range" };
}

/** `healthy`: what was checked and found fine, shown in place of the findings when the boot has none. */
export function TimelineView({ view, healthy }: { view: TBootView; healthy?: ReactNode }) {
  const vs = useViewState();
  const { state, setRange, setLanes, setEv, selectFinding, setPat, setXpat, showFiltered, setExplain, setXbase } = vs;
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
  const filter = {
    ...base,
    from,
    to,
    lanes: state.lanes,
    sev: state.sev,
    q: state.q,
    match: state.match,
    pod: state.pod,
    kind: state.kind,
    pat: state.pat ?? "",
    xpat: state.xpat,
  };
  const events = useEventsPageQuery(filter);
  // with a search the count scans the range too: let the first page have the CPU first
  const counts = useEventsCountQuery(filter, { enabled: !events.isLoading && !(events.isPlaceholderData && events.isFetching) });
  const lastPage = events.data?.pages[events.data.pages.length - 1];
  const scannedToMs = events.hasNextPage && lastPage?.scannedToMs != null ? lastPage.scannedToMs : null;
  // the filters' choices after the first page: on the embedded database requests take turns
  const facets = useEventFacetsQuery({ ...base, from, to, lanes: state.lanes }, { enabled: !events.isLoading });
  const rows = useMemo(() => events.data?.pages.flatMap((p) => p.events) ?? [], [events.data]);

  // a selected event (permalink, milestone, evidence link) further into the range than the pages
  // loaded: load pages until it is in (the table then scrolls to it) or the pages pass its time,
  // at most SEEK_PAGES for one selection (the detail's query is the one EventDetail shows)
  const selectedEvent = useEventQuery(view.incident.id, state.ev);
  const seek = useRef({ ev: null as string | null, pages: 0 });
  useEffect(() => {
    const target = selectedEvent.data;
    // not for an event outside the range, nor over the rows of the previous filters
    if (!state.ev || !target || target.id !== state.ev || target.ts === null || target.ts < from || target.ts >= to || events.isPlaceholderData) return;
    if (seek.current.ev !== state.ev) seek.current = { ev: state.ev, pages: 0 };
    const last = rows[rows.length - 1];
    if (!last || last.ts > target.ts || rows.some((r) => r.id === state.ev)) return;
    if (!events.hasNextPage || events.isFetchingNextPage || seek.current.pages >= SEEK_PAGES) return;
    seek.current.pages++;
    void events.fetchNextPage();
  }, [state.ev, selectedEvent.data, rows, events, from, to]);

  // the selected finding (from the URL): its evidence rows are highlighted
  const selectedFinding = view.findings.find((f) => f.id === state.finding) ?? null;
  const evidenceQuery = useFindingEvidenceQuery(view.incident.id, selectedFinding ? selectedFinding.id : null);
  const evidence = useMemo(() => new Set(evidenceQuery.data?.eventIds ?? []), [evidenceQuery.data]);
  const evidenceInView = useMemo(() => rows.reduce((n, r) => n + (evidence.has(r.id) ? 1 : 0), 0), [rows, evidence]);

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
  // keys on the focused lanes or whole-boot strip: ← → pan a quarter of the view, + − zoom, 0 the whole boot
  const onChartKey = (e: ReactKeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") pan(-0.25);
    else if (e.key === "ArrowRight") pan(0.25);
    else if (e.key === "+" || e.key === "=") zoomBy(0.5);
    else if (e.key === "-" || e.key === "_") zoomBy(2);
    else if (e.key === "0") setRange(null, null);
    else return;
    e.preventDefault();
  };
  const keyLabel = (what: string) =>
    `${what}, showing ${fmtOffset(from, t0)} to ${fmtOffset(to, t0)}: arrow keys pan, plus and minus zoom, 0 shows the whole boot`;
  const toggleLane = (l: TLane) => setLanes(state.lanes.includes(l) ? state.lanes.filter((x) => x !== l) : [...state.lanes, l]);

  // reviewers' notes: markers on the chart, the list and form below the findings
  const notes = useAnnotationsQuery(view.incident.id, view.boot.id);
  const [pickedTs, setPickedTs] = useState<number | null>(null);
  // "explain this range": the range explained (the view when asked, or a finding's window) and its
  // baseline, in the URL (`xfrom`, `xto` after T+0, `xbase`), so a copied link reopens the panel
  const findingWindow = (f: { startMs: number; endMs: number | null }) => ({ from: f.startMs, to: Math.max(f.startMs + 1000, f.endMs ?? dataEndMs) });
  const explain = explainedRange(state, t0, view.findings, findingWindow);
  const explainSection = useRef<HTMLDivElement>(null);
  const openExplain = (r: { from: number; to: number }) => {
    setExplain({ from: r.from - t0, to: r.to - t0 });
    requestAnimationFrame(() => explainSection.current?.scrollIntoView({ block: "nearest" }));
  };
  // a row of the explanation: the explained range, with its filter, in the events table
  const followExplained = (r: { from: number; to: number }, filter: Parameters<typeof showFiltered>[1]) => {
    showFiltered({ from: Math.max(bounds.fromMs, r.from), to: Math.min(bounds.toMs, r.to) }, filter);
    document.getElementById("events")?.focus();
  };
  const showNote = (n: TAnnotation) => {
    if (n.ts < from || n.ts >= to) {
      const half = Math.min(to - from, bounds.toMs - bounds.fromMs) / 2;
      zoomTo(n.ts - half, n.ts + half);
    }
    if (n.eventId) setEv(n.eventId);
  };

  const findingRange = (f: { startMs: number; endMs: number | null }) => {
    const end = f.endMs ?? dataEndMs;
    const pad = Math.max(1000, (end - f.startMs) * 0.15);
    return { from: Math.max(bounds.fromMs, f.startMs - pad), to: Math.min(bounds.toMs, end + pad) };
  };

  const permalink = () => `${window.location.origin}${bootPath(view.incident.id, view.node.name, view.boot.bootKey, { ...state, from, to })}`;

  const firstWindow = windows[0];
  // the view of a failure window: the window with 15% (at least 1 s) on each side
  const failureWindowView = (w: { startMs: number; endMs: number | null }) => {
    const end = w.endMs ?? dataEndMs;
    const pad = Math.max(1000, (end - w.startMs) * 0.15);
    return { from: w.startMs - pad, to: end + pad };
  };
  return (
    <div className="timeline-page">
      <TimelineToolbar
        incidentId={view.incident.id}
        bootId={view.boot.id}
        t0={t0}
        from={from}
        to={to}
        bounds={bounds}
        zoomed={zoomed}
        lanes={state.lanes}
        failureWindow={firstWindow ? failureWindowView(firstWindow) : null}
        onPan={pan}
        onZoomBy={zoomBy}
        onZoomTo={zoomTo}
        onReset={() => setRange(null, null)}
        onExplain={() => openExplain({ from, to })}
        permalink={permalink}
      />

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
          selectedFindingId={state.finding}
          selectedPart={state.pod || null}
          notes={notes.data}
          onPickNoteTime={(t) => setPickedTs(Math.round(t))}
          onShowNote={showNote}
          onSelectFinding={(f) => selectFinding(f.id, findingRange(f))}
          onZoom={zoomTo}
          onToggleLane={toggleLane}
          onSelectEvent={setEv}
          onKeyDown={onChartKey}
          keyLabel={keyLabel("timeline lanes")}
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
          onKeyDown={onChartKey}
          keyLabel={keyLabel("whole boot overview")}
        />
        {density.error && <p className="bad">timeline: {(density.error as Error).message}</p>}
      </section>

      <FindingsPanel
        incidentId={view.incident.id}
        findings={view.findings}
        selectedFindingId={state.finding}
        selectedPart={state.pod || null}
        healthy={healthy}
        onExplain={(f) => openExplain(findingWindow(f))}
        onSelect={(f) => selectFinding(f.id, findingRange(f))}
        onClear={() => selectFinding(null)}
      />

      <div ref={explainSection}>
        {explain && (
          <ExplainPanel
            incidentId={view.incident.id}
            bootId={view.boot.id}
            t0={t0}
            range={explain}
            baseline={state.xbase}
            onBaseline={setXbase}
            onClose={() => setExplain(null)}
            onPattern={(pat) => followExplained(explain, { pat })}
            onPod={(pod) => followExplained(explain, { pod })}
            onComponent={(lane) => isLane(lane) && followExplained(explain, { lanes: [lane] })}
            onErrorClass={(q) => followExplained(explain, { q })}
          />
        )}
      </div>

      <PatternsPanel incidentId={view.incident.id} bootId={view.boot.id} pat={state.pat} xpat={state.xpat} onPat={setPat} onXpat={setXpat} />

      <AnnotationsPanel
        incidentId={view.incident.id}
        bootId={view.boot.id}
        t0={t0}
        notes={notes.data ?? []}
        loading={notes.isLoading}
        selectedEventId={state.ev}
        pickedTs={pickedTs}
        defaultTs={Math.round((from + to) / 2)}
        onShow={showNote}
      />

      <EventsPanel
        incidentId={view.incident.id}
        bootKey={view.boot.bootKey}
        t0={t0}
        from={from}
        to={to}
        vs={vs}
        events={events}
        rows={rows}
        counts={counts}
        facets={facets}
        scannedToMs={scannedToMs}
        selectedFinding={selectedFinding}
        evidence={evidence}
        evidenceCount={evidenceQuery.data ? evidenceQuery.data.eventIds.length : null}
        evidenceInView={evidenceInView}
        onZoomTo={zoomTo}
      />
    </div>
  );
}
