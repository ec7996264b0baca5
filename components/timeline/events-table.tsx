"use client";
/**
 * The events of the visible range, virtualised (@tanstack/react-virtual) and paged from
 * the server as the reader scrolls. Every cell is plain text (React escapes it): log
 * lines are never rendered as HTML. Click or arrow keys select an event.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
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

  // bring a selected event (from a permalink) into view once it is loaded
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!p.selectedId || scrolledTo.current === p.selectedId) return;
    const i = p.rows.findIndex((r) => r.id === p.selectedId);
    if (i >= 0) {
      scrolledTo.current = p.selectedId;
      virtualizer.scrollToIndex(i, { align: "center" });
    }
  }, [p.selectedId, p.rows, virtualizer]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp" && e.key !== "Escape") return;
    e.preventDefault();
    if (e.key === "Escape") return p.onSelect(null);
    const i = p.rows.findIndex((r) => r.id === p.selectedId);
    const j = Math.min(p.rows.length - 1, Math.max(0, i < 0 ? 0 : i + (e.key === "ArrowDown" ? 1 : -1)));
    const r = p.rows[j];
    if (r) {
      scrolledTo.current = r.id;
      p.onSelect(r.id);
      virtualizer.scrollToIndex(j, { align: "auto" });
    }
  };

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
      <div className="ev-scroll" ref={scrollRef} tabIndex={0} onKeyDown={onKeyDown}>
        {p.error ? (
          <div className="ev-note bad">{p.error}</div>
        ) : p.loading && p.rows.length === 0 ? (
          <div className="ev-note muted">loading events…</div>
        ) : p.rows.length === 0 ? (
          <div className="ev-note muted">no events in this range match the filters</div>
        ) : null}
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((vi) => {
            const r = p.rows[vi.index];
            if (!r)
              return (
                <div key="loader" className="ev-row ev-loader muted" style={{ transform: `translateY(${vi.start}px)`, height: ROW_H }}>
                  {p.isFetchingNextPage ? "loading more…" : ""}
                </div>
              );
            const sel = r.id === p.selectedId;
            return (
              <div
                key={r.id}
                role="row"
                data-testid="event-row"
                data-event-id={r.id}
                aria-selected={sel}
                className={`ev-row sev-${r.severity}${sel ? " selected" : ""}`}
                style={{ transform: `translateY(${vi.start}px)`, height: ROW_H }}
                onClick={() => {
                  scrolledTo.current = r.id;
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
