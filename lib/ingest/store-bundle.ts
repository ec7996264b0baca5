/**
 * The database half of ingest (ingest-nodes.ts runs it inside one transaction, so a bundle's
 * data is either all there or not at all): nodes, files, source blocks,
 * boots and findings, and the id blocks that let rows be formatted away from the database.
 *
 * Ids of `Event`, `Boot` and `SourceFile` rows are reserved in blocks from their sequences under
 * one advisory lock held until the transaction ends (every ingest takes it first), so worker
 * threads format rows and detectors cite evidence by id without reading the rows back. Only the events of other
 * bundles on boots that already existed are read from the store.
 */
import type { BootEvent, BootInfo, EventKind, Finding, Lane } from "../detect/types";
import type { SqlConn, SqlDb } from "../db/sql";
import type { AnalysedBoot, AnalysedFile } from "../model/event";
import { fileReason } from "./file-reason";
import { FINDING_COLUMNS, findingRows } from "./finding-rows";
import { detectorFields, k8sOfEvent } from "../model/boot-event";
import { detectBoot } from "./detect-boot";
import { detectorWants, rules } from "./rule-files";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The advisory lock every ingest transaction takes before reserving ids (held until it ends). */
export async function lockIngest(tx: SqlConn): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(72707370)`);
}

/** Reserves `n` consecutive ids of `table`'s id sequence; returns the first. Call after `lockIngest`. */
export async function reserveIds(tx: SqlConn, table: "Event" | "Boot" | "SourceFile", n: number): Promise<number> {
  const [r] = await tx.query<{ first: string }>(`SELECT nextval(pg_get_serial_sequence('"${table}"', 'id'))::text AS first`);
  const first = Number(r.first);
  if (n > 1) await tx.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), $1)`, [first + n - 1]);
  return first;
}

/** Inserts (or finds) the incident's nodes; returns name -> id. */
export async function upsertNodes(
  tx: SqlConn,
  incidentId: string,
  names: string[],
  aliases?: Map<string, string[]>,
  unnamed: ReadonlySet<string> = new Set(),
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const name of names) {
    // a name the incident knows as another node's alias (a node the reviewer renamed, an EKS instance id) is that node
    const [known] = await tx.query<{ id: number }>(`SELECT id FROM "Node" WHERE "incidentId" = $1 AND $2 = ANY(aliases) ORDER BY id LIMIT 1`, [
      incidentId,
      name,
    ]);
    if (known) {
      ids.set(name, known.id);
      continue;
    }
    // a node some log names stays named; one only the upload named keeps its mark until a log or the reviewer names it
    const [n] = await tx.query<{ id: number }>(
      `INSERT INTO "Node" ("incidentId", name, aliases, "nameSource") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("incidentId", name) DO UPDATE SET
         aliases = ARRAY(SELECT DISTINCT unnest("Node".aliases || EXCLUDED.aliases) ORDER BY 1),
         "nameSource" = CASE WHEN "Node"."nameSource" = 'upload' THEN EXCLUDED."nameSource" ELSE "Node"."nameSource" END
       RETURNING id`,
      [incidentId, name, aliases?.get(name) ?? [], unnamed.has(name) ? "upload" : "logs"],
    );
    ids.set(name, n.id);
  }
  return ids;
}

/** A boot the incident already has: its id and span (UTC ms). */
export interface KnownBoot {
  id: number;
  start: number;
  end: number | null;
}

/** The incident's boots before this bundle: `${nodeId}\t${bootKey}` -> boot. */
export async function knownBoots(tx: SqlConn, incidentId: string): Promise<Map<string, KnownBoot>> {
  const rows = await tx.query<{ id: number; nodeId: number; bootKey: string; start: Date; end: Date | null }>(
    `SELECT id, "nodeId", "bootKey", start, "end" FROM "Boot" WHERE "incidentId" = $1`,
    [incidentId],
  );
  return new Map(
    rows.map((r) => [`${r.nodeId}\t${r.bootKey}`, { id: r.id, start: new Date(r.start).getTime(), end: r.end ? new Date(r.end).getTime() : null }]),
  );
}

/** A boot to write: `known` when the incident had it (its span is widened), else inserted with `id`. */
export interface BootWrite {
  id: number;
  nodeId: number;
  boot: AnalysedBoot;
  known: boolean;
}

/** Writes boots: new ones with their reserved ids, known ones widened to cover this bundle's records. */
export async function writeBoots(tx: SqlConn, incidentId: string, boots: BootWrite[]): Promise<void> {
  const fresh = boots.filter((b) => !b.known);
  if (fresh.length) {
    await tx.query(
      `INSERT INTO "Boot" (id, "incidentId", "nodeId", "bootKey", start, "end", "detectedBy", "startApprox")
       SELECT b.id, $1, b."nodeId", b."bootKey", b.start, b."end", b."detectedBy", b."startApprox"
       FROM jsonb_to_recordset($2::jsonb) AS b(id int, "nodeId" int, "bootKey" text, start timestamptz, "end" timestamptz, "detectedBy" text, "startApprox" boolean)`,
      [
        incidentId,
        JSON.stringify(
          fresh.map((b) => ({
            id: b.id,
            nodeId: b.nodeId,
            bootKey: b.boot.bootKey,
            start: iso(b.boot.start),
            end: iso(b.boot.end),
            detectedBy: b.boot.detectedBy,
            startApprox: b.boot.startApprox,
          })),
        ),
      ],
    );
  }
  for (const b of boots.filter((x) => x.known)) {
    await tx.query(`UPDATE "Boot" SET start = LEAST(start, $2), "end" = GREATEST("end", $3) WHERE id = $1`, [b.id, iso(b.boot.start), iso(b.boot.end)]);
  }
}

/** Inserts the bundle's files in upload order with the ids reserved for them (`ids[i]` for `files[i]`). */
export async function insertFiles(tx: SqlConn, incidentId: string, bundleId: string, files: AnalysedFile[], ids: number[]): Promise<void> {
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    await tx.query(
      `INSERT INTO "SourceFile" (id, "bundleId", "incidentId", ord, path, status, reason, "duplicateOf", kind, format, "nodeName",
         "byteSize", lines, parsed, blank, skipped, records, "noTimestamp", continuation, banner, "outOfOrder",
         "skippedByReason", "firstTs", "lastTs", "timeZone", "zoneSource", "yearSource", "clockOffsetMs", aged, "sinceBoot", "unreadPatterns")
       VALUES ($28,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$29,$30,$31)`,
      [
        bundleId,
        incidentId,
        f.ord,
        f.path,
        f.status,
        fileReason(f),
        f.duplicateOf,
        f.kind,
        f.format,
        f.node,
        f.byteSize,
        f.counts.lines,
        f.counts.parsed,
        f.counts.blank,
        f.counts.skipped,
        f.counts.records,
        f.counts.noTimestamp,
        f.counts.continuation,
        f.counts.banner,
        f.counts.outOfOrder,
        JSON.stringify(f.counts.skippedByReason),
        iso(f.firstTs),
        iso(f.lastTs),
        f.timeZone,
        f.zoneSource,
        f.yearSource,
        f.clockOffsetMs ?? 0,
        ids[i],
        f.counts.aged ?? 0,
        f.counts.sinceBoot ?? 0,
        f.unreadPatterns?.length ? JSON.stringify(f.unreadPatterns) : null,
      ],
    );
  }
}

interface EventRow {
  id: string;
  ts: Date | null;
  fileId: number;
  line: number;
  component: string;
  lane: Lane;
  severity: number;
  kind: EventKind;
  pod: string | null;
  sandboxId: string | null;
  errorClass: string | null;
  message: string;
  fields: string | null;
}

/**
 * Runs every detector on boots whose events are (partly) in the store and replaces their
 * findings: a boot's events are the signal events given in memory plus the signal events the
 * store holds on that boot (kinds other than `log`, and the `log` lines a rule wants:
 * rule-files.ts `detectorWants`), except those of `excludeBundleId` (the bundle whose events are the
 * ones in memory; null: read all). Adding a bundle to an incident so updates the findings of the
 * boots it touched (detect-boot.ts runs the detectors). Returns the number of
 * findings stored and the detectors that failed.
 */
export async function detectFindings(
  tx: SqlConn,
  incidentId: string,
  boots: Map<number, { info: BootInfo; events: BootEvent[] }>,
  excludeBundleId: string | null,
): Promise<{ findings: number; failures: string[] }> {
  let stored = 0;
  const failures: string[] = [];
  for (const [bootId, { info, events }] of [...boots].sort((x, y) => x[0] - y[0])) {
    const others = await tx.query<EventRow>(
      `SELECT id::text AS id, ts, "fileId", line, component, lane, severity, kind, pod, "sandboxId", "errorClass", message, fields
       FROM "Event" WHERE "incidentId" = $1 AND "bootId" = $2 AND (kind <> 'log' OR lane = ANY($4::text[])) AND "bundleId" IS DISTINCT FROM $3
       ORDER BY id`,
      [incidentId, bootId, excludeBundleId, [...rules().logLanes]],
    );
    const all = events.concat(
      others.filter(detectorWants).map((r) => {
        const parsed = r.fields ? (JSON.parse(r.fields) as Record<string, unknown> & { k8s?: BootEvent["k8s"] }) : null;
        const k8s = parsed?.k8s ? k8sOfEvent(parsed.k8s) : null;
        return {
          id: Number(r.id),
          ts: r.ts ? new Date(r.ts).getTime() : null,
          fileId: r.fileId,
          line: r.line,
          component: r.component,
          lane: r.lane,
          severity: r.severity,
          kind: r.kind,
          pod: r.pod,
          sandboxId: r.sandboxId,
          errorClass: r.errorClass,
          message: r.message,
          k8s,
          fields: detectorFields(r.kind, parsed),
        };
      }),
    );
    const result = detectBoot(info, all);
    failures.push(...result.failures);
    stored += await replaceFindings(tx, incidentId, [{ bootId, findings: result.findings }]);
  }
  return { findings: stored, failures };
}

/** COPYs `findingRows` rows (of any boots) into `Finding`; returns how many rows went in. */
export async function storeFindingRows(tx: SqlConn, rows: string[]): Promise<number> {
  return rows.length ? tx.copyFrom("Finding", FINDING_COLUMNS, rows) : 0;
}

/**
 * Replaces the findings of each boot listed with its new ones: one DELETE, one SELECT of the
 * boots' nodes and one COPY, whatever the number of boots and findings (a storm gives hundreds
 * of per-pod findings per boot). Returns how many were stored. Throws when a boot is not stored.
 */
export async function replaceFindings(tx: SqlConn, incidentId: string, boots: Array<{ bootId: number; findings: Finding[] }>): Promise<number> {
  if (!boots.length) return 0;
  const bootIds = boots.map((b) => b.bootId);
  const nodeOf = new Map(
    (await tx.query<{ id: number; nodeId: number }>(`SELECT id, "nodeId" FROM "Boot" WHERE id = ANY($1::int[])`, [bootIds])).map((r) => [r.id, r.nodeId]),
  );
  const rows: string[] = [];
  for (const b of boots) {
    const nodeId = nodeOf.get(b.bootId);
    if (nodeId === undefined) throw new Error(`replaceFindings: boot ${b.bootId} is not stored`);
    rows.push(...findingRows(incidentId, nodeId, b.bootId, b.findings));
  }
  await tx.query(`DELETE FROM "Finding" WHERE "bootId" = ANY($1::int[])`, [bootIds]);
  return storeFindingRows(tx, rows);
}

/**
 * Fresh planner statistics for the rows an ingest just stored (`ANALYZE` of `Event` and
 * `EventDensity`): PGlite has no autovacuum, and without them the timeline's reads of a large boot
 * plan as if it held a few rows. `ANALYZE` and a search index being built `CONCURRENTLY` take the
 * same self-conflicting lock, so it waits at most `lockTimeoutMs` and is skipped after (the next
 * bundle's, or autovacuum on PostgreSQL, catches up). A failure is logged, never thrown (the bundle
 * is stored).
 */
export async function refreshPlannerStats(db: SqlDb, bundleId: string, lockTimeoutMs = 2_000): Promise<void> {
  await db
    .transaction(async (tx) => {
      await tx.exec(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
      await tx.exec(`ANALYZE "Event", "EventDensity"`);
    })
    .catch((e: Error) => console.warn(`bundle ${bundleId}: ANALYZE skipped: ${e.message}`));
}
