import { describe, expect, it } from "vitest";
import { MAX_WORD, NodeWords, POSTING_MAX, wordsOf } from "./thread-words";

/** The rows of `w` as [word, node, boot, n, ids] tuples. */
function rowsOf(w: NodeWords, nodeId: number | null): string[][] {
  return w
    .rows(nodeId)
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((r) => r.split("\t"));
}

const KUBELET =
  'RunPodSandbox from runtime service failed err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"0a7f3c\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"';

describe("NodeWords", () => {
  it("counts each word once per event, lower-cased, per boot, ids ascending", () => {
    const w = new NodeWords("ascii");
    w.add(7, 3, ["kube-system/coredns-5d78c9869d-x2x9p", "0a7f3c", KUBELET, null]);
    w.add(8, 3, [null, null, "Failed to stat /var/lib/calico/nodename", null]);
    w.add(9, 4, [null, null, "CALICO calico Calico", null]);
    const rows = rowsOf(w, 12);
    const of = (word: string, boot: string) => rows.find((r) => r[0] === word && r[2] === boot);
    // "failed" twice in event 7, once in 8: n counts events, not occurrences
    expect(of("failed", "3")).toEqual(["failed", "12", "3", "2", "{7,8}"]);
    expect(of("0a7f3c", "3")).toEqual(["0a7f3c", "12", "3", "1", "{7}"]);
    expect(of("calico", "3")).toEqual(["calico", "12", "3", "2", "{7,8}"]);
    expect(of("calico", "4")).toEqual(["calico", "12", "4", "1", "{9}"]);
    expect(of("runpodsandbox", "3")?.[3]).toBe("1");
    expect(rows.some((r) => /[A-Z]/.test(r[0]))).toBe(false);
    // the words of the pod name: runs of letters and digits
    expect(["kube", "system", "coredns", "5d78c9869d", "x2x9p"].every((x) => of(x, "3"))).toBe(true);
    // first-seen order within a boot, boots in order
    expect(rows[0]).toEqual(["kube", "12", "3", "1", "{7}"]);
    expect(rows.at(-1)?.[2]).toBe("4");
  });

  it("splits non-ASCII text as the database does in either mode", () => {
    const text = "Überprüfung fehlgeschlagen: Netzwerk nicht bereit (ÉTAT=échec) 网络 未就绪";
    const uni = new NodeWords("unicode");
    uni.add(1, null, [text]);
    expect(rowsOf(uni, null).map((r) => r[0])).toEqual(["überprüfung", "fehlgeschlagen", "netzwerk", "nicht", "bereit", "état", "échec", "网络", "未就绪"]);
    expect(rowsOf(new NodeWords("unicode"), null)).toEqual([]);
    const ascii = new NodeWords("ascii");
    ascii.add(1, null, [text]);
    expect(rowsOf(ascii, 2).map((r) => r[0])).toEqual(["berpr", "fung", "fehlgeschlagen", "netzwerk", "nicht", "bereit", "tat", "chec"]);
    expect(rowsOf(ascii, 2)).toEqual([]);
    // no node, no boot: \N
    const none = new NodeWords("ascii");
    none.add(5, null, ["Ready"]);
    expect(rowsOf(none, null)).toEqual([["ready", "\\N", "\\N", "1", "{5}"]]);
  });

  it("keeps a word's count past POSTING_MAX events and drops its ids; skips words over MAX_WORD", () => {
    const w = new NodeWords("ascii");
    const long = "a".repeat(MAX_WORD + 1);
    for (let id = 1; id <= POSTING_MAX + 2; id++) w.add(id, 1, [`NetworkNotReady ${long} sandbox${id % 3}`]);
    const rows = rowsOf(w, 1);
    expect(rows.find((r) => r[0] === "networknotready")).toEqual(["networknotready", "1", "1", String(POSTING_MAX + 2), "\\N"]);
    expect(rows.find((r) => r[0] === "sandbox1")?.[4].split(",").length).toBe(Math.ceil((POSTING_MAX + 2) / 3));
    expect(rows.some((r) => r[0].length > MAX_WORD)).toBe(false);
    expect(rows.find((r) => r[0] === "a".repeat(MAX_WORD))).toBeUndefined();
  });

  it("finds words that collide in the table's slots and words of many boots", () => {
    const w = new NodeWords("ascii");
    // 5,000 distinct words grow the table several times; every one keeps its own count
    for (let i = 0; i < 5000; i++) w.add(i + 1, i % 2, [`w${i} W${i} common`]);
    const rows = rowsOf(w, 1);
    expect(rows.length).toBe(5002);
    expect(rows.filter((r) => r[0] === "common").map((r) => [r[2], r[3]])).toEqual([
      ["0", "2500"],
      ["1", "2500"],
    ]);
    expect(rows.find((r) => r[0] === "w4321")).toEqual(["w4321", "1", "1", "1", "{4322}"]);
  });

  it("counts as wordsOf splits, whatever the words that came before (prefixes, case, past ASCII)", () => {
    const texts = ["x ab", "x abc", "x a", "x AB", "x ab-c", "x abé", "x ab", "Xab x", "x ab\u00a0ab", "x aB1", "x ab", "x ÉTAT ab", "x"];
    for (const mode of ["ascii", "unicode"] as const) {
      const w = new NodeWords(mode);
      // the reference: each word's events from wordsOf, in first-seen order
      const want = new Map<string, number[]>();
      texts.forEach((t, i) => {
        w.add(i + 1, 1, [t, t]);
        const out: string[] = [];
        wordsOf(t, mode, out);
        for (const x of out) {
          const ids = want.get(x) ?? [];
          if (ids.at(-1) !== i + 1) ids.push(i + 1);
          want.set(x, ids);
        }
      });
      expect(rowsOf(w, 1)).toEqual([...want].map(([x, ids]) => [x, "1", "1", String(ids.length), `{${ids.join(",")}}`]));
    }
  });
});

describe("wordsOf", () => {
  it("gives the runs of letters and digits, lower-cased, in order", () => {
    const out: string[] = [];
    wordsOf('E1203 10:00:14.512004 812 kuberuntime_sandbox.go:72] "Failed"', "ascii", out);
    expect(out).toEqual(["e1203", "10", "00", "14", "512004", "812", "kuberuntime", "sandbox", "go", "72", "failed"]);
  });
});
