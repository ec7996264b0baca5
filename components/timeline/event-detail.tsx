"use client";
/**
 * The selected event: full message, raw line, where it came from (file in the bundle and
 * line number), the clock offset and zone applied, and its structured fields. Text only; long
 * lines are wrapped (never cut), and the panel can take half the width.
 */
import { useEventQuery } from "@/components/data/use-event-query";
import { fmtOffset, fmtUtc } from "@/lib/view/format";
import { SEVERITY_NAMES } from "@/lib/view/lanes";

const FLAG_NAMES: Array<[number, string]> = [
  [1, "year inferred"],
  [2, "zone assumed"],
  [4, "out of order"],
  [8, "truncated"],
];

export function EventDetail(p: {
  incidentId: string;
  eventId: string;
  /** the page's boot: T+0 (UTC ms) and key, to flag events of another boot */
  t0: number;
  bootKey: string;
  onClose(): void;
  onZoomTo(ts: number): void;
  /** the panel takes half the width */
  wide?: boolean;
  onToggleWide?(): void;
}) {
  const q = useEventQuery(p.incidentId, p.eventId);
  const e = q.data;
  return (
    <aside className="ev-detail panel" data-testid="event-detail" aria-label="selected event">
      <header>
        <h3>event {p.eventId}</h3>
        <div className="row-gap">
          {e?.ts != null && e.bootKey === p.bootKey && (
            <button type="button" className="btn small" onClick={() => p.onZoomTo(e.ts!)}>
              zoom ±5 s
            </button>
          )}
          {p.onToggleWide && (
            <button type="button" className="btn small" onClick={p.onToggleWide} aria-pressed={!!p.wide} title="give this panel half the width (long lines)">
              {p.wide ? "narrow" : "widen"}
            </button>
          )}
          <button type="button" className="btn small" onClick={p.onClose} aria-label="close event detail">
            ✕
          </button>
        </div>
      </header>
      {q.isLoading && <p className="muted">loading…</p>}
      {q.error && <p className="bad">{(q.error as Error).message}</p>}
      {e && (
        <>
          {e.bootKey !== p.bootKey && (
            <p className="warn small" data-testid="event-other-boot">
              {e.bootKey
                ? `This event belongs to another boot (${e.bootKey}) of ${e.node ?? "this node"}; T+ is relative to this page's boot.`
                : "This event is not assigned to a boot."}
            </p>
          )}
          <dl className="kv">
            <dt>time</dt>
            <dd className="mono">
              {e.ts == null ? "no time" : `${fmtUtc(e.ts)} UTC · ${fmtOffset(e.ts, p.t0)}`} <span className="muted">({e.precision})</span>
            </dd>
            <dt>source</dt>
            <dd className="mono" data-testid="event-source">
              {e.file.path}:{e.line}
              {e.span > 1 ? `-${e.line + e.span - 1}` : ""}
            </dd>
            <dt>bundle</dt>
            <dd>{e.bundle.fileName}</dd>
            <dt>format</dt>
            <dd>
              {e.file.kind} · {e.file.format}
            </dd>
            <dt>clock</dt>
            <dd>
              {e.file.clockOffsetMs ? `${e.file.clockOffsetMs > 0 ? "+" : ""}${(e.file.clockOffsetMs / 1000).toFixed(3)} s applied · ` : ""}
              zone {e.file.timeZone} ({e.file.zoneSource}){e.file.yearSource ? ` · year from ${e.file.yearSource}` : ""}
            </dd>
            {e.flags ? (
              <>
                <dt>flags</dt>
                <dd className="warn">
                  {FLAG_NAMES.filter(([b]) => e.flags & b)
                    .map(([, n]) => n)
                    .join(", ")}
                </dd>
              </>
            ) : null}
            <dt>component</dt>
            <dd>
              {e.component} <span className="muted">({e.lane})</span> · <span className={`ev-sev sev-${e.severity}`}>{SEVERITY_NAMES[e.severity]}</span>
            </dd>
            <dt>kind</dt>
            <dd className="mono">{e.kind}</dd>
            {e.pod && (
              <>
                <dt>pod</dt>
                <dd className="mono">{e.pod}</dd>
              </>
            )}
            {e.sandboxId && (
              <>
                <dt>sandbox</dt>
                <dd className="mono break">{e.sandboxId}</dd>
              </>
            )}
            {e.errorClass && (
              <>
                <dt>error class</dt>
                <dd className="mono">{e.errorClass}</dd>
              </>
            )}
          </dl>
          <h4>message</h4>
          <pre className="pre" data-testid="event-message">
            {e.message}
          </pre>
          <h4>{e.span > 1 ? `raw lines (${e.span})` : "raw line"} in context</h4>
          {e.context.length === 0 ? (
            <p className="muted small">the source text of this file is not stored</p>
          ) : (
            <pre className="pre src" data-testid="event-raw">
              {e.context.map((l) => (
                <span key={l.n} className={l.own ? "own" : undefined}>
                  <i>{l.n}</i>
                  {l.text}
                </span>
              ))}
            </pre>
          )}
          {e.fields && Object.keys(e.fields).length > 0 && (
            <>
              <h4>fields</h4>
              <pre className="pre">{JSON.stringify(e.fields, null, 2)}</pre>
            </>
          )}
        </>
      )}
    </aside>
  );
}
