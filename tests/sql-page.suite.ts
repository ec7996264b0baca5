/**
 * The SQL page's queries (lib/ask/run-ask.ts) on either database, over two incidents uploaded
 * through the ingest: A (two boots of node-a, sandbox failures in the second) and B (one boot of
 * node-b whose every message holds the word `zebrasecret`). Checked: the views and their
 * documented columns, counts that match the app's tables, the row limit, PostgreSQL's syntax
 * error with its position, and every way out refused with a clear message: writes (INSERT,
 * UPDATE, DELETE, DDL, COPY, DO, a temp table, a data-modifying WITH, a function that writes,
 * SELECT … FOR UPDATE), session control (SET ROLE, RESET ROLE, set_config), the app's tables and
 * files, several statements, and a query past the time limit. B's rows never show in A's
 * answers, not even in an error message.
 */
import { expect, it } from "vitest";
import { getDb } from "../lib/db/connection";
import { ASK_VIEWS } from "../lib/ask/ask-views";
import { AskError, runAsk, type AskResult } from "../lib/ask/run-ask";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { twoBootJournal } from "./patterns-store.suite";

const ids = { a: "", b: "" };

/** B: one boot of node-b, 8 lines, each naming zebrasecret. */
function otherJournal(): string {
  return (
    Array.from(
      { length: 8 },
      (_, i) =>
        `Mar 15 04:00:${String(10 + i).padStart(2, "0")} node-b kubelet[77]: E0315 04:00:${10 + i}.000000 77 pod_workers.go:1301] "zebrasecret ${i}" pod="kube-system/b-${i}"`,
    ).join("\n") + "\n"
  );
}

async function seed(): Promise<void> {
  if (ids.a) return;
  const db = await getDb();
  for (const [key, name, text] of [
    ["a", "journal.log", twoBootJournal()],
    ["b", "kubelet.log", otherJournal()],
  ] as const) {
    const { incidentId, bundleId } = await enqueueBundle(db, { title: `sql ${key}`, files: [{ name, data: Buffer.from(text) }], options: { year: 2026 } });
    expect((await processBundle(db, bundleId)).error).toBeNull();
    ids[key] = incidentId;
  }
}

const ask = async (sql: string, o: { incident?: "a" | "b"; rowLimit?: number; timeoutMs?: number } = {}): Promise<AskResult> =>
  runAsk(await getDb(), { incidentId: ids[o.incident ?? "a"], sql, rowLimit: o.rowLimit, timeoutMs: o.timeoutMs });

/** The refusal of `sql` on incident A: reason and message. */
async function refusal(sql: string, timeoutMs?: number): Promise<{ reason: string; message: string; position?: number }> {
  try {
    const r = await ask(sql, { timeoutMs });
    return { reason: "ran", message: JSON.stringify(r.rows).slice(0, 300) };
  } catch (e) {
    if (!(e instanceof AskError)) throw e;
    expect(e.message).not.toMatch(/zebrasecret/);
    return { reason: e.reason, message: e.message, position: e.position };
  }
}

export function sqlPageSuite(): void {
  it("has the documented views and columns, and counts that match the incident's own rows", async () => {
    await seed();
    const db = await getDb();
    const cols = await db.sql.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'ask' ORDER BY table_name, ordinal_position`,
    );
    const got: Record<string, string[]> = {};
    for (const c of cols) (got[c.table_name] ??= []).push(c.column_name);
    expect(got).toEqual(Object.fromEntries(ASK_VIEWS.map((v) => [v.name, v.columns.map((c) => c.name)]).sort(([x], [y]) => (x < y ? -1 : 1))));

    const [own] = await db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Event" WHERE "incidentId" = $1`, [ids.a]);
    expect(Number(own.n)).toBe(65);
    const r = await ask(
      "SELECT count(*) AS events, count(DISTINCT boot_id) AS boots, count(*) FILTER (WHERE message LIKE '%zebrasecret%') AS other FROM events",
    );
    expect(r.columns).toEqual([
      { name: "events", type: "int8", numeric: true },
      { name: "boots", type: "int8", numeric: true },
      { name: "other", type: "int8", numeric: true },
    ]);
    expect(r.rows).toEqual([["65", "2", "0"]]);
    expect((await ask("SELECT count(*) FROM events", { incident: "b" })).rows).toEqual([["8"]]);
    expect((await ask("SELECT id FROM incident")).rows).toEqual([[ids.a]]);
    // the sandbox failures of the second boot, from T+42 s to T+53 s
    const failing = await ask(
      "SELECT b.node, count(*) AS n, min(e.t_plus_ms) AS first_ms, max(e.t_plus_ms) AS last_ms FROM events e JOIN boots b ON b.id = e.boot_id WHERE e.message LIKE 'Failed to create pod sandbox%' GROUP BY 1",
    );
    expect(failing.rows).toEqual([["node-a", "12", "42000", "53000"]]);
    // text output as PostgreSQL prints it, in UTC
    expect((await ask("SELECT min(ts) FROM events WHERE boot_id IS NOT NULL")).rows).toEqual([["2026-03-14 02:00:01+00"]]);
    expect((await ask("SELECT template, count FROM patterns ORDER BY count DESC LIMIT 1")).rows).toEqual([["Pulling image <*> attempt <*>", "30"]]);
  });

  it("returns at most the row limit, and says when there were more", async () => {
    await seed();
    const r = await ask("SELECT g FROM generate_series(1, 1500) g");
    expect([r.rows.length, r.truncated, r.rows[999]]).toEqual([1000, true, ["1000"]]);
    const s = await ask("SELECT id FROM events ORDER BY id", { rowLimit: 65 });
    expect([s.rows.length, s.truncated]).toEqual([65, false]);
    expect((await ask("VALUES (1, 'a'), (2, NULL)")).rows).toEqual([
      ["1", "a"],
      ["2", null],
    ]);
    expect((await ask("EXPLAIN SELECT * FROM events")).rows.length).toBeGreaterThan(1);
  });

  it("gives PostgreSQL's syntax error with its position in the query", async () => {
    await seed();
    expect(await refusal("SELECT * FORM events")).toEqual({
      reason: "syntax",
      message: 'syntax error at or near "FORM" (at character 10)',
      position: 10,
    });
    const r = await refusal("SELECT nope FROM events");
    expect([r.reason, r.message]).toEqual(["syntax", 'column "nope" does not exist (at character 8)']);
    expect((await refusal('SELECT * FROM "Event"')).message).toMatch(/^relation "Event" does not exist \(at character 15\); the views are incident, bundles,/);
  });

  it("refuses writes, DDL and COPY: read-only", async () => {
    await seed();
    for (const sql of [
      "INSERT INTO events (id) VALUES (1)",
      "UPDATE events SET message = 'x'",
      "DELETE FROM events",
      "MERGE INTO events e USING boots b ON false WHEN NOT MATCHED THEN DO NOTHING",
      "CREATE TABLE t (a int)",
      "CREATE TEMP TABLE t AS SELECT * FROM events",
      "DROP VIEW events",
      "ALTER VIEW events RENAME TO e",
      "TRUNCATE events",
      "COPY events TO STDOUT",
      "COPY (SELECT 1) TO '/tmp/bootline-ask'",
      'DO $$ BEGIN DELETE FROM public."Event"; END $$',
      "GRANT SELECT ON events TO PUBLIC",
      "SELECT * INTO t FROM events",
    ]) {
      const r = await refusal(sql);
      expect([sql, r.reason, r.message]).toEqual([sql, "read-only", expect.stringMatching(/^read-only: this page cannot change data/)]);
    }
  });

  it("refuses writes hidden inside a query (the database's read-only transaction and privileges)", async () => {
    await seed();
    for (const [sql, want] of [
      ["WITH d AS (DELETE FROM events RETURNING id) SELECT * FROM d", /^read-only: this page cannot change data/],
      ["SELECT lo_create(0)", /^read-only: this page cannot change data \(lo_create\(\) is refused/],
      ["SELECT pg_advisory_lock(72707369)", /^read-only: this page cannot change data \(pg_advisory_lock\(\) is refused/],
      ["SELECT lo_from_bytea(0, 'x'::bytea)", /^read-only: this page cannot change data/],
      ["SELECT nextval('public.\"Event_id_seq\"')", /^(read-only: this page cannot change data|not allowed: permission denied for sequence Event_id_seq)/],
      ["SELECT * FROM events FOR UPDATE", /^(read-only: this page cannot change data|not allowed: permission denied for view events)/],
    ] as const) {
      const r = await refusal(sql);
      expect([sql, r.message]).toEqual([sql, expect.stringMatching(want)]);
    }
  });

  it("keeps to the incident: the app's tables, another incident, settings, roles and files are out of reach", async () => {
    await seed();
    const db = await getDb();
    const notAllowed = async (sql: string) => {
      const r = await refusal(sql);
      expect([sql, r.reason]).toEqual([sql, "not-allowed"]);
      return r.message;
    };
    expect(await notAllowed('SELECT count(*) FROM public."Event"')).toMatch(
      /^not allowed: permission denied for table Event; the page reads only this incident's views/,
    );
    await notAllowed(`SELECT * FROM public."Event" WHERE "incidentId" = '${ids.b}'`);
    await notAllowed('SELECT * FROM public."AskBinding"');
    await notAllowed('SELECT * FROM public."Session"');
    await notAllowed("SELECT pg_read_file('/etc/passwd')");
    await notAllowed("SELECT * FROM pg_ls_dir('.')");
    // the reader cannot point its connection at another incident: set_config is refused (PGlite)
    // or changes nothing the views read (PostgreSQL: the binding is a table the reader cannot write)
    const moved = await refusal(`SELECT set_config('bootline.incident', '${ids.b}', true) AS s, (SELECT count(*) FROM events) AS n`);
    if (db.sql.backend === "pglite") expect(moved.reason).toBe("not-allowed");
    else expect(moved).toEqual({ reason: "ran", message: JSON.stringify([[ids.b, "65"]]) });
    expect((await refusal("SELECT set_config('role', 'postgres', true)")).message).toMatch(
      db.sql.backend === "pglite" ? /^not allowed: permission denied for function set_config/ : /^not allowed: permission denied to set role "postgres"/,
    );
    for (const sql of ["SET ROLE postgres", "RESET ROLE", "SET bootline.incident = 'x'", "BEGIN", "COMMIT", "SET TRANSACTION READ WRITE"]) {
      const r = await refusal(sql);
      expect([sql, r.reason, r.message]).toEqual([sql, "statement", expect.stringMatching(/is refused: each query runs alone in a read-only transaction/)]);
    }
    expect(await refusal("SELECT 1; DELETE FROM events")).toEqual({
      reason: "statement",
      message: "one statement at a time: the text holds a ; between two statements",
      position: undefined,
    });
    // and below that check, the database's extended protocol runs one statement or none
    await expect(db.sql.queryText("SELECT 1; SELECT 2")).rejects.toThrow(/cannot insert multiple commands into a prepared statement/);
    expect((await refusal("SELECT dblink_connect('host=127.0.0.1 dbname=postgres')")).message).toMatch(/^function dblink_connect\(unknown\) does not exist/);
    // a failing condition runs after the incident filter (security_barrier): an error names A's rows only
    const leak = await refusal("SELECT * FROM events WHERE message::int = 1");
    expect(leak.message).toMatch(/^invalid input syntax for type integer: "(Pulling|Started|Failed)/);
    // every binding row of the page's connections is gone after its query (PostgreSQL) or rolled back (PGlite)
    expect(await db.sql.query(`SELECT * FROM "AskBinding"`)).toEqual([]);
  });

  it("stops a query past the time limit with a clear message", async () => {
    await seed();
    const db = await getDb();
    const huge = await refusal("SELECT count(*) FROM generate_series(1, 1000000000000)", 300);
    expect([huge.reason, huge.message]).toEqual(["timeout", expect.stringMatching(/^the query (took|would take) longer than 0\.3 s/)]);
    const cross = await refusal("SELECT count(*) FROM events a, events b, events c, events d, events e", 300);
    expect(cross.reason).toBe("timeout");
    const sleep = await refusal("SELECT pg_sleep(30)", 300);
    expect([sleep.reason, sleep.message]).toEqual(
      db.sql.backend === "pglite"
        ? ["not-allowed", expect.stringMatching(/^not allowed: permission denied for function pg_sleep/)]
        : ["timeout", "the query took longer than 0.3 s, the page's time limit: narrow it to a boot or a time range, or aggregate"],
    );
    if (db.sql.backend === "pglite") {
      expect((await refusal("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t")).reason).toBe("statement");
      expect((await refusal("EXPLAIN ANALYZE SELECT 1")).reason).toBe("statement");
    } else {
      expect((await refusal("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t", 300)).reason).toBe("timeout");
    }
    // the connection is usable again after a query was stopped
    expect((await ask("SELECT count(*) FROM events")).rows).toEqual([["65"]]);
  });
}
