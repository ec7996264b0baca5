/**
 * tests/ingest-faults-nodes.suite.ts on PGlite: the faults that exist in an embedded database of
 * one connection in this process (a constraint error, a full disk; no backend to terminate, no
 * statement to cancel from elsewhere, no network) at the first, a middle and the last node, on
 * both schedules (each node stored as parsed, every node parsed first).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb, type DbHandles } from "../lib/db/connection";
import { expectNoRows, type FaultHarness, FAULT_SQL, type FaultKind, faultCase, type Position, runBundle, type Table } from "./ingest-faults-nodes.suite";

let db: DbHandles;
let dir: string;
let events = 0;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => void unhandled.push(e);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  dir = mkdtempSync(path.join(tmpdir(), "bootline-faults-pglite-"));
  process.env.BOOTLINE_DATA_DIR = dir;
  db = await openDb(null);
  await db.sql.exec(FAULT_SQL);
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  if (db) await closeDb(db);
  rmSync(dir, { recursive: true, force: true });
});

const harness: FaultHarness = {
  app: () => db,
  async withFault(table, node, kind, ingest) {
    await db.sql.query(`DELETE FROM fault_plan`);
    await db.sql.query(`INSERT INTO fault_plan VALUES ($1, $2, $3)`, [table, node, kind]);
    try {
      return await ingest();
    } finally {
      await db.sql.query(`DELETE FROM fault_plan`);
    }
  },
  async expectDatabaseClean(bundleId) {
    const [locks] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`);
    expect(locks.n).toBe(0);
    await expectNoRows(db, bundleId);
  },
};

const WAYS = ["as-parsed", "after-parse"] as const;
const POS: Position[] = ["first", "middle", "last"];
const CASES: Array<[Table, FaultKind]> = [
  ["Event", "constraint"],
  ["Event", "disk-full"],
  ["SourceBlock", "disk-full"],
  ["Boot", "constraint"],
];

describe("faults of the store at any node, on PGlite", () => {
  it("the bundle lands whole without a fault, both schedules, with the same events", async () => {
    const asParsed = await runBundle(db, "as-parsed");
    const afterParse = await runBundle(db, "after-parse");
    expect([asParsed.status, afterParse.status]).toEqual(["ready", "ready"]);
    expect([asParsed.counts?.ingestPath, afterParse.counts?.ingestPath]).toEqual(["as-parsed", "after-parse"]);
    events = asParsed.counts!.events!;
    expect(events).toBeGreaterThan(1000);
    expect(afterParse.counts?.events).toBe(events);
  });

  for (const way of WAYS)
    for (const [table, kind] of CASES)
      for (const position of POS)
        it(`${way}: ${kind} in the ${table} rows of the ${position} node`, { timeout: 120_000 }, async () => {
          await faultCase(harness, way, table, position, kind, events);
        });

  it("no unhandled rejection was raised by any of the faults", () => {
    expect(unhandled).toEqual([]);
  });
});
