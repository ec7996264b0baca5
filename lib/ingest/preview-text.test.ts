import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors";
import { caseText } from "../../tests/cases/cases";
import { describeFormat, PREVIEW_MAX_BYTES, previewText } from "./preview-text";

const NOW = Date.UTC(2026, 2, 14, 3, 0, 0);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("previewText", () => {
  it("shows the findings of rules (rules/*.yaml) on a pasted kernel journal", () => {
    const text = [
      "Dec 02 08:14:00 ip-10-0-3-17 kernel: Linux version 5.15.0-1051-aws (buildd@lcy02-amd64-018) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #56-Ubuntu SMP Thu Nov 30 10:12:44 UTC 2026",
      "Dec 02 08:15:40 ip-10-0-3-17 kernel: Out of memory: Killed process 1432 (containerd) total-vm:2458624kB, anon-rss:912344kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:2212kB oom_score_adj:-999",
      "Dec 02 08:34:41 ip-10-0-3-17 kernel: EXT4-fs (nvme1n1): Remounting filesystem read-only",
    ].join("\n");
    const p = previewText({ text, year: 2026, nowMs: Date.UTC(2026, 11, 2, 10) });
    expect(p.detectorErrors).toEqual([]);
    expect(p.nodes[0].boots[0].findings).toEqual([
      { detector: "rule:oom-kill-runtime", severity: "critical", title: "The kernel killed the container runtime (containerd) for memory" },
      { detector: "rule:filesystem-read-only", severity: "critical", title: "A filesystem was remounted read-only (nvme1n1)" },
    ]);
  });

  it("bare dockershim klog (case 079, year 2020): klog, 2 records, 1 attempt, calico-nodename-missing, node named after the paste", () => {
    const p = previewText({ text: caseText("079-klog-calico-nodename-triple.log"), name: "pasted-2026-03-14-0300.log", year: 2020, nowMs: NOW });
    expect(p.files).toHaveLength(1);
    const f = p.files[0];
    expect(f).toMatchObject({
      format: "klog",
      records: 2,
      timed: 2,
      lines: 2,
      blank: 0,
      linesRead: 2,
      read: true,
      components: ["kubelet"],
      yearSource: "user",
    });
    expect(f.description).toMatch(/klog/);
    expect(f.node).toBe("pasted-2026-03-14-0300");
    expect(f.nodeUnnamed).toBe(true);
    expect(iso(f.firstMs)).toBe("2020-04-21T19:45:18.491Z");
    expect(iso(f.lastMs)).toBe("2020-04-21T19:45:18.492Z");

    expect(p.nodes.map((n) => [n.name, n.unnamed])).toEqual([["pasted-2026-03-14-0300", true]]);
    const [boot] = p.nodes[0].boots;
    expect(boot.approximate).toBe(true); // no boot marker: T+0 is the earliest record
    expect(iso(boot.startMs)).toBe("2020-04-21T19:45:18.491Z");
    expect(boot.attempts).toBe(1);
    expect(boot.windows).toHaveLength(1);
    const w = boot.windows[0];
    expect(w).toMatchObject({ attempts: 1, pods: 1, errorClass: "calico-nodename-missing", endMs: null });
    expect(iso(w.firstMs)).toBe("2020-04-21T19:45:18.491Z");
    expect(iso(w.lastMs)).toBe("2020-04-21T19:45:18.492Z");
    expect(p.unplaced).toBe(0);
    expect(p.detectorErrors).toEqual([]);
  });

  it("the node option names the node: no mark", () => {
    const p = previewText({ text: caseText("079-klog-calico-nodename-triple.log"), name: "pasted.log", node: "worker-7", year: 2020, nowMs: NOW });
    expect(p.files[0].node).toBe("worker-7");
    expect(p.files[0].nodeUnnamed).toBe(false);
    expect(p.nodes.map((n) => [n.name, n.unnamed])).toEqual([["worker-7", false]]);
  });

  it("a journal with a hostname (case 009) names its node; network-not-ready reports are no attempts", () => {
    const p = previewText({ text: caseText("009-kubelet-cni-not-initialized-5s-journal-header.log"), nowMs: NOW });
    const f = p.files[0];
    expect(f.format).toBe("journal-short");
    expect(f.records).toBe(4);
    expect(f.timed).toBe(4);
    expect(f.read).toBe(true);
    expect(f.node).toBe("node-p");
    expect(f.nodeUnnamed).toBe(false);
    expect(iso(f.firstMs)).toBe("2023-04-17T02:26:30.150Z");
    expect(p.nodes.map((n) => n.name)).toEqual(["node-p"]);
    expect(p.nodes[0].boots.reduce((n, b) => n + b.attempts, 0)).toBe(0);
    expect(p.nodes[0].boots.flatMap((b) => b.windows)).toEqual([]);
  });

  it("describe events with the collection time (case 013): 1 attempt from relative ages", () => {
    const p = previewText({ text: caseText("013-describe-events-sandboxchanged-x10.log"), collectedMs: Date.parse("2020-07-08T10:00:00Z"), nowMs: NOW });
    const f = p.files[0];
    expect(f.format).toBe("describe-events");
    expect(f.records).toBe(3);
    expect(f.read).toBe(true);
    const windows = p.nodes.flatMap((n) => n.boots.flatMap((b) => b.windows));
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({ attempts: 1, errorClass: "netplugin-no-error-message" });
    expect(iso(windows[0].firstMs)).toBe("2020-07-08T09:58:00.000Z");
  });

  it("text in no known format is not read, and says why", () => {
    const text = "hello there\nthis is not a log\njust some words\n";
    const p = previewText({ text, name: "notes.txt", nowMs: NOW });
    const f = p.files[0];
    expect(f.format).toBe("unknown");
    expect(f.read).toBe(false);
    expect(f.records).toBe(0);
    expect(f.lines).toBe(3);
    expect(f.explanation).toBe(
      "unknown-format: No line looks like a log record bootline knows (first line: `hello there`). Skipped lines by reason: unknown-format 3.",
    );
    expect(p.nodes).toEqual([]);
  });

  it("a paste read in part (2 klog lines, 5 other lines) is not read; the explanation looks at the unread lines", () => {
    const klog = caseText("079-klog-calico-nodename-triple.log").trimEnd();
    const text = `${klog}\nrandom words one\nrandom words two\nmore words\nother text\nlast text\n`;
    const p = previewText({ text, year: 2020, nowMs: NOW });
    const f = p.files[0];
    expect(f).toMatchObject({ format: "klog", records: 2, linesRead: 2, lines: 7, read: false });
    expect(f.explanation).toMatch(/^Only 29% of the lines were read as klog; the others look like `random words one`/);
  });

  it("refuses a text over the limit with payload_too_large", () => {
    const text = "x".repeat(PREVIEW_MAX_BYTES + 1);
    expect(() => previewText({ text, nowMs: NOW })).toThrow(ApiError);
    try {
      previewText({ text, nowMs: NOW });
    } catch (e) {
      expect((e as ApiError).code).toBe("payload_too_large");
      expect((e as ApiError).message).toMatch(/at most 5 MiB/);
    }
  });

  it("describes formats it knows and names the others", () => {
    expect(describeFormat("journal-short")).toMatch(/journalctl/);
    expect(describeFormat("some-new-format")).toBe("some new format lines");
  });
});
