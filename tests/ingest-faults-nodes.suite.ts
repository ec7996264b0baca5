/**
 * Faults of the store at the first, a middle and the last node of a bundle of more nodes than the
 * ingest threads + 2 (the window of nodes in flight), with each node stored as parsed and with
 * every node parsed first (lib/ingest/pipeline.ts `processBundle` with way `as-parsed` or
 * `after-parse`: lib/ingest/ingest-nodes.ts), shared by ingest-faults-nodes.pg.test.ts and
 * ingest-faults-nodes.pglite.test.ts.
 * Each fault must end its bundle `failed` with the plain reason the product shows, leave no
 * transaction, advisory lock, stored row or held event behind, and the next upload (the same
 * bundle, no fault) must land.
 *
 * Faults come from the database itself, inside the statement that stores that node's rows: a
 * trigger (`FAULT_SQL`) on `Event`, `SourceBlock` or `Boot` fires for the rows of the chosen node
 * and either raises an error with a real SQLSTATE (`constraint`: 23505, `disk-full`: 53100, as
 * PostgreSQL raises them) or, for the faults that come from outside the statement (PostgreSQL
 * only), waits on a table the test holds locked (`gate`) while the test terminates the backend
 * (`pg_terminate_backend`), cancels its statement (`pg_cancel_backend`) or cuts its connection
 * (the database is reached through a TCP proxy of the test, which closes both sockets: a lost
 * network, seen by neither side as a message).
 */
import { buildTarGz } from "../lib/bundle/tar-build";
import type { DbHandles } from "../lib/db/connection";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { heldStates } from "../lib/ingest/ingest-pool";
import { processBundle, type IngestWay } from "../lib/ingest/pipeline";
import { generateScenario } from "../lib/sample/index";
import { expect } from "vitest";

/** Nodes of the test bundle: more than the window of nodes in flight (threads + 2, at most 4 + 2). */
export const NODES = 7;

/** The node names of the bundle, in the order they are stored (name order). */
export const NODE_NAMES = Array.from({ length: NODES }, (_, i) => `ip-10-40-0-${i + 1}.ec2.internal`).sort((a, b) => a.localeCompare(b));

/** Where in the bundle a fault falls: the first, a middle and the last node stored. */
export const POSITIONS = { first: NODE_NAMES[0], middle: NODE_NAMES[Math.floor(NODES / 2)], last: NODE_NAMES[NODES - 1] } as const;
export type Position = keyof typeof POSITIONS;

/**
 * A generated cluster reboot of `NODES` nodes (the Calico scenario, as scripts/load.ts
 * `--generate-nodes` builds it, smaller): one EKS collector `.tar.gz` per node inside one
 * `.tar.gz`. Every node has its boots, events and source blocks.
 */
export function clusterBundle(): { name: string; data: Buffer } {
  const scenario = generateScenario("calico", { pods: 6, nodenameDelayS: 120, retryIntervalS: 15, seed: 7 });
  const node0 = scenario.truth.node;
  const members = NODE_NAMES.map((name, i) => {
    const files = scenario.files.map((f) => ({
      path: `./${f.path}`,
      content: f.content.split(node0).join(name),
      mtimeMs: scenario.truth.collectedMs,
    }));
    return { path: `eks_${name}_2026-03-14_0300-UTC.tar.gz`, content: buildTarGz(files), mtimeMs: scenario.truth.collectedMs + i };
  });
  return { name: `cluster-${NODES}-nodes.tar.gz`, data: buildTarGz(members) };
}

/**
 * The fault trigger: `fault_plan` holds at most one row (table, node, kind); a row of that table
 * on that node (SourceBlock: of a file of that node) raises the kind's error, or waits on
 * `fault_gate` (kind `gate`). Plain PL/pgSQL, on PostgreSQL and PGlite alike.
 */
export const FAULT_SQL = `
CREATE TABLE fault_plan (tbl text NOT NULL, node text NOT NULL, kind text NOT NULL);
CREATE TABLE fault_gate (x int);
CREATE FUNCTION fault_fire() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
  n text;
BEGIN
  SELECT * INTO p FROM fault_plan WHERE tbl = TG_TABLE_NAME LIMIT 1;
  IF NOT FOUND THEN RETURN NEW; END IF;
  IF TG_TABLE_NAME = 'SourceBlock' THEN
    SELECT "nodeName" INTO n FROM "SourceFile" WHERE id = NEW."fileId";
  ELSE
    SELECT name INTO n FROM "Node" WHERE id = NEW."nodeId";
  END IF;
  IF n IS DISTINCT FROM p.node THEN RETURN NEW; END IF;
  IF p.kind = 'gate' THEN
    LOCK TABLE fault_gate IN SHARE MODE;
  ELSIF p.kind = 'constraint' THEN
    RAISE EXCEPTION 'duplicate key value violates unique constraint "%_pkey"', TG_TABLE_NAME USING ERRCODE = 'unique_violation';
  ELSIF p.kind = 'disk-full' THEN
    RAISE EXCEPTION 'could not extend file "base/16384/16385": No space left on device' USING ERRCODE = 'disk_full';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER fault_event BEFORE INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION fault_fire();
CREATE TRIGGER fault_block BEFORE INSERT ON "SourceBlock" FOR EACH ROW EXECUTE FUNCTION fault_fire();
CREATE TRIGGER fault_boot BEFORE INSERT ON "Boot" FOR EACH ROW EXECUTE FUNCTION fault_fire();
`;

/** The reasons the product shows (lib/ingest/bundle-status.ts `plainReason`). */
export const REASONS = {
  terminated: "the database server terminated the connection while the bundle was being stored",
  lost: "the database connection was lost while the bundle was being stored",
  cancelled: "the database cancelled a statement while the bundle was being stored",
  constraint: "the database refused a row of the bundle as breaking one of its constraints",
  diskFull: "the database ran out of disk space while the bundle was being stored",
} as const;

export type Table = "Event" | "SourceBlock" | "Boot";

/** The test's hooks into the database under test. */
export interface FaultHarness {
  /** the app's handles (processBundle runs on them) */
  app(): DbHandles;
  /**
   * Runs `ingest` with the fault of `kind` armed at `table` rows of `node`: `raise` kinds by the
   * trigger alone; `outside` kinds (PostgreSQL) hold the gate, wait for the backend to wait on it
   * and apply the fault to it, then let the gate go. Resolves with what `ingest` resolved.
   */
  withFault<T>(table: Table, node: string, kind: FaultKind, ingest: () => Promise<T>): Promise<T>;
  /** what a failed bundle must not leave in the database: waits for the store's backends to end, then checks */
  expectDatabaseClean(bundleId: string): Promise<void>;
}

export type FaultKind = "constraint" | "disk-full" | "terminate" | "cancel" | "lost";

/** The reasons a fault may end its bundle with. */
export function reasonsOf(kind: FaultKind): string[] {
  switch (kind) {
    case "constraint":
      return [REASONS.constraint];
    case "disk-full":
      return [REASONS.diskFull];
    case "cancel":
      return [REASONS.cancelled];
    case "lost":
      return [REASONS.lost];
    case "terminate":
      // the server sends its FATAL message and closes the socket: the driver reports the one or,
      // when a COPY was writing into the closing socket, the closed connection first
      return [REASONS.terminated, REASONS.lost];
  }
}

let uploads = 0;

/** Uploads the cluster bundle into a new incident and runs it `way`; returns the bundle's row after the run. */
export async function runBundle(
  db: DbHandles,
  way: IngestWay,
): Promise<{ id: string; status: string; error: string | null; counts: { events?: number; ingestPath?: string } | null }> {
  const { bundleId } = await enqueueBundle(db, { title: `faults ${++uploads}`, files: [clusterBundle()] });
  await processBundle(db, bundleId, { way });
  const [b] = await db.sql.query<{ status: string; error: string | null; counts: { events?: number; ingestPath?: string } | null }>(
    `SELECT status, error, counts FROM "Bundle" WHERE id = $1`,
    [bundleId],
  );
  return { id: bundleId, ...b };
}

/** What nothing of a failed bundle may leave on the ingest threads. */
export async function expectThreadsClean(): Promise<void> {
  for (const s of await heldStates()) expect(s).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
}

/**
 * One fault case: the bundle fails with the kind's reason, leaves nothing behind, and the same
 * bundle uploaded again (no fault) lands whole, the same way.
 */
export async function faultCase(
  h: FaultHarness,
  way: Exclude<IngestWay, "auto">,
  table: Table,
  position: Position,
  kind: FaultKind,
  events: number,
): Promise<void> {
  const db = h.app();
  const failed = await h.withFault(table, POSITIONS[position], kind, () => runBundle(db, way));
  expect(failed.status, `${kind} at ${table} of the ${position} node (${way})`).toBe("failed");
  expect(reasonsOf(kind)).toContain(failed.error);
  await h.expectDatabaseClean(failed.id);
  await expectThreadsClean();

  const next = await runBundle(db, way);
  expect(next.error).toBeNull();
  expect(next.status).toBe("ready");
  expect(next.counts?.ingestPath).toBe(way);
  expect(next.counts?.events).toBe(events);
  await expectThreadsClean();
}

/** Rows a failed bundle must not leave: events, files, blocks, boots (of its incident). */
export async function expectNoRows(db: DbHandles, bundleId: string): Promise<void> {
  const [r] = await db.sql.query<{ events: number; files: number; boots: number }>(
    `SELECT (SELECT count(*)::int FROM "Event" WHERE "bundleId" = $1) AS events,
            (SELECT count(*)::int FROM "SourceFile" WHERE "bundleId" = $1) AS files,
            (SELECT count(*)::int FROM "Boot" WHERE "incidentId" = (SELECT "incidentId" FROM "Bundle" WHERE id = $1)) AS boots`,
    [bundleId],
  );
  expect(r).toEqual({ events: 0, files: 0, boots: 0 });
}
