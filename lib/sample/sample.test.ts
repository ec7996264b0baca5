import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { list as tarList } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCENARIOS, generateScenario, writeBundleTarGz, type Scenario } from "./index";
import { createPrng } from "./prng";
import { expectedWindows } from "./window-truth";

const file = (s: Scenario, suffix: string) => s.files.find((f) => f.path.endsWith(suffix))!.content;

describe("scenario generator", () => {
  it("is deterministic: same parameters and seed, same bytes and truth; another seed differs", () => {
    const a = generateScenario("calico", { seed: 42 });
    const b = generateScenario("calico", { seed: 42 });
    expect(b).toEqual(a);
    const c = generateScenario("calico", { seed: 43 });
    expect(c.files.map((f) => f.content)).not.toEqual(a.files.map((f) => f.content));
    expect(createPrng(7).hex(16)).toBe(createPrng(7).hex(16));
  });

  it("writes the EKS collector layout", () => {
    const s = generateScenario("calico", {});
    expect(s.files.map((f) => f.path.replace(/[0-9a-f]{64}/, "<id>").replace(/calico-node-[a-z0-9]{5}_/, "calico-node-<x>_"))).toEqual([
      "kernel/dmesg.human.current",
      "kubelet/kubelet.log",
      "containerd/containerd-log.txt",
      "var_log/calico/cni/cni.log",
      "var_log/calico-node-<x>_kube-system_install-cni-<id>.log",
      "var_log/calico-node-<x>_kube-system_calico-node-<id>.log",
      "kubectl/events.json",
    ]);
    const kubelet = file(s, "kubelet/kubelet.log").split("\n");
    expect(kubelet).toContain(`-- Boot ${s.truth.bootKey} --`);
    expect(
      kubelet
        .filter((l) => l && !l.startsWith("-- "))
        .every((l) => /^Mar 14 \d{2}:\d{2}:\d{2} ip-10-20-30-40\.ec2\.internal (kubelet|systemd)\[\d+\]: /.test(l)),
    ).toBe(true);
    expect(JSON.parse(file(s, "kubectl/events.json")).kind).toBe("List");
  });

  it("each failed attempt prints the same sandbox id in containerd, the kubelet's lines and its event", () => {
    const s = generateScenario("calico", { seed: 5 });
    const containerd = file(s, "containerd-log.txt");
    const kubelet = file(s, "kubelet.log");
    const events = file(s, "events.json");
    for (const a of s.truth.attemptsDetail) {
      expect(containerd).toContain(`failed to setup network for sandbox \\"${a.sandboxId}\\"`);
      expect(containerd).toContain(`Failed to destroy network for sandbox \\"${a.sandboxId}\\"`);
      // klog: once quoted in err (x3 lines) and nested in "Error syncing pod" (escaped three levels)
      expect(kubelet.split(a.sandboxId).length - 1).toBe(4);
      expect(kubelet).toContain(`failed to setup network for sandbox \\\\\\"${a.sandboxId}\\\\\\"`);
      expect(events).toContain(a.sandboxId);
    }
  });

  it("truth agrees with the lines as written (scanned here without the detector)", () => {
    for (const params of [{}, { seed: 9, pods: 40, nodenameDelayS: 40 }, { seed: 11, pods: 6, retryIntervalS: 70, nodenameDelayS: 160 }]) {
      const s = generateScenario("calico", params);
      const fails = [
        ...file(s, "containerd-log.txt").matchAll(
          /time="([^"]+)" level=error msg="RunPodSandbox for &PodSandboxMetadata\{Name:([^,]+),Uid:[^,]+,Namespace:([^,]+),Attempt:\d+,\} failed, error"/g,
        ),
      ];
      const times = fails.map((m) => Date.parse(m[1].slice(0, 23) + "Z")).sort((a, b) => a - b);
      const pods = new Set(fails.map((m) => `${m[3]}/${m[2]}`));
      expect(fails.length).toBe(s.truth.attemptsDetail.length);
      const total = s.truth.windows.reduce((n, w) => n + w.attempts, 0);
      expect(total).toBe(fails.length);
      const w0 = s.truth.windows[0];
      const wl = s.truth.windows[s.truth.windows.length - 1];
      expect(w0.openedAfterBootS).toBe((times[0] - s.truth.t0Ms) / 1000);
      expect(wl.closedAfterBootS).toBe((times[times.length - 1] - s.truth.t0Ms) / 1000);
      expect(new Set(s.truth.attemptsDetail.map((a) => a.pod))).toEqual(pods);
      // the nodename is written after the last failure; every pod then gets its sandbox
      const calicoNode = s.files.find((f) => f.path.includes("_kube-system_calico-node-"))!.content;
      const nodename = /^(\S+) stderr F .*Using node name: /m.exec(calicoNode)!;
      expect(Date.parse(nodename[1])).toBeGreaterThan(times[times.length - 1]);
      const ok = [...file(s, "containerd-log.txt").matchAll(/Name:([^,]+),Uid:[^,]+,Namespace:([^,]+),Attempt:\d+,\} returns sandbox id/g)].map(
        (m) => `${m[2]}/${m[1]}`,
      );
      for (const p of pods) expect(ok).toContain(p);
    }
  });

  it("parameters change the storm: a longer nodename delay means more attempts per pod", () => {
    const short = generateScenario("calico", { seed: 2 }).truth.window!;
    const long = generateScenario("calico", { seed: 2, nodenameDelayS: 50 }).truth.window!;
    expect(short.pods).toBe(20);
    expect(long.pods).toBe(20);
    expect(long.attempts).toBeGreaterThanOrEqual(short.attempts + 2 * 20);
    expect(long.closedAfterBootS!).toBeGreaterThan(short.closedAfterBootS!);
  });

  it("two boots: the journals hold both separators in order; dmesg and events cover the second boot only", () => {
    const s = generateScenario("two-boots", { seed: 2 });
    expect(generateScenario("two-boots", { seed: 2 })).toEqual(s);
    const [a, b] = s.truth.boots;
    for (const path of ["kubelet/kubelet.log", "containerd/containerd-log.txt"]) {
      const seps = file(s, path)
        .split("\n")
        .filter((l) => l.startsWith("-- Boot "));
      expect(seps).toEqual([`-- Boot ${a.bootKey} --`, `-- Boot ${b.bootKey} --`]);
    }
    expect(b.t0Ms - s.truth.t0Ms).toBeGreaterThan(7000_000);
    expect(file(s, "dmesg.human.current")).toContain(new Date(b.t0Ms).toUTCString().slice(17, 25));
    const evTimes = (JSON.parse(file(s, "events.json")) as { items: Array<{ lastTimestamp: string }> }).items.map((i) => Date.parse(i.lastTimestamp));
    expect(Math.min(...evTimes)).toBeGreaterThanOrEqual(b.t0Ms);
  });

  it("healthy boot: no failed attempt, no window", () => {
    const s = generateScenario("healthy", { seed: 4 });
    expect(s.truth.windows).toEqual([]);
    expect(s.truth.window).toBeNull();
    expect(file(s, "containerd-log.txt")).not.toContain("failed, error");
  });

  it("rejects unknown scenarios and lists the known ones", () => {
    expect(SCENARIOS.map((s) => s.name)).toEqual(["healthy", "calico", "two-boots", "istio-deadlock", "conflist-loop", "runtime-oom"]);
    expect(() => generateScenario("nope")).toThrow(/known: healthy, calico, two-boots, istio-deadlock, conflist-loop, runtime-oom/);
  });

  it("rejects parameters outside their range", () => {
    expect(() => generateScenario("calico", { backoff: "linear" })).toThrow(/backoff/);
    expect(() => generateScenario("istio-deadlock", { mode: "other" })).toThrow(/mode/);
    expect(() => generateScenario("conflist-loop", { rate: 50 })).toThrow(/rate/);
    expect(() => generateScenario("conflist-loop", { ciliumLog: "json" })).toThrow(/ciliumLog/);
  });
});

describe("agent scenarios (istio-deadlock, conflist-loop)", () => {
  it.each(["istio-deadlock", "conflist-loop"])("%s is deterministic: same parameters and seed, same bytes; another seed differs", (name) => {
    const a = generateScenario(name, { seed: 42 });
    expect(generateScenario(name, { seed: 42 })).toEqual(a);
    expect(generateScenario(name, { seed: 43 }).files.map((f) => f.content)).not.toEqual(a.files.map((f) => f.content));
  });

  it("istio-deadlock: EKS layout, one node name in every source, the plugin's error as containerd and the kubelet print it", () => {
    const s = generateScenario("istio-deadlock", {});
    expect(s.files.map((f) => f.path.replace(/[0-9a-f]{64}/, "<id>").replace(/aws-node-[a-z0-9]{5}_/, "aws-node-<x>_"))).toEqual([
      "kernel/dmesg.human.current",
      "kubelet/kubelet.log",
      "containerd/containerd-log.txt",
      "var_log/aws-node-<x>_kube-system_aws-node-<id>.log",
      "kubectl/events.json",
    ]);
    const node = s.truth.node;
    for (const path of ["kubelet/kubelet.log", "containerd/containerd-log.txt"]) {
      const lines = file(s, path)
        .split("\n")
        .filter((l) => l && !l.startsWith("-- "));
      expect(lines.every((l) => l.split(" ")[3] === node)).toBe(true);
    }
    const items = (JSON.parse(file(s, "events.json")) as { items: Array<{ source: { host: string } }> }).items;
    expect(items.every((i) => i.source.host === node)).toBe(true);
    const containerd = file(s, "containerd-log.txt");
    expect(containerd).toMatch(
      /level=error msg="RunPodSandbox for &PodSandboxMetadata\{Name:istio-cni-node-[a-z0-9]{5},Uid:[^,]+,Namespace:istio-system,Attempt:\d+,\} failed, error" error="failed to setup network for sandbox \\"[0-9a-f]{64}\\": plugin type=\\"istio-cni\\" name=\\"istio-cni\\" failed \(add\): [^"]*\/var\/run\/istio-cni\/istio-cni-kubeconfig: no such file or directory"/,
    );
    expect(s.truth.detectors.deadlocks).toHaveLength(1);
    expect(s.truth.window!.endMs).toBeNull();
  });

  it("conflist-loop: istio-cni zap console with tabs (case 006) and Cilium logfmt without a time (case 003), inside CRI lines", () => {
    const s = generateScenario("conflist-loop", { rate: 2, durationS: 10 });
    const istio = s.files.find((f) => f.path.includes("_istio-system_install-cni-"))!.content.split("\n");
    const write = istio.find((l) => l.includes("(re)writing CNI config file"))!;
    expect(write).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z stdout F \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z\tinfo\tcni-agent\tconfiguration requires updates, \(re\)writing CNI config file at "\/host\/etc\/cni\/net\.d\/05-cilium\.conflist": istio-cni CNI config removed from CNI config file: \/host\/etc\/cni\/net\.d\/05-cilium\.conflist$/,
    );
    expect(istio.some((l) => /\tinfo\tfile modified: \/host\/etc\/cni\/net\.d\/\.05-cilium\.conflist\d+$/.test(l))).toBe(true);
    const cilium = s.files.find((f) => f.path.includes("_kube-system_cilium-agent-"))!.content.split("\n");
    expect(cilium).toContain(
      cilium.find((l) => /stderr F level=info msg="Wrote CNI configuration file to \/host\/etc\/cni\/net\.d\/05-cilium\.conflist" subsys=cni-config$/.test(l)),
    );
    const plain = generateScenario("conflist-loop", { rate: 2, durationS: 10, ciliumLog: "plain" });
    const text = plain.files
      .find((f) => f.path.startsWith("kubectl/logs/"))!
      .content.split("\n")
      .filter(Boolean);
    expect(text.every((l) => /^level=info msg="[^"]+" subsys=cni-config$/.test(l))).toBe(true);
    // 2 writes/s for 10 s: 21 writes, istio-cni first, then Cilium, in turns
    expect(s.truth.detectors.conflistLoops[0]).toMatchObject({ writes: 21, writers: ["istio-cni", "cilium"], durationS: 10 });
    expect(plain.truth.detectors.conflistLoops[0]).toMatchObject({ writes: 11, writers: ["istio-cni"] });
    // Cilium >= 1.18 (slog): the write lines only, the path in `destination`
    const slog = generateScenario("conflist-loop", { rate: 2, durationS: 10, ciliumLog: "slog" });
    const slogLines = slog.files
      .find((f) => f.path.includes("_kube-system_cilium-agent-"))!
      .content.split("\n")
      .filter(Boolean);
    expect(slogLines).toHaveLength(11); // the install-time write and 10 in the loop
    for (const l of slogLines)
      expect(l).toMatch(
        /^\S+ stderr F time=\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z level=info source=\/go\/src\/github\.com\/cilium\/cilium\/daemon\/cmd\/cni\/config\.go:\d+ msg="Wrote CNI configuration file" module=agent\.infra\.cni-config destination=\/host\/etc\/cni\/net\.d\/05-cilium\.conflist$/,
      );
    expect(slog.truth.detectors.conflistLoops[0]).toMatchObject({
      writes: 21,
      writers: ["istio-cni", "cilium"],
      writesByWriter: { "istio-cni": 11, cilium: 10 },
      turns: 20,
    });
  });

  it("calico: degradation lines only when the storm outlasts degradeAfterS; growing backoff doubles the interval", () => {
    const long = generateScenario("calico", { seed: 4, pods: 10, nodenameDelayS: 200 });
    expect(file(long, "containerd-log.txt")).toContain('msg="ttrpc: received message on inactive stream"');
    expect(file(long, "kubelet.log")).toContain("PLEG is not healthy: pleg was last seen active");
    expect(long.truth.detectors.degradation).not.toBeNull();
    const off = generateScenario("calico", { seed: 4, pods: 10, nodenameDelayS: 200, degradeAfterS: 0 });
    expect(file(off, "containerd-log.txt")).not.toContain("ttrpc");
    expect(off.truth.detectors.degradation).toBeNull();
    expect(generateScenario("calico", {}).truth.detectors.degradation).toBeNull();
    const g = generateScenario("calico", { seed: 5, pods: 3, backoff: "growing", retryIntervalS: 10, nodenameDelayS: 200, degradeAfterS: 0 });
    const pod = g.truth.attemptsDetail[0].pod;
    const times = g.truth.attemptsDetail.filter((a) => a.pod === pod).map((a) => a.failedAtMs);
    const gaps = times.slice(1).map((t, i) => (t - times[i]) / 1000);
    gaps.forEach((x, i) => expect(Math.abs(x - 10 * 2 ** i)).toBeLessThan(1.7));
  });
});

describe("expectedWindows (the truth's own reading of the definition)", () => {
  const t0 = 1_000_000;
  const at = (s: number, pod = "ns/a") => ({ pod, sandboxId: "x", failedAtMs: t0 + s * 1000 });
  const ok = (s: number, label = "sandbox created (ns/a)") => ({ atMs: t0 + s * 1000, label, success: true });
  it("closes on success + quiet, splits on quiet gaps, stays open otherwise", () => {
    const ws = expectedWindows(
      [at(10), at(20), at(100), at(110)],
      [ok(15), ok(30), { atMs: t0 + 25_000, label: "calico nodename written", success: false }],
      t0,
      "c",
    );
    expect(ws.map((w) => [w.openedAfterBootS, w.closedAfterBootS, w.attempts, w.closedBy])).toEqual([
      [10, 20, 2, "calico nodename written"],
      [100, null, 2, null],
    ]);
  });
});

describe("writeBundleTarGz", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "bootline-sample-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes ./-prefixed members, the same bytes on every run", async () => {
    const s = generateScenario("calico", { seed: 8, pods: 5 });
    const a = join(dir, "a.tar.gz");
    const b = join(dir, "b.tar.gz");
    await writeBundleTarGz(s, a);
    await writeBundleTarGz(s, b);
    const hash = async (p: string) =>
      createHash("sha256")
        .update(await readFile(p))
        .digest("hex");
    expect(await hash(a)).toBe(await hash(b));
    const entries: Array<{ path: string; size: number; mtime?: Date }> = [];
    await tarList({ file: a, onReadEntry: (e) => entries.push({ path: e.path, size: e.size, mtime: e.mtime }) });
    expect(entries.map((e) => e.path)).toEqual(s.files.map((f) => `./${f.path}`));
    expect(entries.map((e) => e.size)).toEqual(s.files.map((f) => Buffer.byteLength(f.content)));
    expect(entries[0].mtime?.getTime()).toBe(s.truth.collectedMs);
  });
});
