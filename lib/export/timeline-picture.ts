/**
 * A picture of one node boot's timeline view for postmortems and link unfurls:
 * header (incident, node, boot, range, the failure window's numbers), a T+ seconds axis,
 * one density lane per source, failure windows shaded, milestones and reviewers' notes as
 * labelled lines. Pure: `layoutTimelinePicture` turns the data into shapes and text boxes
 * on a 1200 x 630 canvas (the Open Graph size); `renderTimelineSvg` writes them as SVG.
 * The PNG route draws the same layout with next/og (shapes as this SVG, text by satori),
 * so the SVG download and the PNG agree.
 *
 * Two palettes (`PICTURE_THEMES`): `dark` (the pages' default, and link unfurls) and `light`
 * (for white postmortem pages and wikis); every text colour keeps a WCAG AA contrast on its
 * background.
 *
 * All text is XML-escaped (log-derived names and notes are data, never markup).
 */
import type { TLaneDensity } from "@/lib/queries/get-lane-density";
import { plural } from "@/lib/detect/numbers";
import { fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import { LANE_LABELS, type TLane } from "@/lib/view/lanes";
import { layoutMilestoneLabels } from "@/lib/view/milestone-labels";
import { timeScale, timeTicks } from "@/lib/view/time-scale";

export const PICTURE_W = 1200;
export const PICTURE_H = 630;

/** Lane colours (the timeline page's, components/timeline/lane-sparkline.tsx). */
export const PICTURE_LANE_COLORS: Record<TLane, string> = {
  kernel: "#8b9cff",
  runtime: "#5aa9ff",
  kubelet: "#4cc38a",
  "cni-plugin": "#f2b84b",
  "cni-agent": "#d08bff",
  events: "#6fd3dc",
  other: "#9aa3b2",
};

/** A picture's colours. */
export interface TPictureTheme {
  background: string;
  title: string;
  muted: string;
  /** small labels: the view length, lane counts, the footer */
  faint: string;
  tick: string;
  axis: string;
  laneLine: string;
  lanes: Record<TLane, string>;
  window: string;
  windowText: string;
  windowLabel: string;
  milestone: string;
  milestoneText: string;
  note: string;
  noteText: string;
}

export type TPictureThemeName = "dark" | "light";

export const PICTURE_THEMES: Record<TPictureThemeName, TPictureTheme> = {
  dark: {
    background: "#0f1115",
    title: "#e6e6e6",
    muted: "#9aa3b2",
    faint: "#8b94a5",
    tick: "#c9ced8",
    axis: "#3a4150",
    laneLine: "#2a2f3a",
    lanes: PICTURE_LANE_COLORS,
    window: "#ff5d5d",
    windowText: "#ff9c9c",
    windowLabel: "#ffd0d0",
    milestone: "#e6e6e6",
    milestoneText: "#c9ced8",
    note: "#f2b84b",
    noteText: "#f2d28b",
  },
  light: {
    background: "#ffffff",
    title: "#1a1e26",
    muted: "#4f596a",
    faint: "#5c6575",
    tick: "#2e3440",
    axis: "#aeb5c1",
    laneLine: "#d6dae1",
    lanes: { kernel: "#4a5bd4", runtime: "#1f6fd1", kubelet: "#1f8f5c", "cni-plugin": "#b77700", "cni-agent": "#9140c9", events: "#13878f", other: "#6b7384" },
    window: "#d12f36",
    windowText: "#a3151c",
    windowLabel: "#7a1015",
    milestone: "#2e3440",
    milestoneText: "#2e3440",
    note: "#b77700",
    noteText: "#7a4d00",
  },
};

export interface TPictureWindow {
  id: number;
  startMs: number;
  /** null: open until the end of the data */
  endMs: number | null;
  attempts?: number;
  pods?: number;
  errorClass?: string;
}

export interface TPictureInput {
  title: string;
  node: string;
  boot: { key: string; index: number; count: number; t0: number };
  /** visible range, UTC ms */
  from: number;
  to: number;
  /** density of the range, lanes in display order */
  density: TLaneDensity;
  windows: TPictureWindow[];
  /** where an open window ends on the picture, UTC ms */
  dataEndMs: number;
  milestones: Array<{ label: string; ts: number }>;
  notes: Array<{ ts: number; text: string }>;
  /** shown in the footer (the permalink of the view) */
  url?: string;
}

export type TShape =
  | { kind: "rect"; x: number; y: number; w: number; h: number; fill: string; opacity?: number }
  | { kind: "path"; d: string; fill: string; opacity?: number }
  | { kind: "line"; x1: number; y1: number; x2: number; y2: number; stroke: string; width?: number; dash?: string; opacity?: number };

export interface TTextBox {
  /** anchor point: x of the start, middle or end; y of the top of the line box */
  x: number;
  y: number;
  size: number;
  color: string;
  text: string;
  anchor: "start" | "middle" | "end";
  bold?: boolean;
  /** longest width the text may take, px (the PNG's box width) */
  maxW: number;
}

export interface TPicture {
  width: number;
  height: number;
  background: string;
  shapes: TShape[];
  texts: TTextBox[];
}

const PAD = 28;
const LABEL_W = 150;
const X0 = PAD + LABEL_W;
const X1 = PICTURE_W - PAD;
const PLOT_W = X1 - X0;
const AXIS_Y = 118;
const LANES_Y = 146;
const LANES_H_MAX = 330;

const r1 = (n: number) => Math.round(n * 10) / 10;

/** Text cut to `n` characters with an ellipsis. */
export function clip(s: string, n: number): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

/** The failure window's numbers in one line: `T+11.833s → T+15.102s (3.27 s), 20 attempts, 20 pods, calico-nodename-missing`. */
export function windowSummary(w: TPictureWindow, t0: number): string {
  const parts = [
    `${fmtOffset(w.startMs, t0)} → ${w.endMs === null ? "open (end of data)" : `${fmtOffset(w.endMs, t0)} (${fmtDuration(w.endMs - w.startMs)})`}`,
  ];
  if (w.attempts !== undefined) parts.push(plural(w.attempts, "attempt"));
  if (w.pods !== undefined) parts.push(plural(w.pods, "pod"));
  if (w.errorClass) parts.push(w.errorClass);
  return parts.join(", ");
}

/** The shapes and texts of the picture of `p`, in the colours of `theme` (default dark). */
export function layoutTimelinePicture(p: TPictureInput, theme: TPictureThemeName = "dark"): TPicture {
  const c = PICTURE_THEMES[theme];
  const WINDOW = c.window;
  const shapes: TShape[] = [];
  const texts: TTextBox[] = [];
  const scale = timeScale(p.from, p.to);
  const xAt = (t: number) => X0 + Math.min(1, Math.max(0, scale.frac(t))) * PLOT_W;
  const t0 = p.boot.t0;

  // header
  texts.push({ x: PAD, y: 18, size: 28, color: c.title, bold: true, anchor: "start", text: clip(p.title, 64), maxW: PICTURE_W - 2 * PAD });
  texts.push({
    x: PAD,
    y: 56,
    size: 18,
    color: c.muted,
    anchor: "start",
    text: clip(`${p.node} · boot ${p.boot.index} of ${p.boot.count} · T+0 ${fmtUtc(t0)} UTC`, 110),
    maxW: PICTURE_W - 2 * PAD,
  });
  const visible = p.windows.filter((w) => (w.endMs ?? p.dataEndMs) >= p.from && w.startMs <= p.to);
  const first = visible[0] ?? p.windows[0];
  texts.push({
    x: PAD,
    y: 82,
    size: 17,
    color: first ? c.windowText : c.muted,
    anchor: "start",
    text: clip(first ? `sandbox failure window ${windowSummary(first, t0)}` : "no sandbox failure window", 120),
    maxW: PICTURE_W - 2 * PAD,
  });

  // axis: ticks in T+ seconds
  shapes.push({ kind: "line", x1: X0, y1: AXIS_Y + 22, x2: X1, y2: AXIS_Y + 22, stroke: c.axis });
  texts.push({ x: PAD, y: AXIS_Y + 4, size: 13, color: c.faint, anchor: "start", text: `view ${fmtDuration(p.to - p.from)}`, maxW: LABEL_W - 8 });
  for (const tk of timeTicks(p.from, p.to, t0, 8)) {
    const x = xAt(tk.t);
    shapes.push({ kind: "line", x1: x, y1: AXIS_Y + 18, x2: x, y2: AXIS_Y + 22, stroke: c.axis });
    texts.push({ x, y: AXIS_Y, size: 13, color: c.tick, anchor: "middle", text: tk.offsetLabel, maxW: 110 });
  }

  // lanes
  const lanes = p.density.lanes;
  const laneH = Math.max(24, Math.min(54, Math.floor(LANES_H_MAX / Math.max(1, lanes.length))));
  lanes.forEach((s, i) => {
    const top = LANES_Y + i * laneH;
    const base = top + laneH - 2;
    const color = c.lanes[s.lane];
    shapes.push({ kind: "line", x1: PAD, y1: top + laneH, x2: X1, y2: top + laneH, stroke: c.laneLine });
    shapes.push({ kind: "rect", x: PAD, y: top + laneH / 2 - 5, w: 10, h: 10, fill: color });
    texts.push({ x: PAD + 16, y: top + laneH / 2 - 14, size: 15, color: c.title, anchor: "start", text: LANE_LABELS[s.lane], maxW: LABEL_W - 20 });
    texts.push({
      x: PAD + 16,
      y: top + laneH / 2 + 4,
      size: 11,
      color: s.errors ? c.windowText : c.faint,
      anchor: "start",
      text: `${s.total} event${s.total === 1 ? "" : "s"}${s.errors ? `, ${s.errors} error${s.errors === 1 ? "" : "s"}` : ""}`,
      maxW: LABEL_W - 20,
    });
    const max = Math.max(1, s.max);
    let all = "";
    let errs = "";
    for (const [bi, n, e] of s.buckets) {
      const t = p.density.startMs + bi * p.density.bucketMs;
      const xa = xAt(t);
      const xb = Math.max(xa + 0.8, xAt(t + p.density.bucketMs));
      if (xb <= X0 || xa >= X1) continue;
      const w = r1(Math.min(xb, X1) - xa);
      const h = r1(Math.max(1, (n / max) * (laneH - 8)));
      all += `M${r1(xa)} ${r1(base)}h${w}v${-h}h${-w}z`;
      if (e > 0) {
        const he = r1(Math.max(1, (e / max) * (laneH - 8)));
        errs += `M${r1(xa)} ${r1(base)}h${w}v${-he}h${-w}z`;
      }
    }
    if (all) shapes.push({ kind: "path", d: all, fill: color, opacity: 0.55 });
    if (errs) shapes.push({ kind: "path", d: errs, fill: WINDOW, opacity: 0.7 });
    if (!all) texts.push({ x: X0 + 6, y: top + laneH / 2 - 8, size: 12, color: c.faint, anchor: "start", text: "no events in view", maxW: 200 });
  });
  const lanesBottom = LANES_Y + lanes.length * laneH;

  // failure windows, shaded across the lanes, with their start and end
  for (const w of visible) {
    const end = w.endMs ?? p.dataEndMs;
    const xa = xAt(w.startMs);
    const xb = Math.max(xa + 2, xAt(end));
    shapes.push({ kind: "rect", x: xa, y: LANES_Y, w: xb - xa, h: lanesBottom - LANES_Y + 22, fill: WINDOW, opacity: 0.14 });
    shapes.push({ kind: "line", x1: xa, y1: LANES_Y, x2: xa, y2: lanesBottom + 22, stroke: WINDOW, width: 1.5, opacity: 0.8 });
    if (w.endMs !== null) shapes.push({ kind: "line", x1: xb, y1: LANES_Y, x2: xb, y2: lanesBottom + 22, stroke: WINDOW, width: 1.5, opacity: 0.8 });
    const label = `failure window ${fmtOffset(w.startMs, t0)} → ${w.endMs === null ? "open" : fmtOffset(w.endMs, t0)}`;
    const right = xa > X0 + PLOT_W * 0.6;
    texts.push({ x: right ? xb - 4 : xa + 4, y: lanesBottom + 3, size: 13, color: c.windowLabel, anchor: right ? "end" : "start", text: label, maxW: 420 });
  }

  // milestones: dashed lines, labels staggered in three rows (the page's layout, lib/view/milestone-labels.ts)
  const msY = lanesBottom + 28;
  const msLabels = layoutMilestoneLabels(p.milestones, { from: p.from, to: p.to, t0, xAt, width: (text) => text.length * 7 + 10, maxRows: 3 });
  for (const { x, w, text, row } of msLabels) {
    shapes.push({ kind: "line", x1: x, y1: LANES_Y, x2: x, y2: msY + 2, stroke: c.milestone, dash: "3 3", opacity: 0.45 });
    if (row === null) continue;
    shapes.push({ kind: "line", x1: x, y1: msY + row * 18, x2: x, y2: msY + row * 18 + 16, stroke: c.milestone, width: 2, opacity: 0.7 });
    texts.push({ x: x + 4, y: msY + row * 18, size: 12, color: c.milestoneText, anchor: "start", text, maxW: w });
  }

  // reviewers' notes: amber markers on top of the lanes, the first words of each
  const notesY = msY + 58;
  const noteEnd = [0];
  for (const [i, n] of p.notes.filter((x) => x.ts >= p.from && x.ts <= p.to).entries()) {
    const x = xAt(n.ts);
    shapes.push({ kind: "line", x1: x, y1: LANES_Y, x2: x, y2: lanesBottom, stroke: c.note, width: 1.5, opacity: 0.9 });
    shapes.push({ kind: "path", d: `M${r1(x)} ${LANES_Y - 9}l6 6l-6 6l-6 -6z`, fill: c.note });
    if (x >= noteEnd[0] && notesY < PICTURE_H - 40) {
      const text = `note ${i + 1}: ${clip(n.text, 40)}`;
      noteEnd[0] = x + text.length * 7 + 12;
      texts.push({ x, y: notesY, size: 12, color: c.noteText, anchor: x > X0 + PLOT_W * 0.7 ? "end" : "start", text, maxW: 320 });
    }
  }

  // footer
  texts.push({
    x: PAD,
    y: PICTURE_H - 26,
    size: 12,
    color: c.faint,
    anchor: "start",
    text: clip(`bootline · ${fmtUtc(p.from)} – ${fmtUtc(p.to)} UTC${p.url ? ` · ${p.url}` : ""}`, 150),
    maxW: PICTURE_W - 2 * PAD,
  });
  return { width: PICTURE_W, height: PICTURE_H, background: c.background, shapes, texts };
}

/** XML text and attribute escaping. */
export function xmlEscape(s: string): string {
  return s
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

function shapeSvg(s: TShape): string {
  const op = s.opacity !== undefined ? ` opacity="${s.opacity}"` : "";
  if (s.kind === "rect") return `<rect x="${r1(s.x)}" y="${r1(s.y)}" width="${r1(s.w)}" height="${r1(s.h)}" fill="${s.fill}"${op}/>`;
  if (s.kind === "path") return `<path d="${s.d}" fill="${s.fill}"${op}/>`;
  return `<line x1="${r1(s.x1)}" y1="${r1(s.y1)}" x2="${r1(s.x2)}" y2="${r1(s.y2)}" stroke="${s.stroke}" stroke-width="${s.width ?? 1}"${
    s.dash ? ` stroke-dasharray="${s.dash}"` : ""
  }${op}/>`;
}

function textSvg(t: TTextBox): string {
  const anchor = t.anchor === "start" ? "" : ` text-anchor="${t.anchor}"`;
  // y is the top of the line box; the baseline sits about 0.8 of the size below it
  return `<text x="${r1(t.x)}" y="${r1(t.y + t.size * 0.82)}" font-size="${t.size}" fill="${t.color}"${t.bold ? ' font-weight="700"' : ""}${anchor}>${xmlEscape(t.text)}</text>`;
}

/** The picture as a standalone SVG document; `text: false` leaves the text out (the PNG draws it). */
export function renderTimelineSvg(p: TPicture, opts: { text?: boolean } = {}): string {
  const body = [`<rect width="${p.width}" height="${p.height}" fill="${p.background}"/>`, ...p.shapes.map(shapeSvg)];
  if (opts.text !== false) body.push(`<g font-family="Geist, 'Segoe UI', Helvetica, Arial, sans-serif">`, ...p.texts.map(textSvg), "</g>");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${p.width}" height="${p.height}" viewBox="0 0 ${p.width} ${p.height}">${body.join("")}</svg>\n`;
}
