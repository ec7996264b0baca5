/**
 * Sample bundles for demos, tests and benchmarks: deterministic scenarios (same
 * parameters and seed, same bytes) with the values a correct bootline must find
 * (`truth`). One registry, `SCENARIOS`; one entry per INCIDENTS.md pattern as they get
 * written.
 *
 *   generateScenario("calico", { seed: 7 })  -> { name, files: [{ path, content }], truth }
 *   writeBundleTarGz(scenario, "/tmp/x.tar.gz")
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { create as tarCreate } from "tar";
import {
  CALICO_NODENAME_DEFAULTS,
  generateCalicoNodename,
  generateHealthy,
  generateTwoBoots,
  type CalicoNodenameParams,
  type Scenario,
  type TwoBootsParams,
} from "./calico-boot";

export type { Scenario, ScenarioFile, ScenarioTruth, CalicoNodenameParams, HealthyParams, TwoBootsParams } from "./calico-boot";
export type { WindowTruth, TruthAttempt } from "./window-truth";

/** A registry entry: name, description, parameter defaults and the generator. */
export interface ScenarioEntry {
  name: string;
  description: string;
  /** defaults of the numeric/string parameters the CLI may override */
  defaults: Record<string, string | number>;
  generate(params: Record<string, unknown>): Scenario;
}

/** The scenario registry (names used by `npm run sample -- --scenario <name>`). */
export const SCENARIOS: readonly ScenarioEntry[] = [
  {
    name: "healthy",
    description: "A node reboot with Calico where calico-node writes its nodename before any pod needs a network: no failure window.",
    defaults: { node: CALICO_NODENAME_DEFAULTS.node, pods: CALICO_NODENAME_DEFAULTS.pods, eventsSkewS: 0, bootAt: CALICO_NODENAME_DEFAULTS.bootAt, seed: 1 },
    generate: (p) => generateHealthy(p as Partial<CalicoNodenameParams>),
  },
  {
    name: "calico",
    description: "INCIDENTS.md pattern 2: every sandbox fails (Calico nodename missing) until calico-node writes /var/lib/calico/nodename.",
    defaults: { ...CALICO_NODENAME_DEFAULTS },
    generate: (p) => generateCalicoNodename(p as Partial<CalicoNodenameParams>),
  },
  {
    name: "two-boots",
    description: "A node with two boots in its journals: the Calico nodename race on the first, a healthy second boot 2 h later.",
    defaults: { ...CALICO_NODENAME_DEFAULTS, secondBootAfterS: 7200 },
    generate: (p) => generateTwoBoots(p as Partial<TwoBootsParams>),
  },
];

/** Generate a scenario by name; unknown names throw with the list of known ones. */
export function generateScenario(name: string, params: Record<string, unknown> = {}): Scenario {
  const entry = SCENARIOS.find((s) => s.name === name);
  if (!entry) throw new Error(`unknown scenario "${name}" (known: ${SCENARIOS.map((s) => s.name).join(", ")})`);
  return entry.generate(params);
}

/**
 * Write a scenario's files as a gzipped tar (member paths `./<path>`, as the EKS log
 * collector writes them; FORMATS.md 1.1). Members carry the collection time as their
 * mtime and no owner names, so the archive is the same on every run.
 * Uses a temporary folder (removed afterwards) because `tar` packs files from disk.
 */
export async function writeBundleTarGz(scenario: Scenario, outPath: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "bootline-sample-"));
  try {
    for (const f of scenario.files) {
      const p = join(dir, f.path);
      await mkdir(dirname(p), { recursive: true });
      await writeFile(p, f.content);
    }
    await mkdir(dirname(outPath), { recursive: true });
    await tarCreate(
      { gzip: true, file: outPath, cwd: dir, portable: true, mtime: new Date(scenario.truth.collectedMs), noDirRecurse: true },
      scenario.files.map((f) => `./${f.path}`),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
