"use client";
/**
 * Reviewers' notes of the boot: the list (time as T+ and UTC, the pinned event, the text
 * as text) and a form that pins a new note to the selected event or to an instant (a T+
 * second typed in, or picked by clicking the notes row of the chart). Notes are stored
 * (Annotation), drawn as markers on the timeline and listed in the Markdown export.
 */
import { useEffect, useState } from "react";
import { useAnnotationMutations } from "@/components/data/use-annotations-query";
import { MAX_ANNOTATION_TEXT, type TAnnotation } from "@/lib/annotations/annotation";
import { fmtOffset, fmtUtc } from "@/lib/view/format";

export function AnnotationsPanel(p: {
  incidentId: string;
  bootId: number;
  t0: number;
  notes: TAnnotation[];
  loading: boolean;
  /** the selected event (pin target by default) */
  selectedEventId: string | null;
  /** an instant picked on the chart's notes row, UTC ms */
  pickedTs: number | null;
  /** the centre of the visible range: the default instant */
  defaultTs: number;
  onShow(n: TAnnotation): void;
}) {
  const { create, remove } = useAnnotationMutations(p.incidentId, p.bootId);
  const [text, setText] = useState("");
  const [target, setTarget] = useState<"event" | "time">(p.selectedEventId ? "event" : "time");
  const [offsetText, setOffsetText] = useState(((p.defaultTs - p.t0) / 1000).toFixed(3));
  // the time follows the view's centre until the reader types or picks one
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!touched) setOffsetText(((p.defaultTs - p.t0) / 1000).toFixed(3));
  }, [p.defaultTs, p.t0, touched]);

  // a picked instant or a newly selected event becomes the target
  useEffect(() => {
    if (p.pickedTs === null) return;
    setOffsetText(((p.pickedTs - p.t0) / 1000).toFixed(3));
    setTouched(true);
    setTarget("time");
  }, [p.pickedTs, p.t0]);
  useEffect(() => {
    setTarget(p.selectedEventId ? "event" : "time");
  }, [p.selectedEventId]);

  const offset = Number(offsetText);
  const timeOk = offsetText.trim() !== "" && Number.isFinite(offset);
  const canSave = text.trim().length > 0 && !create.isPending && (target === "event" ? !!p.selectedEventId : timeOk);

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    if (!canSave) return;
    const body = target === "event" && p.selectedEventId ? { text, eventId: p.selectedEventId } : { text, ts: Math.round(p.t0 + offset * 1000) };
    create.mutate(body, { onSuccess: () => setText("") });
  };

  return (
    <section className="panel notes-panel" aria-labelledby="notes-h" data-testid="notes-panel">
      <h2 id="notes-h">
        Notes <span className="muted small">{p.notes.length ? `${p.notes.length} on this boot` : ""}</span>
      </h2>
      {p.loading ? (
        <p className="muted small">loading notes…</p>
      ) : p.notes.length === 0 ? (
        <p className="muted small">No notes yet: pin one to the selected event or to a time; it shows on the timeline and in the Markdown export.</p>
      ) : (
        <ol className="notes">
          {p.notes.map((n, i) => (
            <li key={n.id} className="note" data-testid="note" data-note-id={n.id}>
              <button type="button" className="note-when mono" onClick={() => p.onShow(n)} title={`${fmtUtc(n.ts)} UTC: show on the timeline`}>
                <b>{i + 1}</b> {fmtOffset(n.ts, p.t0)}
                {n.eventId ? <span className="muted"> · event {n.eventId}</span> : null}
              </button>
              <p className="note-text" data-testid="note-text">
                {n.text}
              </p>
              <button
                type="button"
                className="btn small note-del"
                aria-label={`delete note ${i + 1}`}
                disabled={remove.isPending}
                onClick={() => {
                  if (window.confirm("Delete this note?")) remove.mutate(n.id);
                }}
              >
                ✕
              </button>
            </li>
          ))}
        </ol>
      )}
      <form className="note-form" onSubmit={save} data-testid="note-form">
        <textarea
          className="input"
          rows={2}
          placeholder="what happened here…"
          aria-label="note text"
          data-testid="note-input"
          value={text}
          maxLength={MAX_ANNOTATION_TEXT}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) save(e);
          }}
        />
        <div className="note-target">
          <label className={p.selectedEventId ? "" : "muted"}>
            <input type="radio" name="note-target" checked={target === "event"} disabled={!p.selectedEventId} onChange={() => setTarget("event")} />
            {p.selectedEventId ? `pin to event ${p.selectedEventId}` : "pin to an event (select one below)"}
          </label>
          <label>
            <input type="radio" name="note-target" checked={target === "time"} onChange={() => setTarget("time")} />
            at T+
            <input
              className="input note-offset mono"
              aria-label="note time, seconds since T+0"
              data-testid="note-offset"
              value={offsetText}
              onChange={(e) => {
                setOffsetText(e.target.value);
                setTouched(true);
                setTarget("time");
              }}
            />
            s
          </label>
          <button type="submit" className="btn" disabled={!canSave} data-testid="note-save">
            add note
          </button>
          {create.error && <span className="bad small">{(create.error as Error).message}</span>}
          {remove.error && <span className="bad small">{(remove.error as Error).message}</span>}
        </div>
      </form>
    </section>
  );
}
