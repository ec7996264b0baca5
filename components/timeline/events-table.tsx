"use client";
/**
 * The events of the visible range, virtualised (@tanstack/react-virtual) and paged from
 * the server as the reader scrolls. Every cell is plain text (React escapes it): log
 * lines are never rendered as HTML.
 *
 * Keyboard (anywhere on the page but in a text field): `j`/`k` (or ↓/↑) move the row
 * cursor, Enter opens the event under it, Escape closes the open event. A click opens the
 * row. Rows cited as evidence by the selected finding are highlighted.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import type { TEventRow } from "@/lib/timeline/get-events-page";
import { fmtOffset, fmtUtc } from "@/lib/timeline/format";
import { SEVERITY_NAMES } from "@/lib/timeline/lanes";
import { LANE_COLORS } from "./lane-sparkline";

const ROW_H = 24;

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
  const count = p.rows.length + (p.hasNextPage ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 20,
  });
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
    <div
      className={`ev-table${p.stale ? " stale" : ""}`}
      role="table"
      aria-label="events"
      data-testid="events-table"
      aria-rowcount={p.rows.length}
      aria-busy={p.stale || p.loading}
    >
      <div className="ev-row ev-head" role="row">
        <span role="columnheader">time (UTC)</span>
        <span role="columnheader">T+s</span>
        <span role="columnheader">lane / component</span>
        <span role="columnheader">sev</span>
        <span role="columnheader">pod</span>
        <span role="columnheader">kind</span>
        <span role="columnheader">message</span>
      </div>
      <div className="ev-scroll" ref={scrollRef} tabIndex={0} aria-label="events: j/k or arrows move, Enter opens, Escape closes">
        {p.error ? (
          <div className="ev-note bad">{p.error}</div>
        ) : p.loading && p.rows.length === 0 ? (
          <div className="ev-note muted">loading events…</div>
        ) : p.rows.length === 0 && p.scanning ? (
          <div className="ev-note muted" data-testid="events-scanning">
            searching… {scanText(p.scanning, p.t0)}
          </div>
        ) : p.rows.length === 0 ? (
          <div className="ev-note muted">no events in this range match the filters</div>
        ) : null}
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((vi) => {
            const r = p.rows[vi.index];
            if (!r)
              return (
                <div key="loader" className="ev-row ev-loader muted" style={{ transform: `translateY(${vi.start}px)`, height: ROW_H }}>
                  {p.rows.length === 0 ? "" : p.scanning ? `searching… ${scanText(p.scanning, p.t0)}` : p.isFetchingNextPage ? "loading more…" : ""}
                </div>
              );
            const sel = r.id === p.selectedId;
            const cur = r.id === cursorId;
            const ev = p.evidence?.has(r.id) ?? false;
            return (
              <div
                key={r.id}
                role="row"
                data-testid="event-row"
                data-event-id={r.id}
                data-evidence={ev || undefined}
                aria-selected={sel}
                aria-current={cur || undefined}
                className={`ev-row sev-${r.severity}${sel ? " selected" : ""}${cur ? " cursor" : ""}${ev ? " evidence" : ""}`}
                style={{ transform: `translateY(${vi.start}px)`, height: ROW_H }}
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
                <span role="cell" className="ev-pod" title={r.pod ?? ""}>
                  {r.pod ?? ""}
                </span>
                <span role="cell" className="ev-kind" title={r.errorClass ? `${r.kind} · ${r.errorClass}` : r.kind}>
                  {r.kind}
                </span>
                <span role="cell" className="ev-msg" title={r.message.length > 300 ? `${r.message.slice(0, 300)}…` : r.message}>
                  {r.message}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
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
