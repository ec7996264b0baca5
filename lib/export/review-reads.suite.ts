/**
 * Shared checks of the review features' stored reads and writes (notes, the Markdown export, the
 * timeline picture, the compare view) on the incident that timeline-reads.suite.ts seeds,
 * run on PostgreSQL and on PGlite by review-reads.pg.test.ts and review-reads.pglite.test.ts.
 */
import { expect, it } from "vitest";
import { ZodError } from "zod";
import { createAnnotation } from "@/lib/annotations/create-annotation";
import { deleteAnnotation } from "@/lib/annotations/delete-annotation";
import { listAnnotations } from "@/lib/annotations/list-annotations";
import { getDb } from "@/lib/db/connection";
import { getCompareView } from "@/lib/queries/get-compare-view";
import { seed } from "@/lib/queries/timeline-reads.suite";
import { getIncidentMarkdown } from "./get-incident-markdown";
import { getTimelinePicture } from "./get-timeline-picture";
import { renderTimelineSvg } from "./timeline-picture";

// the seeded boot 2's T+0 (timeline-reads.suite.ts)
const T0 = Date.parse("2026-03-14T02:10:00.250Z");

export function reviewReadsSuite() {
  it("pins notes to events and times, lists them by time, deletes them, and checks what it is given", async () => {
    const { incidentId, bootId, boot1Id, fileId } = await seed();
    const { sql } = await getDb();
    const ids = Object.fromEntries(
      (await sql.query<{ id: string; line: number }>(`SELECT id::text AS id, line FROM "Event" WHERE "fileId" = $1 AND line IN (1, 6, 107)`, [fileId])).map(
        (r) => [r.line, r.id],
      ),
    );

    // pinned to an event: the event's time wins over the one given
    const onEvent = await createAnnotation({ incidentId, bootId, eventId: ids[6], ts: 0, text: "  first failure\r\nsee <b>here</b>\u0007 " });
    expect(onEvent).toMatchObject({ bootId, ts: T0 + 9000, eventId: ids[6], text: "first failure\nsee <b>here</b>" });
    const atTime = await createAnnotation({ incidentId, bootId, ts: T0 + 20_500, text: "network back" });
    const early = await createAnnotation({ incidentId, bootId, ts: T0 + 1000, text: "kernel up" });
    expect(atTime.eventId).toBeNull();
    expect((await listAnnotations({ incidentId, bootId })).map((a) => [a.text, a.ts - T0])).toEqual([
      ["kernel up", 1000],
      ["first failure\nsee <b>here</b>", 9000],
      ["network back", 20_500],
    ]);
    expect(await listAnnotations({ incidentId, bootId: boot1Id })).toEqual([]);

    // refusals: another boot's event, a boot of another incident, no time, empty text
    await expect(createAnnotation({ incidentId, bootId, eventId: ids[1], text: "x" })).rejects.toMatchObject({ code: "unprocessable" });
    await expect(createAnnotation({ incidentId: "nope", bootId, ts: T0, text: "x" })).rejects.toMatchObject({ code: "not_found" });
    await expect(createAnnotation({ incidentId, bootId, eventId: "999999999999", text: "x" })).rejects.toMatchObject({ code: "not_found" });
    await expect(createAnnotation({ incidentId, bootId, text: "x" })).rejects.toMatchObject({ code: "bad_request" });
    // a time outside the boot (its timeline could not show the note): a day after, and before T+0
    const late = createAnnotation({ incidentId, bootId, ts: T0 + 86_400_000, text: "x" });
    await expect(late).rejects.toMatchObject({ code: "unprocessable" });
    // the seeded boot's first event is 5 ms before its T+0, its last at T+60 s
    await expect(late).rejects.toThrow("the time T+86400.000s is outside this boot (T-0.005s to T+60.000s): pin the note inside it");
    await expect(createAnnotation({ incidentId, bootId, ts: T0 - 60_000, text: "x" })).rejects.toMatchObject({ code: "unprocessable" });
    await expect(createAnnotation({ incidentId, bootId, ts: T0, text: " \n " })).rejects.toBeInstanceOf(ZodError);
    await expect(listAnnotations({ incidentId: "nope", bootId })).rejects.toMatchObject({ code: "not_found" });

    expect(await deleteAnnotation({ incidentId, annotationId: early.id })).toEqual({ id: early.id });
    await expect(deleteAnnotation({ incidentId, annotationId: early.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteAnnotation({ incidentId: "nope", annotationId: atTime.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await listAnnotations({ incidentId })).map((a) => a.id)).toEqual([onEvent.id, atTime.id]);

    // the Markdown export: findings with permalinks on the origin, notes with the event's message
    const { markdown } = await getIncidentMarkdown({ incidentId, origin: "https://bootline.example", now: Date.parse("2026-03-15T00:00:00Z") });
    expect(markdown).toContain("# reads test\n");
    expect(markdown).toContain("- **Scope:** 1 node, 2 boots, 2 findings, 2 notes");
    expect(markdown).toContain("### 1. CRITICAL · retry-storm · s");
    expect(markdown).toContain("### 2. HIGH · sandbox-failure-window · w");
    expect(markdown).toContain("- **Window:** 2026-03-14 02:10:09.250 UTC (T+9.000s) → 2026-03-14 02:10:19.150 UTC (T+18.900s), 9.90 s");
    expect(markdown).toContain("- **Evidence:** 3 events cited");
    const win = (await getCompareView({ incidentId, bootIds: [bootId] })).boots[0].windows[0];
    expect(markdown).toContain(
      `(https://bootline.example/i/${incidentId}/n/node-a/b/${"a".repeat(32)}?from=2026-03-14T02:10:07.765Z&to=2026-03-14T02:10:20.635Z&finding=${win.id})`,
    );
    expect(markdown).toContain(
      `([event ${ids[6]}](https://bootline.example/i/${incidentId}/n/node-a/b/${"a".repeat(32)}?from=2026-03-14T02:10:04.250Z&to=2026-03-14T02:10:14.250Z&ev=${ids[6]})): first failure see \\<b>here\\</b>`,
    );
    expect(markdown).toContain("  - event: `failed 100%_x 0`");
    expect(markdown).toContain("**T+20.500s · 2026-03-14 02:10:20.750 UTC** ([timeline](");
    await expect(getIncidentMarkdown({ incidentId: "nope", origin: "http://h" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("draws a picture of a view and lines boots up for the compare page", async () => {
    const { incidentId, bootId, boot1Id } = await seed();
    await createAnnotation({ incidentId, bootId, ts: T0 + 12_000, text: "storm at its peak" });

    const { picture, from, to } = await getTimelinePicture({ incidentId, bootId, from: T0, to: T0 + 30_000 });
    expect([from, to]).toEqual([T0, T0 + 30_000]);
    const texts = picture.texts.map((t) => t.text);
    expect(texts.slice(0, 3)).toEqual([
      "reads test",
      "node-a · boot 2 of 2 · T+0 2026-03-14 02:10:00.250 UTC",
      "sandbox failure window T+9.000s → T+18.900s (9.90 s), 100 attempts",
    ]);
    // lanes in [T+0, T+30 s): kernel 1, runtime 2, kubelet 51, CNI plugin 50, CNI agent 0, events 0 (theirs are at
    // T+30 s, the end, excluded); no "other" row
    expect(texts.filter((t) => /^\d+ events?\b/.test(t))).toEqual([
      "1 event",
      "2 events",
      "51 events, 50 errors",
      "50 events, 50 errors",
      "0 events",
      "0 events",
    ]);
    expect(texts).toEqual(
      expect.arrayContaining(["note 1: storm at its peak", "runtime up T+6.4s", "kubelet up T+7.1s", "failure window T+9.000s → T+18.900s"]),
    );
    expect(renderTimelineSvg(picture)).toContain("<text");
    // default range: the whole boot; lanes asked for are drawn even when empty
    const whole = await getTimelinePicture({ incidentId, bootId, lanes: ["other", "kernel"] });
    expect([whole.from, whole.to]).toEqual([T0 - 5, T0 + 60_001]);
    expect(whole.picture.texts.filter((t) => /^\d+ events?\b/.test(t.text)).map((t) => t.text)).toEqual(["1 event", "0 events"]);
    await expect(getTimelinePicture({ incidentId: "nope", bootId })).rejects.toMatchObject({ code: "not_found" });

    const cmp = await getCompareView({ incidentId, bootIds: [bootId, 999_999, boot1Id] });
    expect(cmp.missing).toEqual([999_999]);
    expect(cmp.boots.map((b) => [b.id, b.node, b.index, b.count])).toEqual([
      [bootId, "node-a", 2, 2],
      [boot1Id, "node-a", 1, 2],
    ]);
    const b2 = cmp.boots[0];
    expect(b2).toMatchObject({ t0: T0, fromOffset: -5, toOffset: 60_001, dataEnd: 30_000 });
    expect(b2.windows).toEqual([{ id: expect.any(Number), start: 9000, end: 18_900, attempts: 100, pods: undefined, errorClass: undefined }]);
    expect(b2.milestones.map((m) => [m.kind, m.at])).toEqual([
      ["kernel.start", 0],
      ["runtime.started", 6400],
      ["kubelet.started", 7100],
      ["sandbox.created", 20_000],
    ]);
    // boot 1: T+0 100 s before boot 2's, one event at T+40 s, data to its end (T+50 s)
    expect(cmp.boots[1]).toMatchObject({ t0: T0 - 100_000, fromOffset: 0, toOffset: 50_001, windows: [] });
    expect(cmp.extent).toEqual({ fromOffset: -5, toOffset: 60_001 });
    await expect(getCompareView({ incidentId: "nope", bootIds: [bootId] })).rejects.toMatchObject({ code: "not_found" });
  });
}
