/**
 * The two PostgreSQL pools of lib/db/connection.ts: statements (every page's reads) run on
 * connections named `bootline`, transactions (an upload's bundle record, an ingest's whole store)
 * on connections named `bootline-write`, whose server processes run at a lower CPU priority
 * (nice 10) when the database is on this machine and this process may set it. A transaction held
 * open, as an ingest holds one, leaves every read connection free.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.drop();
});

/** The nice value of process `pid` (proc(5) `stat` field 19), or null where /proc does not tell. */
function niceOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  } catch {
    return null;
  }
}

const WHO = `SELECT current_setting('application_name') AS app, pg_backend_pid() AS pid`;

describe("reads and transactions on separate pools", () => {
  it("names each pool's connections, and lowers the priority of the transaction pool's backends", async () => {
    const [read] = await db.sql.query<{ app: string; pid: number }>(WHO);
    expect(read.app).toBe("bootline");
    const write = await db.sql.transaction(async (tx) => (await tx.query<{ app: string; pid: number }>(WHO))[0]);
    expect(write.app).toBe("bootline-write");
    expect(write.pid).not.toBe(read.pid);
    const readNice = niceOf(read.pid);
    // only root (or the database's own user) may lower another user's process
    if (readNice === 0 && process.getuid?.() === 0) expect(niceOf(write.pid)).toBe(10);
  });

  it("a transaction held open leaves all ten read connections to the reads", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const tx = db.sql.transaction(async (c) => {
      await c.query("SELECT 1");
      entered();
      await held;
    });
    await inside;
    // ten reads at once, each holding its connection for 200 ms: ten connections (one pool of ten
    // shared with the transaction would have nine to give)
    const pids = await Promise.all(Array.from({ length: 10 }, () => db.sql.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid, pg_sleep(0.2)`)));
    expect(new Set(pids.map((r) => r[0].pid)).size).toBe(10);
    release();
    await tx;
  });
});
