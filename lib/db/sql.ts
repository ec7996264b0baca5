/**
 * Raw SQL access for the parts Prisma does not cover: migrations, COPY of event rows,
 * and the timeline's aggregate queries. Two backends with one interface:
 * - PostgreSQL (`DATABASE_URL` set) through `pg` and `pg-copy-streams`;
 * - embedded PGlite (`DATABASE_URL` unset), one instance per process, data in `./.data/`
 *   (PGlite allows one process per data folder).
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Pool, PoolClient } from "pg";

export type SqlParam = string | number | boolean | null | bigint | Date | string[] | number[];

/** One statement's answer as PostgreSQL prints it: column names and type oids, and rows of text values (null for NULL). */
export interface TextResult {
  fields: Array<{ name: string; typeId: number }>;
  rows: Array<Array<string | null>>;
}

/** One connection-like handle: queries run in order on it. */
export interface SqlConn {
  query<T = Record<string, unknown>>(text: string, params?: SqlParam[]): Promise<T[]>;
  exec(text: string): Promise<void>;
  /**
   * One statement (the extended protocol: several statements are refused) with no parameters,
   * its values left in PostgreSQL's text output (no parsing into numbers or dates), rows as arrays
   * so that two columns of one name both come back. For the SQL page (lib/ask).
   */
  queryText(text: string): Promise<TextResult>;
  /**
   * `COPY table (columns) FROM STDIN` in PostgreSQL text format. `chunks` yields text
   * already escaped with `copyText` / `copyRow` (as strings, or as UTF-8 bytes, which are
   * sent without another encoding pass). Returns the number of rows copied.
   */
  copyFrom(table: string, columns: string[], chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): Promise<number>;
}

export interface SqlDb extends SqlConn {
  readonly backend: "postgres" | "pglite";
  /** Runs `fn` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(fn: (conn: SqlConn) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const NEEDS_ESCAPE = /[\\\t\n\r\0]/;
const CONTROL = /[\t\n\r\0]/;

/** Escapes one value for PostgreSQL's COPY text format (`\N` is NULL). */
export function copyText(v: string | number | bigint | boolean | null | undefined): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v !== "string") return String(v);
  // fast paths (a regex test runs as compiled code, about twice as fast as a charCodeAt loop):
  // most log text needs no escaping, and most of the rest only has backslashes (Go quoting)
  if (!NEEDS_ESCAPE.test(v)) return v;
  if (!CONTROL.test(v)) return v.replaceAll("\\", "\\\\");
  return v.replace(/[\\\t\n\r\0]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : ""));
}

/**
 * `JSON.stringify(v)` as a COPY text value (`\N` for null or undefined). JSON text holds no raw
 * control characters (they come out as `\n`, `\u0000`, ...), so only its backslashes are doubled.
 */
export function copyJson(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  return copyJsonText(JSON.stringify(v));
}

/** JSON text `j` (`JSON.stringify`'s) as COPY text: its backslashes doubled. */
export function copyJsonText(j: string): string {
  return j.includes("\\") ? j.replaceAll("\\", "\\\\") : j;
}

class PgConn implements SqlConn {
  constructor(protected readonly c: Pool | PoolClient) {}
  async query<T>(text: string, params: SqlParam[] = []): Promise<T[]> {
    const r = await this.c.query(text, params as unknown[]);
    return r.rows as T[];
  }
  async exec(text: string): Promise<void> {
    await this.c.query(text);
  }
  async queryText(text: string): Promise<TextResult> {
    // queryMode "extended" (pg 8.16+, not in its types): Parse/Bind/Execute, which refuses several statements
    const config = { text, rowMode: "array" as const, queryMode: "extended", types: { getTypeParser: () => (v: string) => v } };
    const r = await this.c.query(config as import("pg").QueryArrayConfig);
    return { fields: r.fields.map((f) => ({ name: f.name, typeId: f.dataTypeID })), rows: r.rows as Array<Array<string | null>> };
  }
  async copyFrom(table: string, columns: string[], chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): Promise<number> {
    const { from } = await import("pg-copy-streams");
    const client = "release" in this.c ? (this.c as PoolClient) : await (this.c as Pool).connect();
    try {
      const stream = client.query(from(`COPY "${table}" (${columns.map((c) => `"${c}"`).join(",")}) FROM STDIN`));
      const done = new Promise<void>((resolve, reject) => {
        stream.on("finish", resolve);
        stream.on("error", reject);
      });
      // settled below; this only keeps a failure while chunks are still produced from going unhandled
      done.catch(() => {});
      try {
        for await (const chunk of chunks) {
          // a COPY that fails (connection lost, statement cancelled) emits no "drain": wait for either
          if (!stream.write(chunk)) await Promise.race([new Promise((r) => stream.once("drain", r)), done]);
        }
      } catch (e) {
        // the input failed (a rows file gone, a thread's error): abort the COPY (CopyFail), or the
        // connection would stay in COPY mode and the caller's ROLLBACK would wait forever
        stream.destroy(e as Error);
        await done.catch(() => {});
        throw e;
      }
      stream.end();
      await done;
      return Number(stream.rowCount ?? 0);
    } finally {
      if (client !== this.c) client.release();
    }
  }
}

class PgDb extends PgConn implements SqlDb {
  readonly backend = "postgres" as const;
  constructor(private readonly pool: Pool) {
    super(pool);
  }
  async transaction<T>(fn: (conn: SqlConn) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // a connection that died mid-transaction (server restart, terminated backend) must not go
    // back to the pool: release(err) destroys it
    let broken: Error | undefined;
    // pg emits a lost connection on the checked-out client as well as failing its query: without
    // a listener that event would end the process
    const onError = (e: Error) => {
      broken = e;
    };
    client.on("error", onError);
    try {
      await client.query("BEGIN");
      const r = await fn(new PgConn(client));
      await client.query("COMMIT");
      return r;
    } catch (e) {
      await client.query("ROLLBACK").catch((re: Error) => {
        broken = re;
      });
      throw e;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }
  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Bytes of COPY input per PGlite statement (see `PgliteConn.copyFrom`). */
const PGLITE_COPY_SLICE = 4 * 1024 * 1024;

class PgliteConn implements SqlConn {
  constructor(protected readonly c: PGlite | Transaction) {}
  async query<T>(text: string, params: SqlParam[] = []): Promise<T[]> {
    const r = await this.c.query<T>(text, params as unknown[]);
    return r.rows;
  }
  async exec(text: string): Promise<void> {
    await this.c.exec(text);
  }
  async queryText(text: string): Promise<TextResult> {
    const r = await this.c.query<Array<string | null>>(text, [], { rowMode: "array", parsers: await rawParsers() });
    return { fields: r.fields.map((f) => ({ name: f.name, typeId: f.dataTypeID })), rows: r.rows };
  }
  async copyFrom(table: string, columns: string[], chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): Promise<number> {
    // PGlite reads COPY input from a Blob ("/dev/blob"); send it in slices of ~4 MB. PGlite runs
    // each statement on this thread, so a slice blocks the event loop while it is copied: small
    // slices let the app answer its pages and progress polls between them during an ingest.
    const sql = `COPY "${table}" (${columns.map((c) => `"${c}"`).join(",")}) FROM '/dev/blob'`;
    let parts: Array<string | Uint8Array> = [];
    let size = 0;
    let rows = 0;
    const flush = async () => {
      if (!parts.length) return;
      const r = await this.c.query(sql, [], { blob: new Blob(parts as BlobPart[]) });
      rows += r.affectedRows ?? 0;
      parts = [];
      size = 0;
      // PGlite's promises settle as microtasks: without a turn of the event loop here, a bundle's
      // COPYs would run back to back and hold every request until the last one
      await new Promise((r) => setImmediate(r));
    };
    for await (const chunk of chunks) {
      if (parts.length && size + chunk.length > PGLITE_COPY_SLICE) await flush();
      parts.push(chunk);
      size += chunk.length;
    }
    await flush();
    return rows;
  }
}

class PgliteDb extends PgliteConn implements SqlDb {
  readonly backend = "pglite" as const;
  constructor(private readonly db: PGlite) {
    super(db);
  }
  transaction<T>(fn: (conn: SqlConn) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new PgliteConn(tx)));
  }
  async close(): Promise<void> {
    await this.db.close();
  }
}

let raw: Record<number, (v: string) => string> | undefined;

/** PGlite parsers that keep every type PGlite would parse as its text (PGlite leaves the others as text already). */
async function rawParsers(): Promise<Record<number, (v: string) => string>> {
  if (!raw) {
    const { types } = await import("@electric-sql/pglite");
    const known = (types as unknown as { parsers?: Record<string, unknown> }).parsers ?? {};
    raw = Object.fromEntries(Object.keys(known).map((oid) => [Number(oid), (v: string) => v]));
  }
  return raw;
}

/** A checked-out `pg` connection as a `SqlConn` (the SQL page's own connections, lib/ask). */
export function pgConn(client: PoolClient): SqlConn {
  return new PgConn(client);
}

/** Wraps a `pg` Pool. */
export function pgSql(pool: Pool): SqlDb {
  return new PgDb(pool);
}

/** Wraps a PGlite instance. */
export function pgliteSql(db: PGlite): SqlDb {
  return new PgliteDb(db);
}
