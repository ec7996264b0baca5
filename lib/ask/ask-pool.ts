/**
 * The SQL page's own PostgreSQL connections: they log in as the read-only role `bootline_ask`
 * (migration `ask_views`), never as the app's role, so nothing the reader types (RESET ROLE,
 * SET ROLE, set_config('role', …)) can take the app's privileges. The address is
 * `BOOTLINE_ASK_DATABASE_URL` when set, else `DATABASE_URL` with the user replaced by
 * `bootline_ask` and no password (trust or peer authentication on the server's host). At most
 * `BOOTLINE_ASK_POOL` connections (default 2), one per query running.
 */
import type { Pool } from "pg";

export const ASK_ROLE = "bootline_ask";

/** The read-only role's address derived from the app's `url`. */
export function askUrl(url: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.BOOTLINE_ASK_DATABASE_URL) return env.BOOTLINE_ASK_DATABASE_URL;
  const u = new URL(url);
  u.username = ASK_ROLE;
  u.password = "";
  return u.toString();
}

const g = globalThis as unknown as { __bootlineAskPools?: Map<string, Pool> };

/** The pool of read-only connections for the app database `url` (one per url and process). */
export async function askPool(url: string): Promise<Pool> {
  const pools = (g.__bootlineAskPools ??= new Map());
  let pool = pools.get(url);
  if (!pool) {
    const pg = await import("pg");
    const n = Number(process.env.BOOTLINE_ASK_POOL);
    pool = new pg.default.Pool({
      connectionString: askUrl(url),
      max: Number.isInteger(n) && n > 0 ? n : 2,
      application_name: "bootline-ask",
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
    });
    // an idle connection closed by the server must not end the process
    pool.on("error", (e: Error) => console.error(`bootline: SQL page connection lost: ${e.message}`));
    pools.set(url, pool);
  }
  return pool;
}

/** Closes the read-only pools (tests, before their database is dropped). */
export async function closeAskPools(): Promise<void> {
  const pools = g.__bootlineAskPools;
  if (!pools) return;
  g.__bootlineAskPools = undefined;
  await Promise.all([...pools.values()].map((p) => p.end().catch(() => {})));
}
