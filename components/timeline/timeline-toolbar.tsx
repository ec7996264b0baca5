"use client";
/**
 * The node boot page's toolbar: the visible range (T+ and UTC, its length), pan and zoom, the
 * first failure window, reset, "Explain this range", the exports (PNG and SVG of this view, light
 * when the page is light; the incident's Markdown) and the permalink.
 */
import { useSyncExternalStore } from "react";
import { CopyLinkButton } from "@/components/copy-link-button";
import { fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import { LANES, type TLane } from "@/lib/view/lanes";
import { viewStateField } from "@/lib/view/view-state";

const LIGHT_QUERY = "(prefers-color-scheme: light)";
/** Whether the system asks for a light page (the pages follow it: app/globals.css). */
const isLight = () => window.matchMedia(LIGHT_QUERY).matches;
const subscribeLight = (on: () => void) => {
  const m = window.matchMedia(LIGHT_QUERY);
  m.addEventListener("change", on);
  return () => m.removeEventListener("change", on);
};

export function TimelineToolbar(p: {
  incidentId: string;
  bootId: number;
  /** T+0 and the visible range, UTC ms; `bounds` the whole boot's */
  t0: number;
  from: number;
  to: number;
  bounds: { fromMs: number; toMs: number };
  /** the view is not the whole boot */
  zoomed: boolean;
  lanes: readonly TLane[];
  /** the view that shows the first failure window, when the boot has one */
  failureWindow: { from: number; to: number } | null;
  onPan(fraction: number): void;
  onZoomBy(factor: number): void;
  onZoomTo(from: number, to: number): void;
  onReset(): void;
  onExplain(): void;
  permalink(): string;
}) {
  const { t0, from, to } = p;
  // pictures of this view (light when the page is light)
  const light = useSyncExternalStore(subscribeLight, isLight, () => false);
  const pictureUrl = (ext: "png" | "svg") => {
    const q = new URLSearchParams({ from: String(from), to: String(to), download: "1" });
    if (light) q.set("theme", "light");
    if (p.lanes.length < LANES.length) q.set("lanes", viewStateField.serializeLanes(p.lanes));
    return `/api/incidents/${encodeURIComponent(p.incidentId)}/boots/${p.bootId}/timeline.${ext}?${q}`;
  };
  return (
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
        <button type="button" className="btn" onClick={() => p.onPan(-0.5)} disabled={from <= p.bounds.fromMs} aria-label="pan left" title="pan left">
          ◀
        </button>
        <button type="button" className="btn" onClick={() => p.onZoomBy(0.5)} aria-label="zoom in" title="zoom in">
          +
        </button>
        <button type="button" className="btn" onClick={() => p.onZoomBy(2)} disabled={!p.zoomed} aria-label="zoom out" title="zoom out">
          −
        </button>
        <button type="button" className="btn" onClick={() => p.onPan(0.5)} disabled={to >= p.bounds.toMs} aria-label="pan right" title="pan right">
          ▶
        </button>
      </div>
      {p.failureWindow && (
        <button type="button" className="btn" onClick={() => p.failureWindow && p.onZoomTo(p.failureWindow.from, p.failureWindow.to)}>
          failure window
        </button>
      )}
      <button type="button" className="btn" onClick={p.onReset} disabled={!p.zoomed}>
        reset zoom
      </button>
      <button
        type="button"
        className="btn"
        data-testid="explain-range"
        onClick={p.onExplain}
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
          href={`/api/incidents/${encodeURIComponent(p.incidentId)}/export.md?download=1`}
          download
          data-testid="export-md"
          title="the incident's postmortem summary: nodes, boots, findings with permalinks, notes"
        >
          Markdown
        </a>
      </span>
      <CopyLinkButton getUrl={p.permalink} />
    </div>
  );
}
