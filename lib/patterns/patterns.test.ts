/**
 * The pattern miner on the real-format cases (tests/cases): templates stable under changed ids
 * and numbers, distinct for distinct messages; the per-boot stats and their merge.
 */
import { describe, expect, it } from "vitest";
import { caseNames, caseText } from "../../tests/cases/cases";
import { parseCase } from "../testing/parse-cases";
import { BootMiners, MAX_BUCKETS } from "./boot-miner";
import { Drain, templateText } from "./drain";
import { MAX_TOKENS, WILDCARD, maskedTokens, maskToken } from "./mask";
import { likePatterns, mergePatterns, mergeSides, patternKey, sparkline } from "./merge";

function templatesOf(messages: string[]): Array<[string, number]> {
  const d = new Drain(() => ({ n: 0 }));
  for (const m of messages) d.addMessage(m).stats.n++;
  return d.clusters.map((c) => [templateText(c.tokens), c.stats.n]);
}

/** Every digit replaced by another (ids, counters, addresses, times change; the words do not). */
const otherDigits = (s: string) => s.replace(/\d/g, (d) => String((Number(d) + 3) % 10));

describe("masking", () => {
  it("masks numbers, addresses, paths and key=value values; keeps words and keys", () => {
    expect(maskedTokens("Started task kubelet (PID 3411) for container kubelet")).toEqual([
      "Started",
      "task",
      "kubelet",
      "(PID",
      WILDCARD,
      "for",
      "container",
      "kubelet",
    ]);
    expect(maskToken("podSandboxID=4c1e2f")).toBe("podSandboxID=<*>");
    expect(maskToken('pod="kube-system/coredns"')).toBe("pod=<*>");
    expect(maskToken("reason=Failed")).toBe("reason=Failed");
    expect(maskToken("10.244.0.1:53")).toBe(WILDCARD);
    expect(maskToken("/var/run/calico/nodename")).toBe(WILDCARD);
  });
  it("mines the first line only and cuts a long line to MAX_TOKENS, the last token standing for the rest", () => {
    expect(maskedTokens("panic: boom\ngoroutine 1 [running]:")).toEqual(["panic:", "boom"]);
    const long = maskedTokens(Array.from({ length: 100 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}`).join(" "));
    expect(long).toHaveLength(MAX_TOKENS);
    expect(long.at(-1)).toBe(WILDCARD);
  });
});

/** The masking spelled out: the first line, cut, split on spaces, each token masked. */
function referenceTokens(message: string): string[] {
  const nl = message.indexOf("\n");
  const first = nl === -1 ? message : message.slice(0, nl);
  const cut = first.length > 600;
  const raw = (cut ? first.slice(0, 600) : first).split(" ");
  if (cut) raw.pop();
  if (raw.length > MAX_TOKENS) return [...raw.slice(0, MAX_TOKENS - 1).map(maskToken), WILDCARD];
  return cut ? [...raw.map(maskToken), WILDCARD] : raw.map(maskToken);
}

describe("templates of the real-format cases", () => {
  it("the one-pass masking gives what masking each token of the split line gives, on every record of every case", () => {
    let n = 0;
    let want = 0;
    for (const name of caseNames()) {
      for (const r of parseCase(name).records) {
        for (const m of [r.message, `${r.message} ${"x1 y ".repeat(30)}`, r.message.repeat(4)]) expect(maskedTokens(m)).toEqual(referenceTokens(m));
        n++;
      }
      want += (JSON.parse(caseText(`expect/${name.replace(/\.log$/, ".json")}`)) as { records: number }).records;
    }
    // every record of every case was looked at (the cases' expected record counts)
    expect(n).toBe(want);
  });

  it("case 107 (talos kmsg, kubelet restarting): the five messages it repeats, with their counts", () => {
    const f = parseCase("107-kmsg-pri-kubelet-crashloop-5s.log");
    const t = templatesOf(f.records.map((r) => r.message));
    expect(t).toContainEqual(["[talos] service[kubelet](Running): Started task kubelet (PID <*> for container kubelet", 5]);
    expect(t).toContainEqual([
      '[talos] service[kubelet](Waiting): Error running Containerd(kubelet), going to restart forever: task "kubelet" failed: exit code <*>',
      4,
    ]);
    expect(t).toContainEqual(["[talos] service[kubelet](Preparing): Running pre state", 1]);
    expect(t).toContainEqual(["[talos] service[kubelet](Preparing): Creating service runner", 1]);
    expect(t.length).toBe(5);
  });
  it("case 009 (kubelet, CNI not initialised every 5 s): its four lines are one template", () => {
    const f = parseCase("009-kubelet-cni-not-initialized-5s-journal-header.log");
    const t = templatesOf(f.records.map((r) => r.message));
    expect(t).toEqual([
      [
        'Container runtime network not ready networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
        4,
      ],
    ]);
  });
  it("case 001 (calico StopPodSandbox): three different messages, three templates, sandbox ids masked", () => {
    const f = parseCase("001-calico-nodename-stopsandbox-journald.log");
    const t = templatesOf(f.records.map((r) => r.message));
    expect(t.map(([s]) => s)).toContain("Failed to stop sandbox podSandboxID=<*>");
    expect(t).toHaveLength(3);
  });
  it.each(caseNames())("%s: the same templates when every id and number differs", (name) => {
    const messages = parseCase(name).records.map((r) => r.message);
    expect(templatesOf(messages.map(otherDigits))).toEqual(templatesOf(messages).map(([t, n]) => [otherDigits(t), n]));
  });
  it("no template of any case takes two messages whose words differ where the template keeps a word", () => {
    for (const name of caseNames()) {
      const d = new Drain(() => [] as string[][]);
      for (const r of parseCase(name).records) d.addMessage(r.message).stats.push(maskedTokens(r.message));
      for (const c of d.clusters) for (const m of c.stats) c.tokens.forEach((t, i) => t === WILDCARD || expect(m[i]).toBe(t));
    }
  });
});

describe("per-boot stats and their merge", () => {
  const ev = (message: string, ts: number | null, lane = "kubelet", component = "kubelet") => ({ message, ts, lane, component });
  it("counts, first and last time, first event id, lanes and components per boot", () => {
    const m = new BootMiners();
    m.add(7, ev("Killing container with id 3f2a", 5_000), 100);
    m.add(7, ev("Killing container with id 9c1b", 2_000, "runtime", "containerd"), 101);
    m.add(8, ev("Killing container with id 11", 1_000), 102);
    const [b7, b8] = m.result();
    expect(b7.bootId).toBe(7);
    expect(b7.patterns).toEqual([
      {
        template: "Killing container with id <*>",
        count: 2,
        firstTs: 2_000,
        lastTs: 5_000,
        firstId: 101,
        lanes: ["kubelet", "runtime"],
        components: ["containerd", "kubelet"],
        bucketMs: 60_000,
        buckets: [[0, 2]],
      },
    ]);
    expect(b8.patterns[0]).toMatchObject({ count: 1, firstId: 102 });
  });
  it("keeps at most MAX_BUCKETS buckets, doubling their width, without losing a count", () => {
    const m = new BootMiners();
    for (let i = 0; i < 1000; i++) m.add(1, ev("tick", i * 60_000), i);
    const [p] = m.result()[0].patterns;
    expect(p.buckets.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(p.bucketMs).toBe(60_000 * 8);
    expect(p.buckets.reduce((s, [, n]) => s + n, 0)).toBe(1000);
    // 8-minute buckets, 96-minute bins: 12 buckets of 8 ticks each; the buckets past the end land in the last bin
    expect(sparkline(p, 0, 960 * 60_000, 10)).toEqual([96, 96, 96, 96, 96, 96, 96, 96, 96, 136]);
  });
  it("merges the rows of two bundles of a boot into one template, a wider template absorbing the narrower", () => {
    const a = new BootMiners();
    a.add(1, ev("Pulling image nginx", 1_000), 1);
    a.add(1, ev("Pulling image nginx", 2_000), 2);
    const b = new BootMiners();
    b.add(1, ev("Pulling image redis", 500), 10);
    b.add(1, ev("Pulling image nginx", 3_000), 11);
    const merged = mergePatterns([...a.result()[0].patterns, ...b.result()[0].patterns]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      template: "Pulling image <*>",
      count: 4,
      firstTs: 500,
      firstId: 10,
      lastTs: 3_000,
      key: patternKey("Pulling image <*>"),
    });
  });
  it("keeps each side's count and first time", () => {
    const side = (msgs: Array<[string, number]>) => {
      const m = new BootMiners();
      msgs.forEach(([s, t], i) => m.add(1, ev(s, t), i));
      return m.result()[0].patterns;
    };
    const out = mergeSides([
      side([
        ["Started kubelet", 10],
        ["Started kubelet", 20],
      ]),
      side([
        ["Started kubelet", 5],
        ["Node became not ready", 7],
      ]),
    ]);
    expect(out.map((p) => [p.template, p.sides.map((s) => s.count)])).toEqual([
      ["Started kubelet", [2, 1]],
      ["Node became not ready", [0, 1]],
    ]);
    expect(out[0].sides.map((s) => s.firstTs)).toEqual([10, 5]);
  });
  it("likePatterns: wildcards as %, LIKE's own characters escaped, a further line allowed", () => {
    expect(likePatterns("rate 100%_done <*> x=<*>")).toEqual(["rate 100\\%\\_done % x=%", "rate 100\\%\\_done % x=%\n%"]);
  });
});
