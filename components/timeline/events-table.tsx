"use client";
/**
 * The events of the visible range, virtualised (@tanstack/react-virtual) and paged from
 * the server as the reader scrolls. Every cell is plain text (React escapes it): log
 * lines are never rendered as HTML.
 *
 * Keyboard (anywhere on the page but in a text field): `j`/`k` (or ↓/↑) move the row
 * cursor, Enter opens the event under it, Escape closes the open event. A click opens the
 * row. Rows cited as evidence by the selected finding are highlighted.
 *
 * The pod and message columns are resizable (drag the edge of their header, or focus it and use
 * ←/→) and rows can be wrapped to show whole pod names and messages; both are kept in the
 * browser (localStorage) for the next visit.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from "react";
import type { TEventRow } from "@/lib/queries/get-events-page";
import { fmtOffset, fmtUtc } from "@/lib/view/format";
import { SEVERITY_NAMES } from "@/lib/view/lanes";
import { LANE_COLORS } from "./lane-sparkline";

const ROW_H = 24;
/** column widths, px: [min, default, max] */
const POD_W = [80, 200, 900] as const;
const MSG_W = [160, 0, 6000] as const;
const LAYOUT_KEY = "bootline.events-table";

interface TLayout {
  /** pod column width, px */
  pod: number;
  /** message column width, px; 0 = the rest of the table */
  msg: number;
  wrap: boolean;
}

function readLayout(): TLayout {
  const d: TLayout = { pod: POD_W[1], msg: MSG_W[1], wrap: false };
  try {
    const v = JSON.parse(window.localStorage.getItem(LAYOUT_KEY) ?? "null") as Partial<TLayout> | null;
    if (!v || typeof v !== "object") return d;
    const num = (x: unknown, [lo, , hi]: readonly number[], dflt: number) =>
      typeof x === "number" && Number.isFinite(x) ? (x === 0 ? 0 : Math.min(hi, Math.max(lo, Math.round(x)))) : dflt;
    return { pod: num(v.pod, POD_W, d.pod) || d.pod, msg: num(v.msg, MSG_W, d.msg), wrap: v.wrap === true };
  } catch {
    return d;
  }
}

export function EventsTable(p: {
  t0: number;
  rows: TEventRow[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): void;
  loading: boolean;
  /** rows shown are from the previous range or filters while the new ones load */
  stale: boolean;
  error: string | null;
  selectedId: string | null;
  onSelect(id: string | null): void;
  /** ids of the selected finding's evidence events (highlighted) */
  evidence?: ReadonlySet<string>;
  /** a filtered read is still searching the range: searched up to `at` of [from, to) (UTC ms) */
  scanning?: { at: number; from: number; to: number } | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const count = p.rows.length + (p.hasNextPage ? 1 : 0);
  // column widths and wrapping: the defaults on the server, the reader's choice after mount
  const [layout, setLayout] = useState<TLayout>({ pod: POD_W[1], msg: MSG_W[1], wrap: false });
  useEffect(() => setLayout(readLayout()), []);
  const saveLayout = useCallback((next: TLayout) => {
    setLayout(next);
    try {
      window.localStorage.setItem(LAYOUT_KEY, JSON.stringify(next));
    } catch {
      // private mode: the choice lasts for this page
    }
  }, []);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 20,
  });
  // wrapped rows have their own heights: measured; unwrapped rows are one line
  useEffect(() => {
    virtualizer.measure();
  }, [layout.wrap, layout.pod, layout.msg, virtualizer]);
  const onScroll = () => {
    if (headRef.current && scrollRef.current) headRef.current.scrollLeft = scrollRef.current.scrollLeft;
  };
  const tableStyle = {
    // the default pod column gives way to a narrow table (the selected event beside it)
    "--ev-pod-w": layout.pod === POD_W[1] ? `minmax(90px, ${POD_W[1]}px)` : `${layout.pod}px`,
    "--ev-msg-w": layout.msg ? `${layout.msg}px` : "minmax(200px, 1fr)",
  } as CSSProperties;
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;

  // load the next page when the loader row comes into view
  useEffect(() => {
    if (lastIndex >= p.rows.length - 1 && p.hasNextPage && !p.isFetchingNextPage) p.fetchNextPage();
  }, [lastIndex, p.rows.length, p.hasNextPage, p.isFetchingNextPage, p]);

  // bring a selected event (from a permalink, a milestone, the chart) into view once it is loaded:
  // its row in the table, and the table in the window (it sits below the chart and the findings;
  // a click in the table sets `scrolledTo` first, so the page does not move then)
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!p.selectedId || scrolledTo.current === p.selectedId) return;
    const i = p.rows.findIndex((r) => r.id === p.selectedId);
    if (i >= 0) {
      scrolledTo.current = p.selectedId;
      virtualizer.scrollToIndex(i, { align: "center" });
      scrollRef.current?.scrollIntoView({ block: "nearest" });
    }
  }, [p.selectedId, p.rows, virtualizer]);

  // the keyboard cursor: follows the open event, moves with j/k, Enter opens it
  const [cursorId, setCursorId] = useState<string | null>(p.selectedId);
  useEffect(() => {
    if (p.selectedId) setCursorId(p.selectedId);
  }, [p.selectedId]);
  const keys = useRef({ rows: p.rows, cursorId, onSelect: p.onSelect, selectedId: p.selectedId, virtualizer });
  keys.current = { rows: p.rows, cursorId, onSelect: p.onSelect, selectedId: p.selectedId, virtualizer };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTextTarget(e.target)) return;
      const k = keys.current;
      const down = e.key === "j" || e.key === "ArrowDown";
      const up = e.key === "k" || e.key === "ArrowUp";
      if (down || up) {
        // arrows scroll the page unless the table has the focus
        if (e.key.startsWith("Arrow") && !(e.target instanceof Element && e.target.closest("[data-testid=events-table]"))) return;
        e.preventDefault();
        if (!k.rows.length) return;
        const i = k.rows.findIndex((r) => r.id === k.cursorId);
        const j = i < 0 ? 0 : Math.min(k.rows.length - 1, Math.max(0, i + (down ? 1 : -1)));
        setCursorId(k.rows[j].id);
        scrolledTo.current = k.rows[j].id;
        k.virtualizer.scrollToIndex(j, { align: "auto" });
      } else if (e.key === "Enter" && k.cursorId && !(e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement)) {
        if (!k.rows.some((r) => r.id === k.cursorId)) return;
        e.preventDefault();
        scrolledTo.current = k.cursorId;
        k.onSelect(k.cursorId);
      } else if (e.key === "Escape" && k.selectedId) {
        e.preventDefault();
        k.onSelect(null);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="ev-table-box">
      <div className="ev-table-opts">
        <label title="show whole pod names and messages on several lines">
          <input type="checkbox" checked={layout.wrap} onChange={(e) => saveLayout({ ...layout, wrap: e.target.checked })} data-testid="events-wrap" /> wrap
          rows
        </label>
        {(layout.pod !== POD_W[1] || layout.msg !== MSG_W[1]) && (
          <button type="button" className="btn small" onClick={() => saveLayout({ ...layout, pod: POD_W[1], msg: MSG_W[1] })}>
            reset columns
          </button>
        )}
      </div>
      <div
        className={`ev-table${p.stale ? " stale" : ""}${layout.wrap ? " wrap" : ""}${layout.msg ? " wide" : ""}`}
        role="table"
        aria-label="events"
        data-testid="events-table"
        aria-rowcount={p.rows.length + 1}
        aria-busy={p.stale || p.loading}
        style={tableStyle}
      >
        <div role="rowgroup" className="ev-head-wrap" ref={headRef}>
          <div className="ev-row ev-head" role="row" aria-rowindex={1}>
            <span role="columnheader">time (UTC)</span>
            <span role="columnheader">T+s</span>
            <span role="columnheader">lane / component</span>
            <span role="columnheader">sev</span>
            <span role="columnheader" data-testid="col-pod">
              pod
              <ColumnResizer label="pod" width={layout.pod} range={POD_W} onWidth={(w) => saveLayout({ ...layout, pod: w })} />
            </span>
            <span role="columnheader">kind</span>
            <span role="columnheader" data-testid="col-message">
              message
              <ColumnResizer
                label="message"
                width={layout.msg}
                range={MSG_W}
                measure={(el) => el.parentElement?.getBoundingClientRect().width ?? 400}
                onWidth={(w) => saveLayout({ ...layout, msg: w })}
              />
            </span>
          </div>
        </div>
        <div
          className="ev-scroll"
          ref={scrollRef}
          role="rowgroup"
          tabIndex={0}
          aria-label="events: j/k or arrows move, Enter opens, Escape closes"
          onScroll={onScroll}
        >
          {p.error ? (
            <Note className="ev-note bad">{p.error}</Note>
          ) : p.loading && p.rows.length === 0 ? (
            <Note className="ev-note muted">loading events…</Note>
          ) : p.rows.length === 0 && p.scanning ? (
            <Note className="ev-note muted" testId="events-scanning">
              searching… {scanText(p.scanning, p.t0)}
            </Note>
          ) : p.rows.length === 0 ? (
            <Note className="ev-note muted">no events in this range match the filters</Note>
          ) : null}
          <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((vi) => {
              const r = p.rows[vi.index];
              if (!r)
                return (
                  <div key="loader" role="row" className="ev-row ev-loader muted" style={{ transform: `translateY(${vi.start}px)`, height: ROW_H }}>
                    <span role="cell">
                      {p.rows.length === 0 ? "" : p.scanning ? `searching… ${scanText(p.scanning, p.t0)}` : p.isFetchingNextPage ? "loading more…" : ""}
                    </span>
                  </div>
                );
              const sel = r.id === p.selectedId;
              const cur = r.id === cursorId;
              const ev = p.evidence?.has(r.id) ?? false;
              return (
                <div
                  key={r.id}
                  role="row"
                  aria-rowindex={vi.index + 2}
                  data-index={vi.index}
                  ref={layout.wrap ? virtualizer.measureElement : undefined}
                  data-testid="event-row"
                  data-event-id={r.id}
                  data-evidence={ev || undefined}
                  aria-selected={sel}
                  aria-current={cur || undefined}
                  className={`ev-row sev-${r.severity}${sel ? " selected" : ""}${cur ? " cursor" : ""}${ev ? " evidence" : ""}`}
                  style={{ transform: `translateY(${vi.start}px)`, height: layout.wrap ? undefined : ROW_H, minHeight: ROW_H }}
                  onClick={() => {
                    scrolledTo.current = r.id;
                    setCursorId(r.id);
                    p.onSelect(sel ? null : r.id);
                  }}
                >
                  <span role="cell" className="mono" title={`${fmtUtc(r.ts)} UTC`}>
                    {fmtUtc(r.ts, { date: false })}
                  </span>
                  <span role="cell" className="mono num">
                    {fmtOffset(r.ts, p.t0).slice(1, -1)}
                  </span>
                  <span role="cell" className="ev-lane" title={`${r.lane} / ${r.component}`}>
                    <i style={{ background: LANE_COLORS[r.lane] ?? "#999" }} />
                    {r.component}
                  </span>
                  <span role="cell" className={`ev-sev sev-${r.severity}`}>
                    {SEVERITY_NAMES[r.severity] ?? r.severity}
                  </span>
                  <span role="cell" className="ev-pod" title={layout.wrap ? undefined : (r.pod ?? "")}>
                    {r.pod ?? ""}
                  </span>
                  <span role="cell" className="ev-kind" title={r.errorClass ? `${r.kind} · ${r.errorClass}` : r.kind}>
                    {r.kind}
                  </span>
                  <span role="cell" className="ev-msg" title={layout.wrap ? undefined : titleOf(r)}>
                    {r.message}
                    {r.fieldsText && <span className="ev-fields"> {r.fieldsText}</span>}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

/** The message cell's tooltip: the message and the fields it does not print, cut at 300 characters. */
function titleOf(r: TEventRow): string {
  const text = r.fieldsText ? `${r.message} ${r.fieldsText}` : r.message;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** A message in place of the rows, as a row of its own (the table holds rows only). */
function Note(p: { className: string; testId?: string; children: ReactNode }) {
  return (
    <div role="row" className="ev-note-row">
      <div role="cell" className={p.className} data-testid={p.testId}>
        {p.children}
      </div>
    </div>
  );
}

/**
 * The draggable edge of a column header: a focusable separator (aria-valuenow = width in px);
 * ←/→ change the width by 20 px (Shift: 100 px), Home resets it.
 */
function ColumnResizer(p: {
  label: string;
  /** px; 0 = not set (the column takes the rest): `measure` gives its current width */
  width: number;
  range: readonly [number, number, number];
  measure?(el: HTMLElement): number;
  onWidth(w: number): void;
}) {
  const drag = useRef<{ x: number; w: number } | null>(null);
  const [lo, dflt, hi] = p.range;
  const clamp = (w: number) => Math.min(hi, Math.max(lo, Math.round(w)));
  const current = (el: HTMLElement) => p.width || (p.measure ? p.measure(el) : dflt);
  return (
    <span
      role="separator"
      aria-orientation="vertical"
      aria-label={`resize the ${p.label} column`}
      aria-valuemin={lo}
      aria-valuemax={hi}
      aria-valuenow={p.width || lo}
      aria-valuetext={p.width ? `${p.width} px` : "fits the page"}
      tabIndex={0}
      className="ev-col-resize"
      data-testid={`resize-${p.label}`}
      onPointerDown={(e: ReactPointerEvent<HTMLSpanElement>) => {
        if (e.button !== 0) return;
        e.preventDefault();
        e.currentTarget.setPointerCapture?.(e.pointerId);
        drag.current = { x: e.clientX, w: current(e.currentTarget) };
      }}
      onPointerMove={(e) => {
        if (drag.current) p.onWidth(clamp(drag.current.w + e.clientX - drag.current.x));
      }}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onDoubleClick={() => p.onWidth(dflt)}
      onKeyDown={(e: ReactKeyboardEvent<HTMLSpanElement>) => {
        const step = e.shiftKey ? 100 : 20;
        if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
          e.preventDefault();
          e.stopPropagation();
          p.onWidth(clamp(current(e.currentTarget) + (e.key === "ArrowRight" ? step : -step)));
        } else if (e.key === "Home") {
          e.preventDefault();
          p.onWidth(dflt);
        }
      }}
    />
  );
}

/** True for targets that take typed text (the shortcuts stay out of their way). */
function isTextTarget(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  return t instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "range"].includes(t.type);
}

/** `T+12.0s of T+0.0s – T+960.0s searched (1%)`. */
function scanText(s: { at: number; from: number; to: number }, t0: number): string {
  const done = Math.min(100, Math.max(0, Math.floor(((s.at - s.from) / Math.max(1, s.to - s.from)) * 100)));
  return `${fmtOffset(s.from, t0, 1)} – ${fmtOffset(s.at, t0, 1)} searched (${done}%)`;
}
