/**
 * Micro-bench of redaction: `npx tsx lib/redact/bench.ts [--mb N] [--compare path/to/other-redact.ts]`.
 *
 * Times `redact` over about N MB (default 20, 10^6 bytes) of generated log text of four kinds,
 * whole text in one call and line by line, median of 5 runs, and prints MB/s and ns per line:
 * - `plain`: kubelet and containerd lines holding no trigger of any rule (the pre-check alone);
 * - `near`: every line holds a trigger (`token=n/a`, a URL, `secrets`, `broken pipe`) but no secret;
 * - `mixed`: plain lines with one secret line in 100;
 * - `dense`: every line holds a secret.
 * With `--compare`, the same for the `redact` exported by another module (an older version).
 * Prints one JSON object with `--json`.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { redact as current } from "./redact";

type Redact = (text: string) => { text: string; total: number };

const PLAIN = [
  'Mar 14 02:10:07 node-a kubelet[1234]: I0314 02:10:07.123456    1234 kubelet.go:2321] "SyncLoop (PLEG): event for pod" pod="kube-system/calico-node-x2" event={"ID":"4f1c","Type":"ContainerStarted"}',
  'Mar 14 02:10:07 node-a containerd[987]: time="2026-03-14T02:10:07.123456789Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:coredns-5d78c9869d-abcde,Namespace:kube-system,}"',
  "Mar 14 02:10:08 node-a kernel: [   12.345678] IPv6: ADDRCONF(NETDEV_CHANGE): cali12ab34cd56e: link becomes ready",
  'Mar 14 02:10:08 node-a kubelet[1234]: E0314 02:10:08.000001    1234 pod_workers.go:1298] "Error syncing pod, skipping" err="network is not ready: container runtime network not ready"',
];
const NEAR = [
  'Mar 14 02:10:07 node-a kubelet[1234]: I0314 02:10:07.123456 1234 kubelet.go:2321] "SyncLoop" pod="kube-system/token-cleaner-x2" token=n/a url=https://10.96.0.1:443/api',
  'Mar 14 02:10:07 node-a kubelet[1234]: I0314 02:10:07.2 1234 reconciler.go:352] "MountVolume.SetUp succeeded" volume="kube-api-access" secrets="default-token"',
  'Mar 14 02:10:07 node-a containerd[987]: time="2026-03-14T02:10:07Z" level=error msg="write /dev/stdout: broken pipe" password policy unchanged',
];
const SECRETS = [
  "Mar 14 02:10:09 node-a kubelet[1234]: Authorization: Basic YWRtaW46aHVudGVyMg==",
  "Mar 14 02:10:09 node-a app[55]: connect user=root password=hunter2 host=db",
  "Mar 14 02:10:09 node-a app[55]: GITHUB_TOKEN=ghp_R2d2C3poBb8Ll0Yy5Ww1Qq4Zz6Xx9Vv7Nn3Mm",
  "Mar 14 02:10:09 node-a app[55]: slack xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
  "    token: kubeconfig-user-access-token-value",
];

function build(kind: "plain" | "near" | "mixed" | "dense", bytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const l =
      kind === "plain"
        ? PLAIN[i % PLAIN.length]
        : kind === "near"
          ? NEAR[i % NEAR.length]
          : kind === "dense"
            ? SECRETS[i % SECRETS.length]
            : i % 100 === 99
              ? SECRETS[((i / 100) % SECRETS.length) | 0]
              : PLAIN[i % PLAIN.length];
    lines.push(l);
    size += l.length + 1;
  }
  return lines;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function time(fn: () => void, runs = 5): number {
  fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

function measure(redact: Redact, mb: number) {
  const out: Record<string, { wholeMBps: number; perLineNs: number; lines: number; redacted: number }> = {};
  for (const kind of ["plain", "near", "mixed", "dense"] as const) {
    const lines = build(kind, mb * 1e6);
    const text = lines.join("\n") + "\n";
    let redacted = 0;
    const whole = time(() => {
      redacted = redact(text).total;
    });
    const perLine = time(() => {
      for (const l of lines) redact(l);
    });
    out[kind] = {
      wholeMBps: Math.round(text.length / 1e6 / (whole / 1000)),
      perLineNs: Math.round((perLine * 1e6) / lines.length),
      lines: lines.length,
      redacted,
    };
  }
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const mb = Number(args[args.indexOf("--mb") + 1]) || 20;
  const compare = args.includes("--compare") ? args[args.indexOf("--compare") + 1] : null;
  const result: Record<string, unknown> = { mb, current: measure(current, mb) };
  if (compare) {
    const other = (await import(pathToFileURL(compare).href)) as { redact: Redact };
    result.compare = measure(other.redact, mb);
  }
  if (args.includes("--json")) console.log(JSON.stringify(result));
  else console.dir(result, { depth: 4 });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
