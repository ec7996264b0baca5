/**
 * Loads the sample incident that `npm start` shows on a fresh database: the Calico
 * nodename race (INCIDENTS.md pattern 2) from the scenario generator: 40 DaemonSet pods
 * retrying every 15 s while calico-node takes 40 s to write its nodename (a slow datastore;
 * INCIDENTS.md saw 14 to 22 s, longer makes the storm visible), packed as the EKS-style tarball a reviewer would upload, and ingested through the same
 * pipeline as any upload. Returns the incident id.
 */
import type { DbHandles } from "../db/connection";
import { buildTarGz } from "../bundle/tar-build";
import { enqueueBundle } from "../ingest/enqueue-bundle";
import { processBundle } from "../ingest/process-bundle";
import { generateScenario } from "./index";

export const SAMPLE_PARAMS = { pods: 40, retryIntervalS: 15, nodenameDelayS: 40, eventsSkewS: 0, seed: 1 };
export const SAMPLE_TITLE = "Sample: node reboot, Calico nodename race (40 DaemonSet pods retrying every 15 s)";

export async function loadSampleIncident(db: DbHandles): Promise<string> {
  const s = generateScenario("calico", SAMPLE_PARAMS);
  const data = buildTarGz(s.files.map((f) => ({ path: `./${f.path}`, content: f.content, mtimeMs: s.truth.collectedMs })));
  const { incidentId, bundleId } = await enqueueBundle(db, { title: SAMPLE_TITLE, files: [{ name: s.truth.archiveName, data }] });
  await db.sql.query(`UPDATE "Bundle" SET status = 'parsing' WHERE id = $1`, [bundleId]);
  const r = await processBundle(db, bundleId);
  if (r.status !== "ready") throw new Error(`sample incident failed to load: ${r.error}`);
  return incidentId;
}
