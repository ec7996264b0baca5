/**
 * Patterns through the whole ingest, on either database: two boots of one node uploaded as one
 * journal (a `-- Reboot --` separator between them), with a known difference: the second boot
 * logs a sandbox failure the first did not, and no longer starts kube-proxy. Checked: the stored
 * rows, the panel's new and stopped lists, the events filter by pattern (shown alone, hidden),
 * and the report's `boots[].patterns`.
 */
import { expect, it } from "vitest";
import { getDb } from "../lib/db/connection";
import { readBootFacets } from "../lib/incidents/boot-facets";
import { FACET_DIMS } from "../lib/ingest/facet-rows";
import { newInBootsSummary } from "../lib/incidents/boot-patterns";
import { getIncident } from "../lib/incidents/get-incident";
import { getIncidentReport } from "../lib/incidents/get-incident-report";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { countEvents } from "../lib/queries/count-events";
import { getBootDiff } from "../lib/queries/get-boot-diff";
import { getBootPatterns } from "../lib/queries/get-boot-patterns";
import { getEventsPage } from "../lib/queries/get-events-page";
import { withPatternFilter } from "../lib/queries/pattern-filter";
import { LANES } from "../lib/view/lanes";

const stamp = (sec: number) => {
  const d = new Date(Date.UTC(2026, 2, 14, 2, 0, 0) + sec * 1000);
  return `Mar 14 ${d.toISOString().slice(11, 19)}`;
};

/** Boot 1: 20 image pulls, 3 kube-proxy starts; boot 2 (from second 600): 30 pulls, 12 sandbox failures from T+42 s. */
export function twoBootJournal(): string {
  const lines: string[] = [];
  const at = (sec: number, unit: string, msg: string) => lines.push(`${stamp(sec)} node-a ${unit}[${100 + (sec % 7)}]: ${msg}`);
  for (let i = 0; i < 20; i++) at(1 + i, "containerd", `Pulling image registry.local/app:${i} attempt ${i + 1}`);
  for (let i = 0; i < 3; i++) at(30 + i, "kube-proxy", `Started kube-proxy with mode iptables after ${10 + i}ms`);
  lines.push("-- Reboot --");
  for (let i = 0; i < 30; i++) at(600 + i, "containerd", `Pulling image registry.local/app:${i} attempt ${i + 1}`);
  for (let i = 0; i < 12; i++)
    at(642 + i, "containerd", `Failed to create pod sandbox for pod web-${i}: stat /var/lib/calico/nodename: no such file or directory`);
  return `${lines.join("\n")}\n`;
}

/** `twoBootJournal` stored as one bundle of a new incident. */
async function ingestTwoBoots(title: string) {
  const db = await getDb();
  const { incidentId, bundleId } = await enqueueBundle(db, {
    title,
    files: [{ name: "journal.log", data: Buffer.from(twoBootJournal()) }],
    options: { year: 2026 },
  });
  expect((await processBundle(db, bundleId)).error).toBeNull();
  return { db, incidentId };
}

export function patternsStoreSuite(): void {
  it("stores each boot's templates; new, stopped, the filter by pattern and the report agree with the known difference", async () => {
    const { db, incidentId } = await ingestTwoBoots("two boots");
    const boots = await db.sql.query<{ id: number; start: Date }>(`SELECT id, start FROM "Boot" WHERE "incidentId" = $1 ORDER BY start`, [incidentId]);
    expect(boots).toHaveLength(2);
    const rows = await db.sql.query<{ bootId: number; template: string; count: number }>(
      `SELECT "bootId", template, count FROM "LogPattern" WHERE "incidentId" = $1 ORDER BY "bootId", count DESC`,
      [incidentId],
    );
    expect(rows.map((r) => [r.bootId === boots[0].id ? 1 : 2, r.template, r.count])).toEqual([
      [1, "Pulling image <*> attempt <*>", 20],
      [1, "Started kube-proxy with mode iptables after <*>", 3],
      [2, "Pulling image <*> attempt <*>", 30],
      [2, "Failed to create pod sandbox for pod <*> stat <*> no such file or directory", 12],
    ]);

    const p = await getBootPatterns({ incidentId, bootId: boots[1].id });
    expect(p.baseline).toEqual({ kind: "previous", bootId: boots[0].id });
    expect(p.new.map((n) => [n.template, n.count, n.firstT])).toEqual([
      ["Failed to create pod sandbox for pod <*> stat <*> no such file or directory", 12, 42],
    ]);
    expect(p.stopped.map((n) => [n.template, n.count, n.firstT])).toEqual([["Started kube-proxy with mode iptables after <*>", 3, 29]]);
    expect(p.patterns.map((r) => [r.count, r.new, r.firstT, r.lastT, r.lanes])).toEqual([
      [30, false, 0, 29, ["runtime"]],
      [12, true, 42, 53, ["runtime"]],
    ]);
    expect(p.patterns[0].spark.reduce((s, n) => s + n, 0)).toBe(30);

    const failing = p.patterns[1];
    const range = { incidentId, bootId: boots[1].id, fromMs: p.startMs, toMs: p.endMs + 1, lanes: [...LANES] };
    const only = await getEventsPage(await withPatternFilter(range, { pat: failing.key }));
    expect(only.events.map((e) => e.message.slice(0, 40))).toEqual(Array(12).fill("Failed to create pod sandbox for pod web"));
    expect(only.events[0].id).toBe(failing.firstId);
    expect(await countEvents(await withPatternFilter(range, { xpat: [failing.key] }))).toMatchObject({ total: 42, matching: 30 });
    // an unknown key (an old link) is dropped: every event
    expect(await countEvents(await withPatternFilter(range, { pat: "zzzzzz" }))).toMatchObject({ total: 42, matching: 42 });

    // the incident page's summary: the boot with a baseline only, its new template keyed as its timeline knows it
    const summary = await newInBootsSummary(db, incidentId);
    expect([...summary.keys()]).toEqual([boots[1].id]);
    expect(summary.get(boots[1].id)).toEqual({
      bootId: boots[1].id,
      baseline: "previous",
      newCount: 1,
      stoppedCount: 1,
      top: [{ template: failing.template, key: failing.key, count: 12, firstT: 42, firstId: failing.firstId }],
    });

    // what changed from boot 1 to boot 2, each row linking into both timelines at its first event
    const diff = await getBootDiff({ incidentId, a: boots[0].id, b: boots[1].id });
    expect(diff?.rows.filter((r) => r.dimension === "pattern").map((r) => [r.value, r.change, r.a.count, r.b.count, r.a.firstT, r.b.firstT])).toEqual([
      ["Failed to create pod sandbox for pod <*> stat <*> no such file or directory", "only-b", 0, 12, null, 42],
      ["Started kube-proxy with mode iptables after <*>", "only-a", 3, 0, 29, null],
    ]);
    const sandboxRow = diff!.rows.find((r) => r.dimension === "pattern" && r.change === "only-b")!;
    expect(sandboxRow.hrefA).toBeNull();
    expect(sandboxRow.hrefB).toContain(`pat=${failing.key}`);
    expect(sandboxRow.hrefB).toContain(`ev=${failing.firstId}`);
    expect(diff!.rows.filter((r) => r.dimension === "component").map((r) => [r.value, r.change, r.a.count, r.b.count])).toEqual([
      ["kube-proxy", "only-a", 3, 0],
      // 20 pulls before, 30 pulls and 12 sandbox failures after: more than twice
      ["containerd", "more-in-b", 20, 42],
    ]);

    const report = await getIncidentReport(db, incidentId);
    const [b1, b2] = report.nodes[0].boots;
    expect(b1.patterns.map((x) => [x.template, x.count, x.new])).toEqual([
      ["Pulling image <*> attempt <*>", 20, false],
      ["Started kube-proxy with mode iptables after <*>", 3, false],
    ]);
    expect(b2.patterns.map((x) => [x.count, x.firstT, x.new])).toEqual([
      [30, 0, false],
      [12, 42, true],
    ]);
  }, 120_000);

  it("stores each boot's facets: per kind, error class, component and pod, the events grouped, their first time and lowest id", async () => {
    const { db, incidentId } = await ingestTwoBoots("facets");
    const boots = (await db.sql.query<{ id: number }>(`SELECT id FROM "Boot" WHERE "incidentId" = $1 ORDER BY start`, [incidentId])).map((b) => b.id);
    const facets = await readBootFacets(db, incidentId, boots, FACET_DIMS);
    for (const dim of FACET_DIMS) {
      const col = dim === "kind" || dim === "component" || dim === "pod" ? dim : `"errorClass"`;
      const grouped = await db.sql.query<{ bootId: number; value: string; n: number; first: Date | null; fid: string }>(
        `SELECT "bootId", ${col} AS value, count(*)::int AS n, min(ts) AS first, min(id)::text AS fid FROM "Event"
         WHERE "incidentId" = $1 AND "bootId" IS NOT NULL AND ${col} IS NOT NULL GROUP BY "bootId", ${col} ORDER BY "bootId", ${col}`,
        [incidentId],
      );
      const stored = boots.flatMap((b) =>
        [...(facets.get(b)?.get(dim) ?? [])].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([value, c]) => [b, value, c.n, c.firstTs, c.firstId]),
      );
      expect(stored, dim).toEqual(grouped.map((r) => [r.bootId, r.value, r.n, r.first === null ? null : new Date(r.first).getTime(), Number(r.fid)]));
    }
    // the known content: boot 2's 30 pulls and 12 sandbox failures, all from containerd
    const b2 = facets.get(boots[1])!;
    expect(b2.get("component")?.get("containerd")).toMatchObject({ n: 42, lane: "runtime" });
    expect(Object.fromEntries([...(b2.get("kind") ?? [])].map(([k, c]) => [k, c.n]))).toEqual({ log: 42 });
  }, 120_000);

  it("a file no format reads still gets the templates of its lines, and a file read in part those of its unread lines", async () => {
    const db = await getDb();
    const widgets = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? `cache miss for key user/${i}` : `widget ${i} spun up in ${i % 9}ms on rack-${i % 3}`));
    const { incidentId, bundleId } = await enqueueBundle(db, {
      title: "unread",
      files: [
        { name: "widgets.txt", data: Buffer.from(`${widgets.join("\n")}\n`) },
        { name: "journal.log", data: Buffer.from(`${twoBootJournal()}odd line 1 of a tool\nodd line 2 of a tool\n`) },
      ],
      options: { year: 2026 },
    });
    expect((await processBundle(db, bundleId)).error).toBeNull();
    const inc = await getIncident({ incidentId });
    const files = Object.fromEntries(inc!.bundles[0].files.map((f) => [f.path, f]));
    expect(files["widgets.txt"].format).toBe("unknown");
    expect(files["widgets.txt"].unreadPatterns).toEqual([
      { template: "widget <*> spun up in <*> on <*>", count: 30, firstLine: 1 },
      { template: "cache miss for key <*>", count: 10, firstLine: 4 },
    ]);
    // the journal (66 lines) read but for its last two: the first continues the record before it, the second is unread
    expect([files["journal.log"].skippedByReason, files["journal.log"].continuation]).toEqual([{ "unknown-format": 1 }, 1]);
    expect(files["journal.log"].unreadPatterns).toEqual([{ template: "odd line <*> of a tool", count: 1, firstLine: 68 }]);
  }, 120_000);
}
