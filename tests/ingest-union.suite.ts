/**
 * Shared checks, run on PostgreSQL (ingest-union.pg.test.ts) and on PGlite
 * (ingest-union.pglite.test.ts): any of the real-format cases (tests/cases/*.log, every one the
 * folder holds, with the upload values of tests/cases/cases.ts `CASE_UPLOADS`) uploaded together
 * as ONE bundle store what each stores uploaded alone into an incident of its own, with the same
 * upload values (those of one case of the bundle, or none) and the same upload time.
 *
 * Two ways of uploading a case (`Bundle.counts.ingestPath`):
 * - `plain`: the file itself, as a reviewer uploads it; the layout places nothing, so every file
 *   is parsed before the nodes (lib/ingest/ingest-nodes.ts) and its records go where they say;
 * - `archive`: the file inside an EKS log collector archive of its own (`eks_<instance id>_…`),
 *   which places it on a node of that instance's name.
 *
 * What "the same" means, per file of the bundle (docs/nodes-boots-attempts.md, "Node"):
 * - its listing (status, kind, format, line and record counts) is the one it had alone;
 * - its events are the ones it had alone, line by line: kind, message and time (less the clock
 *   offset the bundle stored for the file, which only a Kubernetes events file may get);
 * - an event whose node a record, the file's hosts or the layout named alone keeps that node; an
 *   event alone on a node named after its upload (nothing placed it) goes where the bundle-wide
 *   rule puts it: the one node its own file's records name; else the bundle's only named node
 *   when it names exactly one; else no node for a
 *   Kubernetes events file's records when it names several; else one node named after the
 *   upload of the first file (in upload order) whose records go there;
 * - where the bundle's node holds this file's events only, its boots (key, T+0, end, how found,
 *   approximate), the findings on them (detector, start, end, metrics) and each event's boot
 *   and error class are the ones alone. Where a node holds the events of several files (two
 *   logs of one host; records nothing places joining another file's node), its boots, findings
 *   and inherited error classes are that merged node's own and are not compared; events on no
 *   node have no boot.
 * Every bundle must be stored (`ready`) and its event ids must be one block without gaps.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { describeBundle } from "../lib/bundle/collectors";
import { buildTarGz } from "../lib/bundle/tar-build";
import { unpackUpload } from "../lib/bundle/unpack";
import type { DbHandles } from "../lib/db/connection";
import { analyseFile } from "../lib/ingest/analyse-bundle";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { uploadNodeName } from "../lib/ingest/settle";
import { CASE_UPLOADS, caseBytes, caseNames, type CaseUpload } from "./cases/cases";

/** The upload time of every bundle of these checks (`Bundle.createdAt`): ages of files with no collection time count back from it. */
const UPLOAD_AT = new Date("2026-12-01T12:00:00.000Z");

export type UploadWay = "plain" | "archive";

interface FileRow {
  ord: number;
  path: string;
  status: string;
  kind: string;
  format: string | null;
  nodeName: string | null;
  lines: number;
  parsed: number;
  records: number;
  skipped: number;
  clockOffsetMs: number;
}
interface EventRow {
  path: string;
  line: number;
  ts: number | null;
  kind: string;
  message: string;
  errorClass: string | null;
  node: string | null;
  nameSource: string | null;
  bootKey: string | null;
}
interface BootRow {
  node: string;
  bootKey: string;
  start: number;
  end: number | null;
  detectedBy: string;
  startApprox: boolean;
}
interface FindingRow {
  node: string;
  bootKey: string;
  detector: string;
  start: number;
  end: number | null;
  metrics: unknown;
}
/** What one stored bundle holds, read back. */
interface Stored {
  /** the file's own node, before the bundle-wide steps: its path's, else its records' host column (null: none) */
  ownNode: string | null;
  path: string;
  afterParseReason: string | null;
  files: FileRow[];
  events: EventRow[];
  boots: BootRow[];
  findings: FindingRow[];
}

const ms = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());

/** The upload of one case: the file, or an EKS collector archive holding it (instance id from `k`). */
function upload(name: string, way: UploadWay, k: number): { name: string; data: Buffer } {
  if (way === "plain") return { name, data: caseBytes(name) };
  const instance = `i-${(0x0c0ffee000000000n + BigInt(k)).toString(16).padStart(17, "0")}`;
  return { name: `eks_${instance}_2026-12-01_1200-UTC.tar.gz`, data: buildTarGz([{ path: `var_log/${name}`, content: caseBytes(name).toString("utf8") }]) };
}

/** The case's path in the bundle (`SourceFile.path`). */
const pathOf = (name: string, way: UploadWay) => (way === "plain" ? name : `var_log/${name}`);

async function ingest(db: DbHandles, names: string[], way: UploadWay, values: CaseUpload): Promise<Stored> {
  const index = caseNames();
  const files = names.map((n) => upload(n, way, index.indexOf(n)));
  const { incidentId, bundleId } = await enqueueBundle(db, { title: names.join(" "), files, options: { ...values } });
  await db.sql.query(`UPDATE "Bundle" SET "createdAt" = $2 WHERE id = $1`, [bundleId, UPLOAD_AT.toISOString()]);
  const r = await processBundle(db, bundleId);
  expect(r.error, `bundle of ${names.join(", ")} (${way}, ${JSON.stringify(values)})`).toBeNull();
  const [b] = await db.sql.query<{ counts: { ingestPath: string; afterParseReason?: string } }>(`SELECT counts FROM "Bundle" WHERE id = $1`, [bundleId]);
  const files_ = await db.sql.query<FileRow>(
    `SELECT ord, path, status, kind, format, "nodeName", lines, parsed, records, skipped, "clockOffsetMs" FROM "SourceFile" WHERE "bundleId" = $1 ORDER BY ord`,
    [bundleId],
  );
  const events = await db.sql.query<Omit<EventRow, "ts"> & { ts: Date | null; id: string }>(
    `SELECT e.id::text AS id, f.path, e.line, e.ts, e.kind, e.message, e."errorClass", n.name AS node, n."nameSource", b."bootKey"
     FROM "Event" e JOIN "SourceFile" f ON f.id = e."fileId" LEFT JOIN "Node" n ON n.id = e."nodeId" LEFT JOIN "Boot" b ON b.id = e."bootId"
     WHERE e."bundleId" = $1 ORDER BY e.id`,
    [bundleId],
  );
  if (events.length) {
    const ids = events.map((e) => Number(e.id));
    expect(ids[ids.length - 1] - ids[0] + 1, "event ids are one block").toBe(ids.length);
  }
  const boots = await db.sql.query<Omit<BootRow, "start" | "end"> & { start: Date; end: Date | null }>(
    `SELECT n.name AS node, b."bootKey", b.start, b."end", b."detectedBy", b."startApprox" FROM "Boot" b JOIN "Node" n ON n.id = b."nodeId" WHERE b."incidentId" = $1`,
    [incidentId],
  );
  const findings = await db.sql.query<Omit<FindingRow, "start" | "end"> & { start: Date; end: Date | null }>(
    `SELECT n.name AS node, b."bootKey", f.detector, f.start, f."end", f.metrics
     FROM "Finding" f JOIN "Boot" b ON b.id = f."bootId" JOIN "Node" n ON n.id = f."nodeId" WHERE f."incidentId" = $1`,
    [incidentId],
  );
  let ownNode: string | null = null;
  if (names.length === 1) {
    const unpacked = await unpackUpload(files[0].name, files[0].data);
    const layout = describeBundle(unpacked);
    ownNode = analyseFile(unpacked[0], { ord: 0, layout: layout.files[0], opts: { uploadMs: UPLOAD_AT.getTime() }, collectedMs: null }).file.node;
  }
  return {
    ownNode,
    path: b.counts.ingestPath,
    afterParseReason: b.counts.afterParseReason ?? null,
    files: files_.map((f) => ({ ...f, clockOffsetMs: Number(f.clockOffsetMs) })),
    events: events.map(({ id: _, ...e }) => ({ ...e, ts: ms(e.ts) })),
    boots: boots.map((x) => ({ ...x, start: ms(x.start)!, end: ms(x.end) })),
    findings: findings.map((x) => ({ ...x, start: ms(x.start)!, end: ms(x.end) })),
  };
}

const byStart = <T extends { start: number }>(a: T[]) => [...a].sort((x, y) => x.start - y.start || JSON.stringify(x).localeCompare(JSON.stringify(y)));

/**
 * Checks that `together` (the bundle of `names`, uploaded `way`) holds what each case held in
 * `alone` (its own bundle, same upload values), by the rule of the module comment.
 */
function expectUnion(names: string[], way: UploadWay, together: Stored, alone: Map<string, Stored>): void {
  const what = `bundle of ${names.join(", ")} (${way})`;
  // the nodes the bundle's logs name (alone: nodes not named after the upload)
  const named = new Set(
    names.flatMap((n) =>
      alone
        .get(n)!
        .events.filter((e) => e.nameSource === "logs")
        .map((e) => e.node!),
    ),
  );
  // the one node a file's own records name, if one
  const ownNamed = (n: string): string | null => {
    const nodes = new Set(
      alone
        .get(n)!
        .events.filter((e) => e.nameSource === "logs")
        .map((e) => e.node!),
    );
    return nodes.size === 1 ? [...nodes][0] : null;
  };
  const clusterEvents = (n: string) => named.size > 1 && alone.get(n)!.files[0].kind === "k8s-events";
  // files of no node of their own, with records: the bundle places them (and their records that name no node)
  const placed = (n: string) => {
    const a = alone.get(n)!;
    return a.ownNode === null && a.files[0].status === "read" && a.files[0].records > 0;
  };
  let fallback: string | null = null;
  // where the records of file `n` that nothing places go in the bundle (null: no node)
  const unplacedNode = (n: string): string | null => {
    const own = ownNamed(n);
    if (own) return own;
    if (named.size === 1) return [...named][0];
    if (clusterEvents(n)) return null;
    fallback ??= uploadNodeName(upload(names.find((m) => placed(m) && !ownNamed(m) && !clusterEvents(m))!, way, 0).name);
    return fallback;
  };
  // the files whose events each bundle node holds
  const filesOn = new Map<string | null, Set<string>>();
  for (const e of together.events) filesOn.set(e.node, (filesOn.get(e.node) ?? new Set()).add(e.path));

  expect(together.files.map((f) => f.path)).toEqual(names.map((n) => pathOf(n, way)));
  for (const [ord, n] of names.entries()) {
    const a = alone.get(n)!;
    const p = pathOf(n, way);
    const file = together.files[ord];
    const { ord: _o, nodeName: aloneNode, clockOffsetMs: _c, ...aloneListing } = a.files[0];
    const { ord: _o2, nodeName, clockOffsetMs, ...listing } = file;
    expect(listing, `${what}: listing of ${p}`).toEqual(aloneListing);
    if (file.kind !== "k8s-events") expect(clockOffsetMs, `${what}: clock offset of ${p}`).toBe(0);
    const nodeOf = (e: EventRow) => (e.nameSource === "upload" ? unplacedNode(n) : e.node);
    expect(nodeName, `${what}: node of ${p}`).toBe(placed(n) ? unplacedNode(n) : aloneNode);

    const mine = together.events.filter((e) => e.path === p);
    const key = (e: EventRow) => `${e.line}\t${e.ts === null ? "-" : e.ts}\t${e.kind}\t${e.message}`;
    const shift = (e: EventRow): EventRow => ({ ...e, ts: e.ts === null ? null : e.ts - clockOffsetMs });
    expect(mine.map(shift).map(key).sort(), `${what}: events of ${p}`).toEqual(a.events.map(key).sort());
    const want = new Map(a.events.map((e) => [key(e), nodeOf(e)]));
    for (const e of mine) expect(e.node, `${what}: node of ${p}:${e.line}`).toBe(want.get(key(shift(e))));

    // nodes holding this file's events only: boots, findings, each event's boot and class as alone
    const nodes = new Set(mine.map((e) => e.node));
    for (const node of nodes) {
      if (node === null) {
        expect(
          mine.filter((e) => e.node === null).every((e) => e.bootKey === null),
          `${what}: events of ${p} on no node have no boot`,
        ).toBe(true);
        continue;
      }
      if (filesOn.get(node)!.size > 1) continue;
      const aloneNodes = new Set(a.events.filter((e) => nodeOf(e) === node).map((e) => e.node!));
      expect(aloneNodes.size, `${what}: ${p}'s node ${node} was one node alone`).toBe(1);
      const [was] = aloneNodes;
      const strip = <T extends { node: string }>(x: T) => ({ ...x, node: "" });
      expect(byStart(together.boots.filter((b) => b.node === node).map(strip)), `${what}: boots of ${node}`).toEqual(
        byStart(a.boots.filter((b) => b.node === was).map(strip)),
      );
      expect(byStart(together.findings.filter((f) => f.node === node).map(strip)), `${what}: findings on ${node}`).toEqual(
        byStart(a.findings.filter((f) => f.node === was).map(strip)),
      );
      const detail = (e: EventRow) => `${key(e)}\t${e.bootKey}\t${e.errorClass}`;
      expect(
        mine
          .filter((e) => e.node === node)
          .map(shift)
          .map(detail)
          .sort(),
        `${what}: boots and classes of ${p}'s events`,
      ).toEqual(
        a.events
          .filter((e) => e.node === was)
          .map(detail)
          .sort(),
      );
    }
  }
  // nothing else is stored: every event is one of the bundle's files'
  expect(together.events.length).toBe(names.reduce((s, n) => s + alone.get(n)!.events.length, 0));
}

/** Each case alone, per upload way and upload values, ingested once and kept. */
function aloneCache(db: () => DbHandles) {
  const memo = new Map<string, Stored>();
  return async (names: string[], way: UploadWay, values: CaseUpload): Promise<Map<string, Stored>> => {
    const out = new Map<string, Stored>();
    for (const n of names) {
      const k = `${way}\t${JSON.stringify(values)}\t${n}`;
      let s = memo.get(k);
      if (!s) memo.set(k, (s = await ingest(db(), [n], way, values)));
      out.set(n, s);
    }
    return out;
  };
}

/**
 * The checks (`backend`: the database `db()` is).
 * `numRuns`: random bundles per upload way.
 */
export function ingestUnionSuite(db: () => DbHandles, backend: "postgres" | "pglite", numRuns: number): void {
  const alone = aloneCache(db);
  const ways: UploadWay[] = backend === "postgres" ? ["plain", "archive"] : ["plain"];
  // each node is stored as parsed, on either database, unless a file no path places is a
  // cluster's events with sandbox failures (its clock offset takes every node's failures:
  // lib/ingest/ingest-nodes.ts)
  const expectedPath = (way: UploadWay) => (way === "archive" ? "as-parsed" : "as-parsed, or after-parse for cluster events");
  const expectPath = (way: UploadWay, s: Stored) => {
    if (way === "archive" || s.path === "as-parsed") expect([s.path, s.afterParseReason]).toEqual(["as-parsed", null]);
    else expect([s.path, s.afterParseReason]).toEqual(["after-parse", "a cluster events file's clock offset takes every node's failures"]);
  };

  for (const way of ways) {
    it(`any 2 to 8 cases in one ${way} upload store what each stores alone (${expectedPath(way)})`, async () => {
      const names = caseNames();
      const arb = fc.record({
        picked: fc.shuffledSubarray(names, { minLength: 2, maxLength: 8 }),
        // whose upload values the bundle takes (none when past the end)
        valuesOf: fc.nat({ max: 8 }),
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ picked, valuesOf }) => {
          const values = CASE_UPLOADS[picked[valuesOf] ?? ""] ?? {};
          const together = await ingest(db(), picked, way, values);
          expectPath(way, together);
          expectUnion(picked, way, together, await alone(picked, way, values));
        }),
        {
          numRuns,
          // the bundle of the report that found ids of two nodes overlapping: two journald
          // hosts, a bare klog file, two describe tables (one naming no node) and a kubectl logs
          // --prefix capture
          examples: [
            [
              {
                picked: [
                  "017-journald-localized-month-embedded-containerd.log",
                  "056-kind-journald-containerd-kubelet-cilium-cni-retry.log",
                  "079-klog-calico-nodename-triple.log",
                  "140-describe-bare-kubelet-source-no-node-x279-combined.log",
                  "044-describe-calico-nodename-x158-over-6m.log",
                  "008-kubectl-logs-prefix-glued-lines.log",
                ].filter((n) => names.includes(n)),
                valuesOf: 3,
              },
            ],
          ],
        },
      );
    }, 240_000);
  }

  for (const way of ways) {
    it(`all cases in one ${way} upload are stored and store what each stores alone`, async () => {
      const names = caseNames();
      const together = await ingest(db(), names, way, {});
      expectPath(way, together);
      expect(together.files).toHaveLength(names.length);
      expectUnion(names, way, together, await alone(names, way, {}));
    }, 240_000);
  }
}
