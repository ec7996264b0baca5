/**
 * Open Graph facts of a node boot timeline view, so a pasted permalink unfurls:
 * og:title names the incident, node and boot; og:description gives the failure window's
 * numbers (or says there is none) and the visible range; og:image is the PNG of that view
 * (`…/boots/:bootId/timeline.png`, lib/export/timeline-picture.ts). Pure.
 */
import type { TBootView } from "@/lib/queries/get-boot-view";
import { plural } from "@/lib/detect/numbers";
import { fmtDuration, fmtOffset } from "@/lib/view/format";
import { FAILURE_WINDOW_DETECTOR, LANES } from "@/lib/view/lanes";
import { bootPath, serializeViewState, viewStateField, type TViewState } from "@/lib/view/view-state";

export interface TOpenGraph {
  title: string;
  description: string;
  /** absolute URL of the page (the permalink) */
  url: string;
  /** absolute URL of the PNG */
  image: string;
  imageAlt: string;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function timelineOpenGraph(view: TBootView, state: TViewState, origin: string): TOpenGraph {
  const base = origin.replace(/\/+$/, "");
  const t0 = view.boot.startMs;
  const title = cut(`${view.incident.title} · ${view.node.name} · boot ${view.boot.index} of ${view.boot.count}`, 140);
  const windows = view.findings.filter((f) => f.detector === FAILURE_WINDOW_DETECTOR).sort((a, b) => a.startMs - b.startMs);
  const parts: string[] = [];
  const w = windows[0];
  if (w) {
    const m = w.metrics;
    const nums = [
      typeof m.attempts === "number" ? plural(m.attempts, "attempt") : null,
      typeof m.pods === "number" ? plural(m.pods, "pod") : null,
      typeof m.errorClass === "string" ? `cause ${m.errorClass}` : null,
      typeof m.closedBy === "string" ? `closed by ${m.closedBy}` : null,
    ].filter(Boolean);
    const span = w.endMs === null ? "still open at the end of the data" : `${fmtOffset(w.endMs, t0)} (${fmtDuration(w.endMs - w.startMs)})`;
    parts.push(`Sandbox failure window ${fmtOffset(w.startMs, t0)} → ${span}${nums.length ? `: ${nums.join(", ")}` : ""}.`);
    if (windows.length > 1) parts.push(`${windows.length - 1} more window${windows.length > 2 ? "s" : ""} in this boot.`);
  } else parts.push("No sandbox failure window in this boot.");
  const others = view.findings.length - windows.length;
  if (others > 0) parts.push(`${others} other finding${others === 1 ? "" : "s"}.`);
  const from = state.from ?? view.range.fromMs;
  const to = state.to ?? view.range.toMs;
  parts.push(`View ${fmtOffset(from, t0, 1)} – ${fmtOffset(to, t0, 1)}.`);

  const img = new URLSearchParams();
  if (state.from !== null) img.set("from", String(state.from));
  if (state.to !== null) img.set("to", String(state.to));
  if (state.lanes.length < LANES.length) img.set("lanes", viewStateField.serializeLanes(state.lanes));
  const q = img.toString().replace(/%2C/gi, ",");
  return {
    title,
    description: cut(parts.join(" "), 300),
    url: `${base}${bootPath(view.incident.id, view.node.name, view.boot.bootKey)}${serializeViewState(state)}`,
    image: `${base}/api/incidents/${encodeURIComponent(view.incident.id)}/boots/${view.boot.id}/timeline.png${q ? `?${q}` : ""}`,
    imageAlt: `Timeline of ${view.node.name} boot ${view.boot.index} of ${view.boot.count}: event density per source, failure window shaded`,
  };
}
