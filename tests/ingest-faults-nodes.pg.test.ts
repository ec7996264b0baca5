/**
 * tests/ingest-faults-nodes.suite.ts on PostgreSQL: every fault (terminated backend, cancelled
 * statement, lost connection, constraint error, full disk) at the first, a middle and the last
 * node, with each node stored as parsed and with every node parsed first. The app reaches the database through a TCP proxy of this test, so a
 * connection can be cut as a network would.
 */
import net from "node:net";
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb, type DbHandles } from "../lib/db/connection";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { expectNoRows, type FaultHarness, FAULT_SQL, type FaultKind, faultCase, type Position, runBundle, type Table } from "./ingest-faults-nodes.suite";

/** A TCP proxy to the database: `cut(port)` closes the pair whose upstream socket has local port `port` (a backend's `client_port`). */
function startProxy(target: { host: string; port: number }): Promise<{ port: number; cut(port: number): boolean; close(): Promise<void> }> {
  const pairs = new Set<{ down: net.Socket; up: net.Socket }>();
  const server = net.createServer((down) => {
    const up = net.connect(target);
    const pair = { down, up };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      down.destroy();
      up.destroy();
    };
    down.on("error", end).on("close", end);
    up.on("error", end).on("close", end);
    down.pipe(up);
    up.pipe(down);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        cut(port) {
          for (const p of pairs) {
            if (p.up.localPort !== port) continue;
            p.down.destroy();
            p.up.destroy();
            return true;
          }
          return false;
        },
        close: () =>
          new Promise<void>((r) => {
            for (const p of pairs) p.down.destroy(), p.up.destroy();
            server.close(() => r());
          }),
      }),
    ),
  );
}

let db: TestDb;
let app: DbHandles;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let dataDir: string;
let events = 0;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => void unhandled.push(e);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  dataDir = path.join(process.cwd(), ".tmp", `faults-nodes-pg-${process.pid}`);
  process.env.BOOTLINE_DATA_DIR = dataDir;
  db = await createTestDb();
  await db.sql.exec(FAULT_SQL);
  const u = new URL(db.url);
  proxy = await startProxy({ host: u.hostname, port: Number(u.port || 5432) });
  u.port = String(proxy.port);
  app = await openDb(u.toString());
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  if (app) await closeDb(app).catch(() => {});
  await proxy?.close();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const OUTSIDE: Partial<Record<FaultKind, (pid: number) => Promise<void>>> = {
  terminate: async (pid) => {
    const [r] = await db.sql.query<{ ok: boolean }>(`SELECT pg_terminate_backend($1) AS ok`, [pid]);
    expect(r.ok).toBe(true);
  },
  cancel: async (pid) => {
    const [r] = await db.sql.query<{ ok: boolean }>(`SELECT pg_cancel_backend($1) AS ok`, [pid]);
    expect(r.ok).toBe(true);
  },
  lost: async (pid) => {
    const [r] = await db.sql.query<{ port: number }>(`SELECT client_port AS port FROM pg_stat_activity WHERE pid = $1`, [pid]);
    expect(proxy.cut(r.port)).toBe(true);
  },
};

const harness: FaultHarness = {
  app: () => app,
  async withFault(table, node, kind, ingest) {
    await db.sql.query(`DELETE FROM fault_plan`);
    const outside = OUTSIDE[kind];
    if (!outside) {
      await db.sql.query(`INSERT INTO fault_plan VALUES ($1, $2, $3)`, [table, node, kind]);
      try {
        return await ingest();
      } finally {
        await db.sql.query(`DELETE FROM fault_plan`);
      }
    }
    const gate = new pg.Client({ connectionString: db.url });
    await gate.connect();
    try {
      await gate.query(`BEGIN`);
      await gate.query(`LOCK TABLE fault_gate IN ACCESS EXCLUSIVE MODE`);
      await db.sql.query(`INSERT INTO fault_plan VALUES ($1, $2, 'gate')`, [table, node]);
      let settled = false;
      const run = ingest().finally(() => (settled = true));
      run.catch(() => {});
      // the backend storing that node's rows, waiting on the gate (read outside the gate's transaction)
      for (;;) {
        const rows = await db.sql.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE relation = 'fault_gate'::regclass AND NOT granted AND pid <> pg_backend_pid()`,
        );
        if (rows.length) {
          await outside(rows[0].pid);
          break;
        }
        if (settled) throw new Error(`the ingest ended without storing a ${table} row of ${node}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await gate.query(`ROLLBACK`);
      return await run;
    } finally {
      await gate.query(`ROLLBACK`).catch(() => {});
      await gate.end();
      await db.sql.query(`DELETE FROM fault_plan`);
    }
  },
  async expectDatabaseClean(bundleId) {
    // the store's backend ends (a cut connection's backend notices the closed socket once it reads on)
    const until = Date.now() + 30_000;
    for (;;) {
      const [open] = await db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND (xact_start IS NOT NULL OR state = 'active')`,
      );
      if (open.n === 0) break;
      if (Date.now() > until) throw new Error(`${open.n} backends still in a transaction`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const [locks] = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
    );
    expect(locks.n).toBe(0);
    await expectNoRows(db, bundleId);
  },
};

const WAYS = ["as-parsed", "after-parse"] as const;
const POS: Position[] = ["first", "middle", "last"];
const CASES: Array<[Table, FaultKind]> = [
  ["Event", "terminate"],
  ["Event", "cancel"],
  ["Event", "lost"],
  ["Event", "constraint"],
  ["Event", "disk-full"],
  ["SourceBlock", "terminate"],
  ["Boot", "constraint"],
];

describe("faults of the store at any node, on PostgreSQL", () => {
  it("the bundle lands whole without a fault, both schedules, with the same events", async () => {
    const asParsed = await runBundle(app, "as-parsed");
    const afterParse = await runBundle(app, "after-parse");
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
