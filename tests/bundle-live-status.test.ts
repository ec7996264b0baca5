/**
 * The progress bar's source while a bundle runs (lib/ingest/live-status.ts): `processBundle`
 * keeps the bundle's live status in memory from start to outcome, `GET /api/bundles/:id`
 * answers from it without reading the row (on PGlite that read waited for the store
 * transaction), and once the bundle is stored the route reads the row again.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../app/api/bundles/[bundleId]/route";
import { getDb } from "../lib/db/connection";
import { useTestDatabaseUrl } from "../lib/db/test-db";
import { claimBundle } from "../lib/ingest/bundle-status";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { endLiveStatus, liveStatus, onLiveStatus, setLiveStatus, type LiveStatus } from "../lib/ingest/live-status";
import { bundleTiming } from "../components/incidents/bundle-timing";
import { processBundle, type IngestWay } from "../lib/ingest/pipeline";
import { forgetEverywhere } from "../lib/ingest/ingest-pool";
import { unpackUploads } from "../lib/ingest/unpack-uploads";
import { NodeParse } from "../lib/ingest/node-parse";
import { describeBundle } from "../lib/bundle/collectors";
import { bundleTarGz, generateScenario } from "../lib/sample/index";

let t: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
let dataDir: string;
beforeAll(async () => {
  t = await useTestDatabaseUrl();
  dataDir = mkdtempSync(path.join(process.cwd(), ".tmp-live-"));
  process.env.BOOTLINE_DATA_DIR = dataDir;
});
afterAll(async () => {
  await t?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (bundleId: string) => (await GET(new Request(`http://127.0.0.1/api/bundles/${bundleId}`), { params: Promise.resolve({ bundleId }) })).json();

describe("bundle live status", () => {
  it("the route answers from a live status without reading the row", async () => {
    // no Bundle row has this id: an answer can only come from memory
    const s: LiveStatus = {
      id: "no-such-row",
      incidentId: "inc",
      fileName: "x.tgz",
      status: "parsing",
      phase: "ingest",
      progress: 0.25,
      nodes: [{ name: "n1", state: "storing" }],
    };
    setLiveStatus(s);
    expect(await get(s.id)).toEqual({ ...s, error: null, counts: null });
    endLiveStatus(s.id);
    expect((await get(s.id)).error).toEqual({ code: "not_found", message: "no bundle no-such-row" });
  });

  it("processBundle keeps it from start to outcome, then the row answers", async () => {
    const db = await getDb();
    const s = generateScenario("calico", { pods: 20, nodenameDelayS: 300, retryIntervalS: 15, seed: 5 });
    const { bundleId } = await enqueueBundle(db, { title: "live", files: [{ name: s.truth.archiveName, data: bundleTarGz(s) }] });
    await claimBundle(db.sql, bundleId);
    const seen: LiveStatus[] = [];
    let running = true;
    const run = processBundle(db, bundleId).finally(() => (running = false));
    while (running) {
      const l = liveStatus(bundleId);
      if (l) seen.push({ ...l });
      await new Promise((r) => setTimeout(r, 2));
    }
    expect((await run).status).toBe("ready");
    expect(seen.length).toBeGreaterThan(0);
    for (const l of seen) {
      expect(l).toMatchObject({ id: bundleId, status: "parsing", fileName: s.truth.archiveName });
      expect(["unpack", "ingest", "detect", "finish"]).toContain(l.phase);
      expect(l.progress).toBeGreaterThanOrEqual(0);
      expect(l.progress).toBeLessThanOrEqual(1);
    }
    expect(liveStatus(bundleId)).toBeUndefined();
    const after = await get(bundleId);
    expect(after).toMatchObject({ id: bundleId, status: "ready", phase: "done", progress: 1 });
    expect(after.counts.events).toBeGreaterThan(0);
  });

  /** the node the calico sample's logs name */
  const NODE = "ip-10-20-30-40.ec2.internal";

  /** Every live status one real ingest sets, in order, as `[phase, progress]`; `states`: each node's states, in order, without repeats. */
  async function progressOf(way: IngestWay, states = new Map<string, string[]>()): Promise<Array<[string, number]>> {
    const db = await getDb();
    const s = generateScenario("calico", { pods: 20, nodenameDelayS: 300, retryIntervalS: 15, seed: 6 });
    const { bundleId } = await enqueueBundle(db, { title: "steps", files: [{ name: s.truth.archiveName, data: bundleTarGz(s) }] });
    await claimBundle(db.sql, bundleId);
    const seen: Array<[string, number]> = [];
    const stop = onLiveStatus((l) => {
      if (l.id !== bundleId) return;
      seen.push([l.phase, l.progress]);
      for (const n of l.nodes ?? []) {
        const list = states.get(n.name) ?? [];
        if (list.at(-1) !== n.state) states.set(n.name, [...list, n.state]);
      }
    });
    try {
      expect((await processBundle(db, bundleId, { way })).status).toBe("ready");
    } finally {
      stop();
    }
    return seen;
  }

  /** The phases in the order they came, each with its reported fractions. */
  function byPhase(seen: Array<[string, number]>): Array<[string, number[]]> {
    const out: Array<[string, number[]]> = [];
    for (const [phase, p] of seen) {
      if (out.at(-1)?.[0] === phase) out.at(-1)![1].push(p);
      else out.push([phase, [p]]);
    }
    return out;
  }

  const expectPhases = (seen: Array<[string, number]>, names: string[]) => {
    const phases = byPhase(seen);
    // each phase comes once, in order, starts at 0 or more, never goes back, and ends at 1
    expect(phases.map(([name]) => name)).toEqual(names);
    for (const [, fractions] of phases) {
      for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]);
      expect(fractions.at(-1)).toBe(1);
    }
    return phases;
  };

  it("stored once every node is parsed (as on PGlite), the ingest moves through unpack, ingest, detect and finish, each up to 1", async () => {
    const states = new Map<string, string[]>();
    const phases = expectPhases(await progressOf("after-parse", states), ["unpack", "ingest", "detect", "finish"]);
    // the node shows as it is parsed, then through its store step
    expect([...states]).toEqual([[NODE, ["parsing", "parsed", "detecting", "storing", "stored"]]]);
    const ingest = phases[1][1];
    expect(ingest[0]).toBe(0);
    // parsed (the first half), then the one node's store step moves before its end: boots, rows, then its COPY
    expect(ingest.filter((f) => f > 0.5 && f < 1).length).toBeGreaterThanOrEqual(2);
  });

  it("each node stored as parsed, the ingest moves through unpack, ingest, detect and finish, each up to 1", async () => {
    const states = new Map<string, string[]>();
    const phases = expectPhases(await progressOf("as-parsed", states), ["unpack", "ingest", "detect", "finish"]);
    expect([...states]).toEqual([[NODE, ["parsing", "parsed", "detecting", "storing", "stored"]]]);
    expect(phases[1][1][0]).toBe(0);
    // parsed (the first half), then the one node's store step moves before its end
    expect(phases[1][1].filter((f) => f > 0 && f < 0.5).length).toBeGreaterThanOrEqual(1);
    expect(phases[1][1].filter((f) => f > 0.5 && f < 1).length).toBeGreaterThanOrEqual(2);
  });

  it("unpack and parse move by the bytes of one large file as they are read, before it is done", async () => {
    // one upload of one kubelet log of 6 MiB (about 70,000 lines), reported at every MiB (not the default step)
    const dir = mkdtempSync(path.join(dataDir, "one-file-"));
    const upload = path.join(dir, "kubelet.log");
    const line = 'I0101 00:00:00.000000    1234 kubelet.go:1] "some message that fills the line" pod="ns/p"\n';
    const lines = Math.ceil((6 << 20) / line.length);
    writeFileSync(upload, line.repeat(lines));
    const step = { stepBytes: 1 << 20 };
    const seen: Array<[string, number]> = [];
    const unpacked = await unpackUploads([upload], ["kubelet.log"], path.join(dir, "out"), (phase, f) => seen.push([phase, f]), step);
    expect(unpacked.map((f) => f.path)).toEqual(["kubelet.log"]);
    const parse = await NodeParse.plan(
      unpacked,
      describeBundle(unpacked),
      { node: "n1", uploadMs: Date.UTC(2026, 0, 2) },
      path.join(dir, "spill"),
      "one-file",
      (phase, f) => seen.push([phase, f]),
      step,
    );
    parse.start(["n1"], true);
    await parse.parsed;
    await forgetEverywhere("one-file");
    expect(parse.results[0].file.counts.records).toBe(lines);
    const phases = byPhase(seen);
    expect(phases.map(([name]) => name)).toEqual(["unpack", "ingest"]);
    // the parse is the first half of phase ingest (the store the second)
    phases.forEach(([, fractions], i) => {
      const end = i === 0 ? 1 : 0.5;
      for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]);
      // the one file moves its phase before it is done: by the MiB read, or by the lines parsed
      expect(new Set(fractions.filter((f) => f > 0 && f < end)).size).toBeGreaterThanOrEqual(3);
      expect(fractions.at(-1)).toBe(end);
    });
  });

  it("a finished bundle says how long after its upload it was ready, and how long its run took", () => {
    const createdAt = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(bundleTiming({ status: "ready", createdAt, startedAt: createdAt + 44_000, finishedAt: createdAt + 62_400 })).toBe(
      "ready 62 s after upload; processing took 18 s",
    );
    expect(bundleTiming({ status: "failed", createdAt, startedAt: createdAt + 100, finishedAt: createdAt + 2_350 })).toBe(
      "failed 2.4 s after upload; processing took 2.3 s",
    );
    expect(bundleTiming({ status: "ready", createdAt, startedAt: null, finishedAt: createdAt + 500 })).toBe("ready 0.5 s after upload");
    expect(bundleTiming({ status: "parsing", createdAt, startedAt: createdAt, finishedAt: null })).toBe("");
  });
});
