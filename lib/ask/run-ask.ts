/**
 * Runs one read-only query of the SQL page over one incident's views (schema `ask`,
 * docs/sql.md) and returns its first rows as PostgreSQL prints them.
 *
 * PostgreSQL: on a connection of the role `bootline_ask` (lib/ask/ask-pool.ts), after the app
 * binds that connection's backend to the incident (`AskBinding`), in `BEGIN READ ONLY` with
 * `statement_timeout`. PGlite (one connection, a superuser): in one transaction the app binds
 * its backend, turns the transaction read-only, then `SET LOCAL ROLE bootline_ask`; PGlite has
 * no statement timeout, so a query whose planner cost is over the limit is refused before it
 * runs (`pgliteCostLimit`), and WITH RECURSIVE is refused.
 *
 * Throws `ApiError("not_found")` for an unknown incident, `AskError` (400, a message in words,
 * PostgreSQL's own text where it has one) for a query refused or failed, `AskError` (503) when
 * the read-only role cannot be used.
 */
import type { DbHandles } from "../db/connection";
import { pgConn, type SqlConn, type TextResult } from "../db/sql";
import { ApiError } from "../http/errors";
import { ASK_VIEWS } from "./ask-views";
import { readStatement, StatementError, type Statement } from "./statement";

export type AskReason = "statement" | "read-only" | "not-allowed" | "timeout" | "syntax" | "failed" | "setup";

export class AskError extends ApiError {
  constructor(
    code: "bad_request" | "unavailable",
    message: string,
    readonly reason: AskReason,
    /** 1-based character of the query the database's message points at */
    readonly position?: number,
  ) {
    super(code, message);
  }
}

export interface AskColumnOut {
  name: string;
  /** the type's name (int8, text, timestamptz, …) or `oid <n>` */
  type: string;
  /** a number type (right-aligned in the table) */
  numeric: boolean;
}

export interface AskResult {
  columns: AskColumnOut[];
  /** values as PostgreSQL's text output (timestamptz in UTC), null for NULL */
  rows: Array<Array<string | null>>;
  /** more rows than `rowLimit` were there; only the first `rowLimit` are returned */
  truncated: boolean;
  rowLimit: number;
  timeoutMs: number;
  /** time the statement took, ms */
  ms: number;
}

/** Rows shown on the page. */
export const ROW_LIMIT = 1000;
/** Rows of a CSV download. */
export const CSV_ROW_LIMIT = 100_000;

/** The time limit of one query, ms (`BOOTLINE_SQL_TIMEOUT_MS`, default 5000, 100 to 600000). */
export function askTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BOOTLINE_SQL_TIMEOUT_MS);
  return Number.isInteger(n) && n >= 100 && n <= 600_000 ? n : 5000;
}

/**
 * The planner cost over which PGlite refuses a query for `timeoutMs`: 40 cost units per ms
 * (`BOOTLINE_SQL_PGLITE_COST_PER_MS`). Measured on this 2-core machine, PGlite ran 16 (ILIKE
 * scan) to 180 (join) units per ms, so 40 is a limit of about the timeout for scans and joins.
 */
export function pgliteCostLimit(timeoutMs: number, env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BOOTLINE_SQL_PGLITE_COST_PER_MS);
  return timeoutMs * (Number.isFinite(n) && n > 0 ? n : 40);
}

const TYPES: Record<number, string> = {
  16: "bool",
  17: "bytea",
  18: "char",
  19: "name",
  20: "int8",
  21: "int2",
  23: "int4",
  25: "text",
  26: "oid",
  114: "json",
  700: "float4",
  701: "float8",
  1000: "bool[]",
  1005: "int2[]",
  1007: "int4[]",
  1009: "text[]",
  1016: "int8[]",
  1043: "varchar",
  1082: "date",
  1083: "time",
  1114: "timestamp",
  1184: "timestamptz",
  1186: "interval",
  1700: "numeric",
  2950: "uuid",
  3802: "jsonb",
};
const NUMERIC = new Set([20, 21, 23, 26, 700, 701, 1700]);

const CURSOR = "DECLARE ask_rows NO SCROLL CURSOR FOR ";

/** Runs `sql` over the views of incident `incidentId`. `url` is the app's PostgreSQL address (default `DATABASE_URL`). */
export async function runAsk(
  db: DbHandles,
  opts: { incidentId: string; sql: string; rowLimit?: number; timeoutMs?: number; url?: string },
): Promise<AskResult> {
  const rowLimit = opts.rowLimit ?? ROW_LIMIT;
  const timeoutMs = opts.timeoutMs ?? askTimeoutMs();
  const found = await db.sql.query(`SELECT 1 FROM "Incident" WHERE id = $1`, [opts.incidentId]);
  if (!found.length) throw new ApiError("not_found", `no incident ${opts.incidentId}`);
  const pg = db.sql.backend === "postgres";
  let stmt: Statement;
  try {
    stmt = readStatement(opts.sql, { recursive: pg });
  } catch (e) {
    if (e instanceof StatementError) throw new AskError("bad_request", e.message, e.reason === "write" ? "read-only" : "statement");
    throw e;
  }
  if (!pg && stmt.kind === "explain" && (stmt.words.includes("analyze") || stmt.words.includes("analyse")))
    throw new AskError(
      "bad_request",
      "EXPLAIN ANALYZE is refused on the embedded database: it runs the query past the cost check; run the query itself",
      "statement",
    );
  const t0 = performance.now();
  const r = pg
    ? await onPostgres(db, stmt, rowLimit, timeoutMs, opts.url ?? process.env.DATABASE_URL, opts.incidentId)
    : await onPglite(db, stmt, rowLimit, timeoutMs, opts.incidentId);
  const ms = Math.round(performance.now() - t0);
  const truncated = r.rows.length > rowLimit;
  return {
    columns: r.fields.map((f) => ({ name: f.name, type: TYPES[f.typeId] ?? `oid ${f.typeId}`, numeric: NUMERIC.has(f.typeId) })),
    rows: truncated ? r.rows.slice(0, rowLimit) : r.rows,
    truncated,
    rowLimit,
    timeoutMs,
    ms,
  };
}

/** Settings of every query's transaction (after BEGIN READ ONLY). */
const LOCAL_SETTINGS = "SET LOCAL search_path = ask; SET LOCAL TimeZone = 'UTC'";

/** The statement's first `rowLimit + 1` rows (one more tells that there were more). */
async function fetchRows(conn: SqlConn, stmt: Statement, rowLimit: number, timeoutMs: number): Promise<TextResult> {
  try {
    if (stmt.kind === "explain") return await conn.queryText(stmt.text);
    await conn.queryText(CURSOR + stmt.text);
  } catch (e) {
    throw fromDatabase(e, timeoutMs, stmt.kind === "explain" ? 0 : CURSOR.length);
  }
  try {
    return await conn.queryText(`FETCH FORWARD ${rowLimit + 1} FROM ask_rows`);
  } catch (e) {
    throw fromDatabase(e, timeoutMs, 0);
  }
}

const roleChecked = new WeakSet<object>();

async function onPostgres(db: DbHandles, stmt: Statement, rowLimit: number, timeoutMs: number, url: string | undefined, incidentId: string) {
  if (!url) throw new AskError("unavailable", "the SQL page needs the database address (DATABASE_URL)", "setup");
  const { ASK_ROLE, askPool } = await import("./ask-pool");
  const pool = await askPool(url);
  let client: import("pg").PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw new AskError(
      "unavailable",
      `the SQL page's read-only role ${ASK_ROLE} cannot sign in to the database (${(e as Error).message}): allow it on the server (pg_hba.conf), or give its address with a password in BOOTLINE_ASK_DATABASE_URL`,
      "setup",
    );
  }
  let broken: Error | undefined;
  const onError = (e: Error) => {
    broken = e;
  };
  client.on("error", onError);
  const conn = pgConn(client);
  let pid: number | undefined;
  try {
    const [me] = await conn.query<{ pid: number; role: string; super: boolean; tables: boolean }>(
      `SELECT pg_backend_pid() AS pid, current_user AS role, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS super,
              has_table_privilege('public."Event"', 'SELECT') OR has_table_privilege('public."AskBinding"', 'SELECT') AS tables`,
    );
    pid = me.pid;
    if (!roleChecked.has(client)) {
      if (me.super || me.tables || me.role !== ASK_ROLE)
        throw new AskError(
          "unavailable",
          `the SQL page's connection is ${me.role}, which may read the app's tables: it runs only as the read-only role ${ASK_ROLE}`,
          "setup",
        );
      roleChecked.add(client);
    }
    await db.sql.query(
      `INSERT INTO "AskBinding" (pid, "incidentId") VALUES ($1, $2) ON CONFLICT (pid) DO UPDATE SET "incidentId" = EXCLUDED."incidentId", at = now()`,
      [pid, incidentId],
    );
    await conn.exec(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.round(timeoutMs)}; ${LOCAL_SETTINGS}`);
    try {
      return await fetchRows(conn, stmt, rowLimit, timeoutMs);
    } finally {
      // DISCARD ALL: nothing of the query stays with the pooled connection (session settings, advisory locks)
      await conn.exec("ROLLBACK; DISCARD ALL").catch((e: Error) => {
        broken = e;
      });
    }
  } finally {
    if (pid !== undefined) await db.sql.query(`DELETE FROM "AskBinding" WHERE pid = $1 AND "incidentId" = $2`, [pid, incidentId]).catch(() => {});
    client.off("error", onError);
    client.release(broken);
  }
}

/** Carries the result out of the PGlite transaction, which it rolls back. */
class Done {
  constructor(readonly result: TextResult) {}
}

async function onPglite(db: DbHandles, stmt: Statement, rowLimit: number, timeoutMs: number, incidentId: string): Promise<TextResult> {
  // outside the transaction below, which is rolled back (with any statistics gathered in it)
  await analyseStale(db.sql);
  try {
    await db.sql.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO "AskBinding" (pid, "incidentId") VALUES (pg_backend_pid(), $1) ON CONFLICT (pid) DO UPDATE SET "incidentId" = EXCLUDED."incidentId", at = now()`,
        [incidentId],
      );
      await tx.exec(`SET TRANSACTION READ ONLY; ${LOCAL_SETTINGS}; SET LOCAL ROLE bootline_ask`);
      const limit = pgliteCostLimit(timeoutMs);
      let cost: number;
      try {
        const plan = await tx.queryText(`EXPLAIN (FORMAT JSON) ${stmt.kind === "explain" ? stmt.text.replace(/^\s*explain\b/i, "") : stmt.text}`);
        cost = Number((JSON.parse(plan.rows[0]?.[0] ?? "[]") as Array<{ Plan?: { "Total Cost"?: number } }>)[0]?.Plan?.["Total Cost"] ?? 0);
      } catch (e) {
        throw fromDatabase(e, timeoutMs, "EXPLAIN (FORMAT JSON) ".length);
      }
      if (cost > limit)
        throw new AskError(
          "bad_request",
          `the query would take longer than ${seconds(timeoutMs)} (the planner's cost ${Math.round(cost)} is over the embedded database's limit ${Math.round(limit)}): narrow it to a boot or a time range, or aggregate`,
          "timeout",
        );
      throw new Done(await fetchRows(tx, stmt, rowLimit, timeoutMs));
    });
  } catch (e) {
    if (e instanceof Done) return e.result;
    throw e;
  }
  throw new Error("unreachable: the PGlite transaction ends with Done or an error");
}

/** The app's tables the views read. */
const VIEW_TABLES = ["Incident", "Bundle", "SourceFile", "Node", "Boot", "Event", "Finding", "LogPattern", "Annotation"];

/**
 * Analyses the views' tables that have no statistics yet or whose statistics are stale by
 * autovacuum's rule (more than 50 + 10 % of their rows changed since: `autovacuum_analyze_threshold`
 * and `autovacuum_analyze_scale_factor` at their defaults; PGlite's change counters lag by up to
 * a second). PGlite runs no autovacuum, and without
 * statistics the planner takes a join of thousands of rows for a few: the cost check would let
 * it through.
 */
async function analyseStale(tx: SqlConn): Promise<void> {
  const stale = await tx.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
     WHERE n.nspname = 'public' AND c.relname = ANY($1::text[])
       AND (NOT EXISTS (SELECT 1 FROM pg_statistic st WHERE st.starelid = c.oid)
            OR coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0))`,
    [VIEW_TABLES],
  );
  for (const t of stale) await tx.exec(`ANALYZE public."${t.name}"`);
}

const seconds = (ms: number) => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;

/** PostgreSQL's error of the reader's statement in the page's words; `shift` characters of the app's own prefix are taken off its position. */
function fromDatabase(e: unknown, timeoutMs: number, shift: number): unknown {
  const d = e as { code?: unknown; message?: unknown; position?: unknown };
  if (e instanceof AskError || typeof d?.code !== "string" || typeof d.message !== "string") return e;
  const msg = d.message;
  const pos = Number(d.position);
  const position = Number.isFinite(pos) && pos > shift ? pos - shift : undefined;
  const at = position ? ` (at character ${position})` : "";
  switch (d.code) {
    case "57014":
      return new AskError(
        "bad_request",
        `the query took longer than ${seconds(timeoutMs)}, the page's time limit: narrow it to a boot or a time range, or aggregate`,
        "timeout",
      );
    case "25006":
    case "55000":
    case "0A000":
      if (d.code !== "25006" && !/data-modifying|cannot (insert into|update|delete from|merge into) view/.test(msg)) break;
      return new AskError("bad_request", `read-only: this page cannot change data (${msg})`, "read-only");
    case "42501":
      return new AskError("bad_request", `not allowed: ${msg}; the page reads only this incident's views (${viewNames()})`, "not-allowed", position);
    case "42P01":
      return new AskError("bad_request", `${msg}${at}; the views are ${viewNames()}`, "failed", position);
  }
  return new AskError("bad_request", `${msg}${at}`, d.code.startsWith("42") ? "syntax" : "failed", position);
}

const viewNames = () => ASK_VIEWS.map((v) => v.name).join(", ");
