/**
 * Deletes an incident with all its data: events, source files and their stored
 * text, nodes, boots, findings, bundles, and uploads still waiting on disk. One transaction:
 * the incident is there whole or gone whole.
 *
 * `Event` and its per-second rollup `EventDensity` have no foreign keys (for COPY speed), so
 * their rows go first (events by incident, the rollup by the incident's boots); the schema's
 * ON DELETE CASCADE from `Incident` takes the rest. The incident row is locked
 * first: uploads and deletes of one incident do not interleave. After the commit, the search
 * data of its bundles (indexes, word and word-count tables) is dropped (lib/search/search-drop.ts).
 */
import { rmSync } from "node:fs";
import type { DbHandles } from "../db/connection";
import { ApiError } from "../http/errors";
import { uploadsDir } from "../ingest/uploads";
import { dropSearchData } from "../search/search-drop";

export interface DeleteIncidentResult {
  incidentId: string;
  bundles: number;
  events: number;
}

/** Throws `ApiError("not_found")` when there is no incident with that id. */
export async function deleteIncident(db: DbHandles, opts: { incidentId: string }): Promise<DeleteIncidentResult> {
  const { incidentId } = opts;
  const result = await db.sql.transaction(async (tx) => {
    const found = await tx.query<{ id: string }>(`SELECT id FROM "Incident" WHERE id = $1 FOR UPDATE`, [incidentId]);
    if (!found.length) return null;
    const bundles = await tx.query<{ id: string }>(`SELECT id FROM "Bundle" WHERE "incidentId" = $1`, [incidentId]);
    const ev = await tx.query<{ n: string }>(`WITH d AS (DELETE FROM "Event" WHERE "incidentId" = $1 RETURNING 1) SELECT count(*)::text AS n FROM d`, [
      incidentId,
    ]);
    // the per-second rollup has no foreign key either (schema.prisma EventDensity)
    await tx.query(`DELETE FROM "EventDensity" WHERE "bootId" IN (SELECT id FROM "Boot" WHERE "incidentId" = $1)`, [incidentId]);
    await tx.query(`DELETE FROM "Incident" WHERE id = $1`, [incidentId]);
    return { bundleIds: bundles.map((b) => b.id), events: Number(ev[0]?.n ?? 0) };
  });
  if (!result) throw new ApiError("not_found", `no incident ${incidentId}`);
  // its search indexes and word tables go too, without blocking reads (lib/search/search-drop.ts)
  await dropSearchData(db.sql, result.bundleIds);
  for (const id of result.bundleIds) rmSync(uploadsDir(id), { recursive: true, force: true });
  return { incidentId, bundles: result.bundleIds.length, events: result.events };
}
