/**
 * The big boot's figures for `npm run bench` (scripts/bench.ts), on whichever backend `getDb()`
 * opens: `benchBigBoot` tops the largest boot of the incident up to at least `bootEvents` events
 * by copying its own rows (same times) and rebuilds that boot's per-second rollup, then times the
 * density request (getLaneDensity over the whole boot) and the first events page (getEventsPage,
 * 200 rows, no filter): the functions the routes call. Times are ms (`{ median, p95, runs }`).
 */
import { getDb } from "../lib/db/connection";
import { largestBoot, stats } from "./bench-search";
import { time } from "./bench-timing";

export interface BigBootBench {
  bootEvents: number;
  /** "rebuilt", or why the boot's rollup was left as it was */
  rollup: string;
  densityMs: ReturnType<typeof stats>;
  firstPageMs: ReturnType<typeof stats>;
}

/** See the module comment. `copyCols`: the Event columns copied (every one but the id). */
export async function benchBigBoot(opts: {
  incidentId: string;
  bootEvents: number;
  copyCols: string;
  runs?: number;
  log: (s: string) => void;
}): Promise<BigBootBench> {
  const { incidentId } = opts;
  const { sql } = await getDb();
  const boot = await largestBoot(incidentId);
  let n = Number(boot.n);
  if (n < opts.bootEvents) opts.log(`big boot: copying boot ${boot.id}'s events up to ${opts.bootEvents.toLocaleString()} (now ${n.toLocaleString()})`);
  while (n < opts.bootEvents) {
    const [ins] = await sql.query<{ n: string | number }>(
      `WITH ins AS (INSERT INTO "Event" (${opts.copyCols}) SELECT ${opts.copyCols} FROM "Event" WHERE "bootId" = $1 ORDER BY id LIMIT $2 RETURNING 1) SELECT count(*) AS n FROM ins`,
      [boot.id, Math.min(opts.bootEvents - n, n)],
    );
    if (!Number(ins.n)) throw new Error("the boot has no events to copy");
    n += Number(ins.n);
  }
  // the rollup the density reads, rebuilt for the boot when its table has the columns the ingest writes
  const cols = (await sql.query<{ c: string }>(`SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'EventDensity'`))
    .map((r) => r.c)
    .sort();
  let rollup = "rebuilt";
  if (cols.join(",") === ["bootId", "bundleId", "errors", "lane", "n", "sec"].join(",")) {
    await sql.transaction(async (tx) => {
      await tx.query(`DELETE FROM "EventDensity" WHERE "bootId" = $1`, [boot.id]);
      await tx.query(
        `INSERT INTO "EventDensity" ("bootId", sec, lane, "bundleId", n, errors)
         SELECT "bootId", floor(extract(epoch FROM ts))::bigint, lane, "bundleId", count(*), count(*) FILTER (WHERE severity >= 3)
         FROM "Event" WHERE "bootId" = $1 AND ts IS NOT NULL GROUP BY 1, 2, 3, 4`,
        [boot.id],
      );
    });
  } else rollup = `left as it was (EventDensity has columns ${cols.join(", ")})`;
  await sql.exec(`VACUUM ANALYZE "Event"`);
  await sql.exec(`ANALYZE "EventDensity"`);
  const { getLaneDensity } = await import("../lib/queries/get-lane-density");
  const { getEventsPage } = await import("../lib/queries/get-events-page");
  const { LANES } = await import("../lib/view/lanes");
  const fromMs = new Date(boot.start).getTime();
  const toMs = new Date(boot.end ?? boot.start).getTime() + 1;
  const density: number[] = [];
  const page: number[] = [];
  for (let i = 0; i < (opts.runs ?? 20); i++) {
    density.push((await time(() => getLaneDensity({ incidentId, bootId: boot.id, fromMs, toMs })))[1]);
    page.push((await time(() => getEventsPage({ incidentId, bootId: boot.id, fromMs, toMs, lanes: LANES, limit: 200 })))[1]);
  }
  return { bootEvents: n, rollup, densityMs: stats(density), firstPageMs: stats(page) };
}
