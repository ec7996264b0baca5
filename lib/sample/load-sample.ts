/**
 * Loads the sample incident that `npm start` shows on a fresh database: the Calico
 * nodename race from the scenario generator: 40 DaemonSet pods retrying every 15 s while
 * calico-node takes 75 s after containerd starts to write its nodename (a slow datastore),
 * packed as the EKS-style tarball a reviewer would upload, and ingested through the same
 * pipeline as any upload. Returns the incident id.
 *
 * The delay is long enough for every pod to fail at least 4 times, the fewest from which the
 * retry-storm detector judges a pod's rhythm (`minPodAttempts`): with fewer, the story's
 * "every 15 s" would not show in its findings.
 */
import type { DbHandles } from "../db/connection";
import { buildTarGz } from "../bundle/tar-build";
import { claimBundle } from "../ingest/bundle-status";
import { enqueueBundle } from "../ingest/enqueue-bundle";
import { processBundle } from "../ingest/pipeline";
import { generateScenario } from "./index";

export const SAMPLE_PARAMS = { pods: 40, retryIntervalS: 15, nodenameDelayS: 75, eventsSkewS: 0, seed: 1 };
export const SAMPLE_TITLE = "Sample: node reboot, Calico nodename race (40 DaemonSet pods retrying every 15 s)";

export async function loadSampleIncident(db: DbHandles): Promise<string> {
  const s = generateScenario("calico", SAMPLE_PARAMS);
  const data = buildTarGz(s.files.map((f) => ({ path: `./${f.path}`, content: f.content, mtimeMs: s.truth.collectedMs })));
  const { incidentId, bundleId } = await enqueueBundle(db, { title: SAMPLE_TITLE, files: [{ name: s.truth.archiveName, data }] });
  await claimBundle(db.sql, bundleId);
  const r = await processBundle(db, bundleId);
  if (r.status !== "ready") throw new Error(`sample incident failed to load: ${r.error}`);
  return incidentId;
}
