/**
 * Shared checks of the timeline's read queries (density, events pages, counts,
 * milestones, boot view, event detail, incident), run on PostgreSQL and on PGlite by
 * timeline-reads.pg.test.ts and timeline-reads.pglite.test.ts: one query text, two backends.
 */
import { expect, it } from "vitest";
import { getDb } from "@/lib/db/connection";
import { copyText } from "@/lib/db/sql";
import { getIncident } from "@/lib/incidents/get-incident";
import { listIncidents } from "@/lib/incidents/list-incidents";
import { countEvents } from "./count-events";
import { getBootView } from "./get-boot-view";
import { getEvent } from "./get-event";
import { getEventFacets } from "./get-event-facets";
import { getEventsPage } from "./get-events-page";
import { getFindingEvidence } from "./get-finding-evidence";
import { getLaneDensity } from "./get-lane-density";
import { LANES } from "../view/lanes";
import { encodeSourceBlock } from "../db/source-block-codec";

const T0 = Date.parse("2026-03-14T02:10:00.250Z");

/**
 * Seeds one incident: node `node-a` with 2 boots; boot 2 has 5 lanes of events and a window.
 * Also used by lib/export/review-reads.suite.ts.
 */
export async function seed() {
  const { prisma, sql } = await getDb();
  const incidentId = `inc${Math.random().toString(36).slice(2, 10)}`;
  await prisma.incident.create({ data: { id: incidentId, title: "reads test" } });
  await prisma.bundle.create({ data: { id: `${incidentId}b`, incidentId, fileName: "x.tar.gz", sha256: "0", byteSize: 10n, status: "ready" } });
  const file = await prisma.sourceFile.create({
    data: {
      bundleId: `${incidentId}b`,
      incidentId,
      ord: 0,
      path: "node-a/journal.log",
      status: "read",
      kind: "journal",
      format: "journal-short",
      nodeName: "node-a",
      clockOffsetMs: 1500,
    },
  });
  const node = await prisma.node.create({ data: { incidentId, name: "node-a" } });
  const boot1 = await prisma.boot.create({
    data: { incidentId, nodeId: node.id, bootKey: "inferred-1", start: new Date(T0 - 100_000), end: new Date(T0 - 50_000), detectedBy: "first-event" },
  });
  const boot2 = await prisma.boot.create({
    data: { incidentId, nodeId: node.id, bootKey: "a".repeat(32), start: new Date(T0), end: new Date(T0 + 60_000), detectedBy: "separator" },
  });
  const rows: string[] = [];
  // the per-second rollup, as the ingest writes it (EventDensity)
  const density = new Map<string, [number, number]>();
  let line = 0;
  const add = (bootId: number, ms: number, lane: string, severity: number, kind: string, msg: string, pod: string | null = null) => {
    line++;
    rows.push(
      [
        incidentId,
        `${incidentId}b`,
        file.id,
        node.id,
        bootId,
        line,
        new Date(ms).toISOString(),
        "ms",
        lane === "runtime" ? "containerd" : lane,
        lane,
        severity,
        kind,
        pod,
        null,
        null,
        msg,
      ]
        .map(copyText)
        .join("\t") + "\n",
    );
    const key = `${bootId}\t${Math.floor(ms / 1000)}\t${lane}`;
    const d = density.get(key) ?? [0, 0];
    d[0]++;
    if (severity >= 3) d[1]++;
    density.set(key, d);
  };
  add(boot1.id, T0 - 60_000, "kubelet", 1, "log", "old boot");
  add(boot2.id, T0, "kernel", 1, "kernel.start", "Linux version");
  add(boot2.id, T0 - 5, "runtime", 1, "sandbox.created", "before T+0");
  add(boot2.id, T0 + 6_400, "runtime", 1, "runtime.started", "containerd started");
  add(boot2.id, T0 + 7_100, "kubelet", 1, "kubelet.started", "Started kubelet");
  for (let i = 0; i < 100; i++)
    add(boot2.id, T0 + 9_000 + i * 100, i % 2 ? "kubelet" : "cni-plugin", 3, "sandbox.create.failed", `failed 100%_x ${i}`, `kube-system/pod-${i % 5}`);
  add(boot2.id, T0 + 20_000, "runtime", 1, "sandbox.created", "first success");
  // same ts: order by file line
  add(boot2.id, T0 + 30_000, "events", 2, "k8s.event", "tie a");
  add(boot2.id, T0 + 30_000, "events", 2, "k8s.event", "tie b");
  await sql.copyFrom(
    "Event",
    [
      "incidentId",
      "bundleId",
      "fileId",
      "nodeId",
      "bootId",
      "line",
      "ts",
      "precision",
      "component",
      "lane",
      "severity",
      "kind",
      "pod",
      "sandboxId",
      "errorClass",
      "message",
    ],
    rows,
  );
  await sql.copyFrom(
    "EventDensity",
    ["bootId", "sec", "lane", "bundleId", "n", "errors"],
    [...density].map(([k, [n, e]]) => `${k}\t${incidentId}b\t${n}\t${e}\n`),
  );
  // the source text, as the ingest stores it: compressed blocks of whole lines (here: line n = "raw line n")
  const text = Array.from({ length: line }, (_, i) => `raw line ${i + 1}`);
  for (let seq = 0; seq * 50 < text.length; seq++) {
    const part = text.slice(seq * 50, seq * 50 + 50);
    await sql.query(`INSERT INTO "SourceBlock" ("fileId", seq, "firstLine", "lineCount", data) VALUES ($1, $2, $3, $4, decode($5, 'base64'))`, [
      file.id,
      seq,
      seq * 50 + 1,
      part.length,
      encodeSourceBlock(part.join("\n")).toString("base64"),
    ]);
  }
  // evidence: the first three failures (lines 6, 7, 8), cited out of order
  const evidence = (await sql.query<{ id: string }>(`SELECT id::text AS id FROM "Event" WHERE "fileId" = $1 AND line IN (8, 6, 7)`, [file.id])).map((r) =>
    BigInt(r.id),
  );
  evidence.sort((a, b) => (a < b ? 1 : -1));
  await prisma.finding.create({
    data: {
      incidentId,
      nodeId: node.id,
      bootId: boot2.id,
      detector: "sandbox-failure-window",
      severity: "high",
      start: new Date(T0 + 9000),
      end: new Date(T0 + 18_900),
      title: "w",
      explanation: "e",
      metrics: { attempts: 100 },
      evidence,
    },
  });
  await prisma.finding.create({
    data: {
      incidentId,
      nodeId: node.id,
      bootId: boot2.id,
      detector: "retry-storm",
      severity: "critical",
      start: new Date(T0 + 9000),
      end: null,
      title: "s",
      explanation: "e",
      metrics: {},
    },
  });
  return { incidentId, bootId: boot2.id, bootKey: boot2.bootKey, boot1Id: boot1.id, fileId: file.id };
}

export function timelineReadsSuite() {
  it("reads a node boot: view, milestones, density, pages, counts, event, incident", async () => {
    const { incidentId, bootId, bootKey } = await seed();

    const view = await getBootView({ incidentId, node: "node-a", bootKey });
    expect(view.boot).toMatchObject({ id: bootId, index: 2, count: 2, startMs: T0 });
    expect(view.extent).toEqual({ firstMs: T0 - 5, lastMs: T0 + 30_000 });
    expect(view.range).toEqual({ fromMs: T0 - 5, toMs: T0 + 60_001 });
    expect(view.findings.map((f) => f.detector)).toEqual(["retry-storm", "sandbox-failure-window"]);
    expect(view.milestones.map((m) => [m.kind, m.ts - T0])).toEqual([
      ["kernel.start", 0],
      ["runtime.started", 6_400],
      ["kubelet.started", 7_100],
      ["sandbox.created", 20_000],
    ]);
    expect(view.clock).toEqual([{ path: "node-a/journal.log", clockOffsetMs: 1500, timeZone: "UTC", zoneSource: "default" }]);
    await expect(getBootView({ incidentId, node: "node-a", bootKey: "nope" })).rejects.toMatchObject({ code: "not_found" });
    await expect(getBootView({ incidentId, node: "nope", bootKey })).rejects.toMatchObject({ code: "not_found" });

    const d = await getLaneDensity({ incidentId, bootId, fromMs: T0, toMs: T0 + 60_000 });
    expect(d.bucketMs).toBe(200);
    expect(d.lanes.map((l) => l.lane)).toEqual([...LANES]);
    const byLane = Object.fromEntries(d.lanes.map((l) => [l.lane, l]));
    expect(byLane.kubelet).toMatchObject({ total: 51, errors: 50 });
    expect(byLane["cni-plugin"]).toMatchObject({ total: 50, errors: 50, max: 1 });
    expect(byLane.events).toMatchObject({ total: 2, errors: 0, max: 2 });
    expect(byLane.runtime.total).toBe(2); // T0-5 is outside [from, to)
    // bucket index of the first failure: (T0 + 9000 - startMs) / 200
    expect(byLane["cni-plugin"].buckets[0][0]).toBe(Math.floor((T0 + 9000 - d.startMs) / 200));
    const onlyKernel = await getLaneDensity({ incidentId, bootId, fromMs: T0, toMs: T0 + 1000, lanes: ["kernel"] });
    expect(onlyKernel.lanes).toEqual([
      { lane: "kernel", total: 1, errors: 0, max: 1, buckets: [[Math.floor((T0 - onlyKernel.startMs) / onlyKernel.bucketMs), 1, 0]] },
    ]);

    const filter = { incidentId, bootId, fromMs: view.range.fromMs, toMs: view.range.toMs, lanes: [...LANES] };
    const all: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const p: Awaited<ReturnType<typeof getEventsPage>> = await getEventsPage({ ...filter, cursor, limit: 7 });
      all.push(...p.events.map((e) => e.message));
      cursor = p.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(all).toHaveLength(107);
    expect(all[0]).toBe("before T+0");
    expect(all.slice(-2)).toEqual(["tie a", "tie b"]);
    // the total: rollup for whole seconds, events counted in the partial seconds at both ends
    expect(await countEvents(filter)).toEqual({ total: 107, matching: 107, capped: false });
    expect(await countEvents({ ...filter, fromMs: T0 + 9_050, toMs: T0 + 10_550 })).toMatchObject({ total: 15 });
    expect(await countEvents({ ...filter, fromMs: T0 + 9_050, toMs: T0 + 9_250 })).toMatchObject({ total: 2 });
    expect(await countEvents({ ...filter, fromMs: T0 - 5, toMs: T0 + 1 })).toMatchObject({ total: 2 });
    // literal % and _ in search
    expect(await countEvents({ ...filter, q: "100%_x 1" })).toEqual({ total: 107, matching: 11, capped: false });
    expect(await countEvents({ ...filter, q: "0%x" })).toEqual({ total: 107, matching: 0, capped: false });
    expect(await countEvents({ ...filter, minSeverity: 2, lanes: ["events", "kubelet"] })).toEqual({ total: 53, matching: 52, capped: false });
    // the matching count stops at the cap
    expect(await countEvents({ ...filter, q: "failed", cap: 10 })).toEqual({ total: 107, matching: 10, capped: true });
    // pod and kind filters; the search also finds pods
    expect(await countEvents({ ...filter, pod: "POD-1" })).toMatchObject({ matching: 20 });
    expect(await countEvents({ ...filter, q: "kube-system/pod-2" })).toMatchObject({ matching: 20 });
    expect(await countEvents({ ...filter, kind: "k8s.event" })).toMatchObject({ matching: 2 });
    expect(await countEvents({ ...filter, kind: "sandbox.created", pod: "pod" })).toMatchObject({ matching: 0 });
    expect((await getEventsPage({ ...filter, kind: "sandbox.created" })).events.map((e) => e.message)).toEqual(["before T+0", "first success"]);
    // a bounded scan (10 rows read per page): same matches in the same order, over more pages
    const bounded: string[] = [];
    let bc: string | null = null;
    let partial = 0;
    let bpages = 0;
    do {
      const pg: Awaited<ReturnType<typeof getEventsPage>> = await getEventsPage({ ...filter, q: "x 9", scanRows: 10, limit: 4, cursor: bc });
      bounded.push(...pg.events.map((e) => e.message));
      if (pg.scannedToMs !== null) partial++;
      bc = pg.nextCursor;
      bpages++;
    } while (bc && bpages < 100);
    expect(bounded).toEqual(["failed 100%_x 9", ...Array.from({ length: 10 }, (_, i) => `failed 100%_x 9${i}`)]);
    expect(partial).toBeGreaterThan(5);
    const firstBounded = await getEventsPage({ ...filter, q: "x 9", scanRows: 10, limit: 4 });
    // rows of the range: T0-5, T0, T0+6.4 s, T0+7.1 s, then failures every 100 ms: the 11th is at T0+9.6 s
    expect(firstBounded).toMatchObject({ events: [], scannedToMs: T0 + 9_600, nextCursor: `${T0 + 9_600}.0.0.0` });
    const podRows = (await getEventsPage({ ...filter, pod: "kube-system/pod-3", limit: 3 })).events;
    expect(podRows.map((e) => [e.message, e.pod])).toEqual([
      ["failed 100%_x 3", "kube-system/pod-3"],
      ["failed 100%_x 8", "kube-system/pod-3"],
      ["failed 100%_x 13", "kube-system/pod-3"],
    ]);

    // choices for the pod and kind filters: signal events of the range
    const facets = await getEventFacets({ incidentId, bootId, fromMs: filter.fromMs, toMs: filter.toMs, lanes: [...LANES] });
    expect(facets.kinds).toEqual([
      { kind: "sandbox.create.failed", n: 100 },
      { kind: "k8s.event", n: 2 },
      { kind: "sandbox.created", n: 2 },
      { kind: "kernel.start", n: 1 },
      { kind: "kubelet.started", n: 1 },
      { kind: "runtime.started", n: 1 },
    ]);
    expect(facets.pods).toEqual([0, 1, 2, 3, 4].map((i) => ({ pod: `kube-system/pod-${i}`, n: 20 })));
    const kubeletFacets = await getEventFacets({ incidentId, bootId, fromMs: T0 + 9_000, toMs: T0 + 9_250, lanes: ["kubelet"] });
    expect(kubeletFacets).toEqual({ kinds: [{ kind: "sandbox.create.failed", n: 1 }], pods: [{ pod: "kube-system/pod-1", n: 1 }] });
    const p1 = await getEventsPage({ ...filter, minSeverity: 3, q: "FAILED", limit: 3 });
    expect(p1.events.map((e) => e.message)).toEqual(["failed 100%_x 0", "failed 100%_x 1", "failed 100%_x 2"]);
    expect(p1.events[0]).toMatchObject({ ts: T0 + 9000, lane: "cni-plugin", severity: 3, kind: "sandbox.create.failed" });

    const ev = await getEvent({ incidentId, eventId: p1.events[0].id });
    // events were numbered in insertion order: the first failure is line 6
    expect(ev).toMatchObject({ line: 6, span: 1, raw: "raw line 6", file: { path: "node-a/journal.log", clockOffsetMs: 1500 }, node: "node-a", bootKey });
    expect(ev.context.map((l) => [l.n, l.own])).toEqual([
      [3, false],
      [4, false],
      [5, false],
      [6, true],
      [7, false],
      [8, false],
      [9, false],
    ]);
    const first = await getEvent({ incidentId, eventId: (await getEventsPage({ ...filter, limit: 1 })).events[0].id });
    expect(first.context[0].n).toBe(1);
    await expect(getEvent({ incidentId: "other", eventId: p1.events[0].id })).rejects.toMatchObject({ code: "not_found" });

    // a finding's evidence: the cited events' ids, ascending, with its boot and window
    const win = view.findings.find((f) => f.detector === "sandbox-failure-window")!;
    const evidence = await getFindingEvidence({ incidentId, findingId: win.id });
    expect(evidence).toEqual({
      findingId: win.id,
      bootId,
      detector: "sandbox-failure-window",
      startMs: T0 + 9000,
      endMs: T0 + 18_900,
      eventIds: p1.events.map((e) => e.id),
    });
    await expect(getFindingEvidence({ incidentId: "other", findingId: win.id })).rejects.toMatchObject({ code: "not_found" });

    const inc = await getIncident({ incidentId });
    expect(inc.nodes[0].boots.map((b) => [b.bootKey, b.index, b.findings])).toEqual([
      ["inferred-1", 1, 0],
      [bootKey, 2, 2],
    ]);
    expect(inc.findings.map((f) => f.severity)).toEqual(["critical", "high"]);
    expect(inc.bundles[0].files[0]).toMatchObject({ path: "node-a/journal.log", clockOffsetMs: 1500 });
    expect((await listIncidents()).find((i) => i.id === incidentId)).toMatchObject({ nodes: 1, bundles: 1, findings: 2, bundleStatus: { ready: 1 } });
  });
}
