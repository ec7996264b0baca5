/**
 * Write a sample node bundle (lib/sample):
 *
 *   npm run sample -- --scenario calico --out /tmp/x.tar.gz [--seed N] [--pods 20]
 *       [--retry-interval 15] [--nodename-delay 18] [--events-skew 0]
 *       [--boot-at 2026-03-14T02:10:00Z] [--node ip-10-20-30-40.ec2.internal] [--truth /tmp/x.truth.json]
 *       [--second-boot-after 7200]   (scenario two-boots)
 *       [--backoff steady|growing] [--backoff-cap 300] [--degrade-after 120]   (calico)
 *       [--mode deadlock|slow-start] [--agent-failures 2] [--duration 300]   (istio-deadlock)
 *       [--rate 4] [--duration 60] [--loop-start 30] [--cilium-log cri|slog|plain]   (conflist-loop)
 *       [--oom-at 25,50]   (runtime-oom: seconds after T+0 of each containerd OOM kill)
 *   npm run sample -- --list
 *
 * Prints the truth (expected boot, sandbox failure windows and the other detectors'
 * findings under `detectors`) as JSON on stdout, or
 * writes it to --truth; messages go to stderr. Exit 2 on bad arguments.
 */
import { writeFile } from "node:fs/promises";
import { SCENARIOS, generateScenario, writeBundleTarGz } from "../lib/sample/index";

const FLAG_TO_PARAM: Record<string, { key: string; type: "number" | "string" }> = {
  seed: { key: "seed", type: "number" },
  pods: { key: "pods", type: "number" },
  "retry-interval": { key: "retryIntervalS", type: "number" },
  "nodename-delay": { key: "nodenameDelayS", type: "number" },
  "events-skew": { key: "eventsSkewS", type: "number" },
  "boot-at": { key: "bootAt", type: "string" },
  node: { key: "node", type: "string" },
  "second-boot-after": { key: "secondBootAfterS", type: "number" },
  backoff: { key: "backoff", type: "string" },
  "backoff-cap": { key: "backoffCapS", type: "number" },
  "degrade-after": { key: "degradeAfterS", type: "number" },
  mode: { key: "mode", type: "string" },
  "agent-failures": { key: "agentFailures", type: "number" },
  duration: { key: "durationS", type: "number" },
  rate: { key: "rate", type: "number" },
  "loop-start": { key: "loopStartS", type: "number" },
  "cilium-log": { key: "ciliumLog", type: "string" },
  "oom-at": { key: "oomAtS", type: "string" },
};

function usage(msg?: string): never {
  if (msg) process.stderr.write(`sample: ${msg}\n`);
  process.stderr.write(
    "usage: npm run sample -- --scenario <" +
      SCENARIOS.map((s) => s.name).join("|") +
      "> --out <file.tar.gz> [--seed N] [--pods N] [--retry-interval S] [--nodename-delay S] [--events-skew S] [--boot-at ISO] [--node NAME] [--second-boot-after S] [--backoff steady|growing] [--backoff-cap S] [--degrade-after S] [--mode deadlock|slow-start] [--agent-failures N] [--duration S] [--rate N] [--loop-start S] [--cilium-log cri|slog|plain] [--oom-at S,S] [--truth FILE]\n",
  );
  process.exit(2);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opts: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--list") {
      for (const s of SCENARIOS) process.stdout.write(`${s.name}\t${s.description}\n`);
      return;
    }
    if (a === "--help" || a === "-h") usage();
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) usage(`unexpected argument ${a}`);
    const value = m[2] ?? args[++i];
    if (value === undefined) usage(`--${m[1]} needs a value`);
    opts[m[1]] = value;
  }
  const scenario = opts.scenario ?? usage("--scenario is required");
  const out = opts.out ?? usage("--out is required");
  const params: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(opts)) {
    if (flag === "scenario" || flag === "out" || flag === "truth") continue;
    const spec = FLAG_TO_PARAM[flag];
    if (!spec) usage(`unknown option --${flag}`);
    if (spec.type === "number") {
      const n = Number(value);
      if (!Number.isFinite(n)) usage(`--${flag} must be a number`);
      params[spec.key] = n;
    } else params[spec.key] = value;
  }
  let s;
  try {
    s = generateScenario(scenario, params);
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  await writeBundleTarGz(s, out);
  const truth = JSON.stringify(s.truth, null, 2) + "\n";
  if (opts.truth) await writeFile(opts.truth, truth);
  else process.stdout.write(truth);
  const w = s.truth.window;
  process.stderr.write(
    `sample: wrote ${out} (${s.files.length} files, scenario ${s.name}, node ${s.truth.node}, boot ${s.truth.bootKey})` +
      (w
        ? `; expected window T+${w.openedAfterBootS} s -> ${w.closedAfterBootS === null ? "open" : `T+${w.closedAfterBootS} s`}, ${w.attempts} attempts, ${w.pods} pods`
        : "; no failure window expected") +
      "\n",
  );
}

main().catch((err) => {
  process.stderr.write(`sample: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
