/**
 * Sample bundles for demos, tests and benchmarks: deterministic scenarios (same
 * parameters and seed, same bytes) with the values a correct bootline must find
 * (`truth`, including each detector's expected findings in `truth.detectors`). One
 * registry, `SCENARIOS`: healthy, calico (the startup race, with optional growing backoff and
 * runtime degradation), two-boots, istio-deadlock (the bootstrap deadlock), conflist-loop (the
 * rewrite loop), runtime-oom (the race while the kernel OOM-kills containerd: rule findings in
 * `truth.rules`); the patterns are described in docs/detectors.md.
 *
 *   generateScenario("calico", { seed: 7 })  -> { name, files: [{ path, content }], truth }
 *   writeBundleTarGz(scenario, "/tmp/x.tar.gz")
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { buildTarGz } from "../bundle/tar-build";
import {
  CALICO_NODENAME_DEFAULTS,
  generateCalicoNodename,
  generateHealthy,
  generateTwoBoots,
  type CalicoNodenameParams,
  type Scenario,
  type TwoBootsParams,
} from "./calico-boot";

import {
  CONFLIST_LOOP_DEFAULTS,
  ISTIO_DEADLOCK_DEFAULTS,
  generateConflistLoop,
  generateIstioDeadlock,
  type ConflistLoopParams,
  type IstioDeadlockParams,
} from "./agent-boot";
import { RUNTIME_OOM_DEFAULTS, generateRuntimeOom, type RuntimeOomParams } from "./runtime-oom";

export type { Scenario, ScenarioFile, ScenarioTruth, CalicoNodenameParams, HealthyParams, TwoBootsParams } from "./calico-boot";
export type { WindowTruth, TruthAttempt } from "./window-truth";
export type { IstioDeadlockParams, ConflistLoopParams } from "./agent-boot";
export type { RuntimeOomParams } from "./runtime-oom";
export type { DetectorTruth, PodRhythmTruth, NodeStormTruth, ConflistLoopTruth, DeadlockTruth, SignalTruth } from "./detector-truth";

/** A registry entry: name, description, parameter defaults and the generator (parameters not given keep the defaults). */
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
    description: "Calico startup race: every sandbox fails (Calico nodename missing) until calico-node writes /var/lib/calico/nodename.",
    defaults: { ...CALICO_NODENAME_DEFAULTS },
    generate: (p) => generateCalicoNodename(p as Partial<CalicoNodenameParams>),
  },
  {
    name: "two-boots",
    description: "A node with two boots in its journals: the Calico nodename race on the first, a healthy second boot 2 h later.",
    defaults: { ...CALICO_NODENAME_DEFAULTS, secondBootAfterS: 7200 },
    generate: (p) => generateTwoBoots(p as Partial<TwoBootsParams>),
  },
  {
    name: "istio-deadlock",
    description:
      "CNI bootstrap deadlock: istio-cni in sidecar mode; every pod, the istio-cni-node agent included, fails on the missing /var/run/istio-cni/istio-cni-kubeconfig and the window never closes (mode slow-start: the agent gets through and the window closes).",
    defaults: { ...ISTIO_DEADLOCK_DEFAULTS },
    generate: (p) => generateIstioDeadlock(p as Partial<IstioDeadlockParams>),
  },
  {
    name: "conflist-loop",
    description:
      "Conflist rewrite loop: Cilium (cni-exclusive) and the chained istio-cni agent rewrite /etc/cni/net.d/05-cilium.conflist in turns, `rate` writes/s for `durationS`.",
    defaults: { ...CONFLIST_LOOP_DEFAULTS },
    generate: (p) => generateConflistLoop(p as Partial<ConflistLoopParams>),
  },
  {
    name: "runtime-oom",
    description:
      "The Calico nodename race while the kernel OOM-kills containerd twice inside the failure window (`oomAtS`, s after T+0): the window and the rule oom-kill-runtime on one timeline.",
    defaults: { ...RUNTIME_OOM_DEFAULTS },
    generate: (p) => generateRuntimeOom(p as Partial<RuntimeOomParams>),
  },
];

/** Generate a scenario by name; unknown names throw with the list of known ones. */
export function generateScenario(name: string, params: Record<string, unknown> = {}): Scenario {
  const entry = SCENARIOS.find((s) => s.name === name);
  if (!entry) throw new Error(`unknown scenario "${name}" (known: ${SCENARIOS.map((s) => s.name).join(", ")})`);
  return entry.generate(params);
}

/**
 * The bytes of a scenario's bundle: a gzipped tar built in memory (lib/bundle/tar-build.ts)
 * with member paths `./<path>`, as the EKS log collector writes them.
 * Members carry the collection time as their mtime and root ownership, so the archive is
 * the same on every run.
 */
export function bundleTarGz(scenario: Scenario): Buffer {
  return buildTarGz(scenario.files.map((f) => ({ path: `./${f.path}`, content: f.content, mtimeMs: scenario.truth.collectedMs })));
}

/** Write `bundleTarGz(scenario)` to `outPath` (its folder is created when missing). */
export async function writeBundleTarGz(scenario: Scenario, outPath: string): Promise<void> {
  await mkdir(dirname(outPath), { recursive: true });
  await writeFile(outPath, bundleTarGz(scenario));
}
