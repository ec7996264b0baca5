/**
 * The sample incident `npm start` loads on a fresh database (lib/sample/load-sample.ts: the Calico
 * nodename race, 40 DaemonSet pods), uploaded through the upload API so the end-to-end specs see
 * what a new user sees. Returns the incident with its node and boots.
 */
import type { APIRequestContext } from "@playwright/test";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundleTarGz, generateScenario } from "../lib/sample/index";
import { SAMPLE_PARAMS, SAMPLE_TITLE } from "../lib/sample/load-sample";
import { seedIncident } from "./fixtures";

export interface TSeededSample {
  id: string;
  node: string;
  /** boots in order: the inferred boot before the reboot, then the journal boot with the storm */
  boots: Array<{ id: number; bootKey: string; findings: number }>;
}

export async function seedSample(request: APIRequestContext, title = SAMPLE_TITLE): Promise<TSeededSample> {
  const s = generateScenario("calico", SAMPLE_PARAMS);
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-"));
  const file = path.join(dir, s.truth.archiveName);
  await writeFile(file, bundleTarGz(s));
  const id = await seedIncident(request, file, title);
  const inc = (await (await request.get(`/api/incidents/${id}`)).json()) as { nodes: Array<{ name: string; boots: TSeededSample["boots"] }> };
  return { id, node: inc.nodes[0].name, boots: inc.nodes[0].boots };
}

/** The timeline page of boot `bootKey` of the sample's node. */
export const timelineUrl = (s: TSeededSample, bootKey: string) => `/i/${s.id}/n/${encodeURIComponent(s.node)}/b/${encodeURIComponent(bootKey)}`;
