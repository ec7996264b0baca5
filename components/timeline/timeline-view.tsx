"use client";
/**
 * The interactive part of the node boot page: toolbar (zoom, pan, reset, copy link),
 * lanes chart, whole-boot brush, the boot's findings, and the events table with its
 * filters and the selected event. All view state is in the URL (useViewState), so the
 * address is a permalink; data comes through one query hook per resource.
 */
import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { CopyLinkButton } from "@/components/copy-link-button";
import { useAnnotationsQuery } from "@/components/data/use-annotations-query";
import { useEventFacetsQuery } from "@/components/data/use-event-facets-query";
import { useEventsCountQuery } from "@/components/data/use-events-count-query";
import { useEventQuery } from "@/components/data/use-event-query";
import { useEventsPageQuery } from "@/components/data/use-events-page-query";
import { useFindingEvidenceQuery } from "@/components/data/use-finding-evidence-query";
import { useLaneDensityQuery } from "@/components/data/use-lane-density-query";
import { FindingItem } from "@/components/findings/finding-item";
import { FindingList } from "@/components/findings/finding-list";
import type { TBootView } from "@/lib/queries/get-boot-view";
import { fmtCount, fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import { FAILURE_WINDOW_DETECTOR, isLane, LANE_LABELS, LANES, SEVERITY_NAMES, type TLane } from "@/lib/view/lanes";
import { bootPath, viewStateField } from "@/lib/view/view-state";
import type { TAnnotation } from "@/lib/annotations/annotation";
import { AnnotationsPanel } from "./annotations-panel";
import { PatternsPanel } from "./patterns-panel";
import { ExplainPanel } from "./explain-panel";
import { EventDetail } from "./event-detail";
import { EventsTable } from "./events-table";
import { LanesChart } from "./lanes-chart";
import { OverviewBrush } from "./overview-brush";
import { panRange, zoomRange } from "@/lib/view/time-scale";
import { useUrlText } from "./use-url-text";
import { useViewState } from "./use-view-state";
import "./timeline.css";

const BUCKETS = 300;
/** Pages (of EVENTS_PAGE_SIZE rows) loaded at most to bring one selected event into the table. */
const SEEK_PAGES = 40;

const LIGHT_QUERY = "(prefers-color-scheme: light)";
/** Whether the system asks for a light page (the pages follow it: app/globals.css). */
const isLight = () => window.matchMedia(LIGHT_QUERY).matches;
const subscribeLight = (on: () => void) => {
  const m = window.matchMedia(LIGHT_QUERY);
  m.addEventListener("change", on);
  return () => m.removeEventListener("change", on);
};

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
  const { state, setRange, setLanes, setSev, setQ, setMatch, setPod, setKind, setEv, selectFinding, setPat, setXpat, showFiltered, setExplain, setXbase } =
    useViewState();
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
  // the selected event's panel at half the width (long raw lines)
  const [detailWide, setDetailWide] = useState(false);
  const showNote = (n: TAnnotation) => {
    if (n.ts < from || n.ts >= to) {
      const half = Math.min(to - from, bounds.toMs - bounds.fromMs) / 2;
      zoomTo(n.ts - half, n.ts + half);
    }
    if (n.eventId) setEv(n.eventId);
  };

  // pictures of this view and the incident's Markdown summary (light when the page is light)
  const light = useSyncExternalStore(subscribeLight, isLight, () => false);
  const pictureUrl = (ext: "png" | "svg") => {
    const p = new URLSearchParams({ from: String(from), to: String(to), download: "1" });
    if (light) p.set("theme", "light");
    if (state.lanes.length < LANES.length) p.set("lanes", viewStateField.serializeLanes(state.lanes));
    return `/api/incidents/${encodeURIComponent(view.incident.id)}/boots/${view.boot.id}/timeline.${ext}?${p}`;
  };

  // search and pod boxes: local text, written to the URL after a pause
  const [qText, setQText] = useUrlText(state.q, setQ);
  const [podText, setPodText] = useUrlText(state.pod, setPod);
  const findingRange = (f: { startMs: number; endMs: number | null }) => {
    const end = f.endMs ?? dataEndMs;
    const pad = Math.max(1000, (end - f.startMs) * 0.15);
    return { from: Math.max(bounds.fromMs, f.startMs - pad), to: Math.min(bounds.toMs, end + pad) };
  };
  const singleLane = state.lanes.length === 1 ? state.lanes[0] : "";
  const filtered = state.sev > 0 || !!state.q || !!state.pod || !!state.kind || !!state.pat || state.xpat.length > 0;

  const permalink = () => `${window.location.origin}${bootPath(view.incident.id, view.node.name, view.boot.bootKey, { ...state, from, to })}`;

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
        <button
          type="button"
          className="btn"
          data-testid="explain-range"
          onClick={() => openExplain({ from, to })}
          title="what is more frequent in the range shown than before it (or in the rest of the boot): templates, pods, components, error classes"
        >
          Explain this range
        </button>
        <span className="export-links" aria-label="export">
          <a className="btn" href={pictureUrl("png")} download data-testid="export-png" title="this view as a PNG picture (1200 x 630)">
            PNG
          </a>
          <a className="btn" href={pictureUrl("svg")} download data-testid="export-svg" title="this view as an SVG picture">
            SVG
          </a>
          <a
            className="btn"
            href={`/api/incidents/${encodeURIComponent(view.incident.id)}/export.md?download=1`}
            download
            data-testid="export-md"
            title="the incident's postmortem summary: nodes, boots, findings with permalinks, notes"
          >
            Markdown
          </a>
        </span>
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

      {view.findings.length > 0 && (
        <section className="panel" aria-label="findings of this boot">
          <h2>Findings</h2>
          <FindingList
            findings={view.findings}
            open={(f) => f.id === state.finding}
            item={(f) => (
              <FindingItem
                f={f}
                incidentId={view.incident.id}
                selectedPart={state.pod || null}
                selected={f.id === state.finding}
                actions={
                  <>
                    <button
                      type="button"
                      className="btn small"
                      data-testid="explain-window"
                      onClick={() => openExplain(findingWindow(f))}
                      title="what is more frequent in the finding's window than before it (or in the rest of the boot)"
                    >
                      Explain window
                    </button>{" "}
                    {f.id === state.finding ? (
                      <button type="button" className="btn small" onClick={() => selectFinding(null)}>
                        clear evidence
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="btn small"
                        onClick={() => selectFinding(f.id, findingRange(f))}
                        title="zoom to its window and highlight its evidence events"
                      >
                        {f.evidenceCount ? `zoom to · ${fmtCount(f.evidenceCount)} evidence` : "zoom to"}
                      </button>
                    )}
                  </>
                }
              />
            )}
          />
        </section>
      )}
      {view.findings.length === 0 && healthy && (
        <section className="panel" aria-label="findings of this boot" data-testid="boot-healthy">
          <h2>Findings</h2>
          {healthy}
        </section>
      )}

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
              onChange={(e) => setMatch(e.target.checked ? "substring" : "words")}
              data-testid="events-search-substring"
            />{" "}
            part of a word
          </label>
          <select
            className="input"
            aria-label="lane"
            data-testid="filter-lane"
            value={singleLane}
            onChange={(e) => setLanes(e.target.value ? [e.target.value as TLane] : [...LANES])}
          >
            <option value="">{state.lanes.length === LANES.length ? "all lanes" : `${state.lanes.length} lanes`}</option>
            {LANES.map((l) => (
              <option key={l} value={l}>
                {LANE_LABELS[l]}
              </option>
            ))}
          </select>
          <select className="input" aria-label="minimum severity" data-testid="filter-sev" value={state.sev} onChange={(e) => setSev(Number(e.target.value))}>
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
            {(facets.data?.pods ?? []).map((p) => (
              <option key={p.pod} value={p.pod}>
                {`${fmtCount(p.n)} signal events`}
              </option>
            ))}
          </datalist>
          <select className="input" aria-label="kind" data-testid="filter-kind" value={state.kind} onChange={(e) => setKind(e.target.value)}>
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
                setLanes([...LANES]);
                setSev(0);
                setQ("");
                setPod("");
                setKind("");
              }}
            >
              clear filters
            </button>
          )}
        </div>
        {selectedFinding && (
          <p className="ev-evidence-note small" data-testid="evidence-note">
            <span className="evidence-swatch" /> evidence of <b>{selectedFinding.detector}</b>:{" "}
            {evidenceQuery.data ? `${fmtCount(evidenceQuery.data.eventIds.length)} events, ${fmtCount(evidenceInView)} in the rows loaded` : "loading…"}{" "}
            <button type="button" className="btn small" onClick={() => selectFinding(null)}>
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
            onSelect={setEv}
            evidence={evidence}
            scanning={scannedToMs === null ? null : { at: scannedToMs, from, to }}
          />
          {state.ev && (
            <EventDetail
              incidentId={view.incident.id}
              eventId={state.ev}
              t0={t0}
              bootKey={view.boot.bootKey}
              onClose={() => setEv(null)}
              onZoomTo={(ts) => zoomTo(ts - 5000, ts + 5000)}
              wide={detailWide}
              onToggleWide={() => setDetailWide((w) => !w)}
            />
          )}
        </div>
      </section>
    </div>
  );
}
