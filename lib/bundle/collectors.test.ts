/**
 * Collector layouts without the database (lib/bundle/collectors.ts): which collector, the
 * collection time each layout gives (exact UTC), nodes, noise and duplicates per file.
 */
import { describe, expect, it } from "vitest";
import { describeBundle, journalHostOf, parseCollectionDate } from "./collectors";
import type { UnpackedFile } from "./unpack";

/** Unpacked files of one archive (as unpack.ts lists them). */
function archive(name: string, files: Record<string, string>, mtimeMs?: number): UnpackedFile[] {
  return Object.entries(files).map(([p, c]) => ({ path: p, member: p, archive: name, upload: name, status: "read", data: Buffer.from(c), mtimeMs }));
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

describe("parseCollectionDate", () => {
  it.each([
    ["Mon May 19 04:31:02 UTC 2025", "2025-05-19T04:31:02.000Z"],
    ["Mon May  5 04:31:02 UTC 2025\n", "2025-05-05T04:31:02.000Z"],
    ["Mon May 19 13:31:02 +09 2025", "2025-05-19T04:31:02.000Z"],
    ["2025-05-19 04:31:02.123456789 +0000 UTC m=+0.123456789", "2025-05-19T04:31:02.000Z"],
    ["2025-05-19T06:31:02+02:00", "2025-05-19T04:31:02.000Z"],
    ["no date here", null],
  ])("%j → %s", (text, want) => {
    expect(iso(parseCollectionDate(text))).toBe(want);
  });
});

describe("journalHostOf", () => {
  it("takes the most common hostname of journal lines (short, short-iso, short-full, short-unix)", () => {
    expect(
      journalHostOf([
        "May 19 04:20:07 node-a kubelet[1]: x",
        "2025-05-19T04:20:07+00:00 node-a kubelet[1]: x",
        "Mon 2025-05-19 04:20:07 UTC node-b kubelet[1]: x",
        "1747628407.512401 node-a kubelet[1]: x",
        "not a journal line",
      ]),
    ).toBe("node-a");
    expect(journalHostOf(["plain text"])).toBeNull();
  });
});

describe("collection time per layout (year rule 4: archive name, collection files, member times, list-boots, event times)", () => {
  const journal = "May 19 04:20:07 ip-10-20-30-40 kubelet[1]: x\n";
  const table: Array<{ name: string; files: UnpackedFile[]; collector: string | null; want: string | null; source: string | null }> = [
    {
      name: "EKS archive name (UTC, minute: its last ms)",
      files: archive("eks_i-0abc123def4567890_2025-05-19_0431-UTC_0.7.9.tar.gz", {
        "kubelet/kubelet.log": journal,
        "system/instance-id.txt": "i-0abc123def4567890\n",
      }),
      collector: "eks-log-collector",
      want: "2025-05-19T04:31:59.999Z",
      source: "archive-name",
    },
    {
      name: "EKS hybrid (empty instance id) by its members",
      files: archive("eks__2025-05-19_0431-UTC_0.7.9.tar.gz", { "kubelet/kubelet.log": journal, "containerd/containerd-log.txt": journal }),
      collector: "eks-log-collector",
      want: "2025-05-19T04:31:59.999Z",
      source: "archive-name",
    },
    {
      name: "Rancher systeminfo/date wins over the folder name",
      files: archive("x.tar.gz", {
        "h-2025-05-19_04_31_02/systeminfo/date": "Mon May 19 04:31:09 UTC 2025\n",
        "h-2025-05-19_04_31_02/journald/kubelet": journal,
      }),
      collector: "rancher-logs-collector",
      want: "2025-05-19T04:31:09.000Z",
      source: "collection-file",
    },
    {
      name: "Rancher folder name",
      files: archive("x.tar.gz", { "h-2025-05-19_04_31_02/journald/kubelet": journal }),
      collector: "rancher-logs-collector",
      want: "2025-05-19T04:31:02.000Z",
      source: "archive-name",
    },
    {
      name: "sos friendly name: the end of that day",
      files: archive("s.tar.xz", {
        "sosreport-h-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager": journal,
        "sosreport-h-2025-05-19-abcdefg/version.txt": "sosreport: 4.5.6\n",
      }),
      collector: "sosreport",
      want: "2025-05-19T23:59:59.999Z",
      source: "archive-name",
    },
    {
      name: "sos legacy name",
      files: archive("s.tar.xz", {
        "sosreport-h.01234567-20250519043102/sos_commands/logs/journalctl_--no-pager": journal,
        "sosreport-h.01234567-20250519043102/sos_reports/manifest.json": "{}",
      }),
      collector: "sosreport",
      want: "2025-05-19T04:31:02.000Z",
      source: "archive-name",
    },
    {
      name: "must-gather timestamp file",
      files: archive("mg.tar.gz", {
        "must-gather.local.1/img/timestamp": "2025-05-19 04:31:02.5 +0000 UTC m=+0.1\n",
        "must-gather.local.1/img/host_service_logs/masters/kubelet_service.log": journal,
      }),
      collector: "must-gather",
      want: "2025-05-19T04:31:02.000Z",
      source: "collection-file",
    },
    {
      name: "troubleshoot bundle name",
      files: archive("sb.tar.gz", {
        "support-bundle-2025-05-19T04_31_02/cluster-resources/events/default.json": "{}",
        "support-bundle-2025-05-19T04_31_02/version.yaml": "x: 1\n",
      }),
      collector: "support-bundle",
      want: "2025-05-19T04:31:02.000Z",
      source: "archive-name",
    },
    {
      name: "Periscope run id",
      files: archive("p.zip", { "2025-05-19T04-31-02Z/node-a/kubelet": journal }),
      collector: "aks-periscope",
      want: "2025-05-19T04:31:02.000Z",
      source: "archive-name",
    },
    {
      name: "no name date: the latest member time",
      files: archive("b.tar.gz", { "bottlerocket-logs/journalctl.log": journal, "bottlerocket-logs/journalctl-boots": "" }, Date.UTC(2025, 4, 19, 4, 31, 30)),
      collector: "bottlerocket-logdog",
      want: "2025-05-19T04:31:30.000Z",
      source: "member-mtime",
    },
    {
      name: "no name date, no member times: the last LAST ENTRY of list-boots",
      files: archive("b.tar.gz", {
        "bottlerocket-logs/journalctl.log": journal,
        "bottlerocket-logs/journalctl-boots": " 0 a91e07c25d3f4b08b6e2f4c1d9a07e33 Mon 2025-05-19 04:19:31 UTC\u2014Mon 2025-05-19 04:31:10 UTC\n",
      }),
      collector: "bottlerocket-logdog",
      want: "2025-05-19T04:31:10.000Z",
      source: "list-boots",
    },
    {
      name: "then the latest event time",
      files: archive("h.zip", {
        "logs/kubelet.txt": journal,
        "logs/events.json": '{"items":[{"lastTimestamp":"2025-05-19T04:30:00Z"},{"lastTimestamp":"2025-05-19T04:29:00Z"}]}',
      }),
      collector: "journalctl-archive",
      want: "2025-05-19T04:30:00.000Z",
      source: "event-times",
    },
  ];
  for (const t of table) {
    it(t.name, () => {
      const l = describeBundle(t.files);
      expect(l.collectors).toEqual(t.collector ? [t.collector] : []);
      expect(iso(l.files[0].collectedMs)).toBe(t.want);
      expect(l.files[0].collectedSource).toBe(t.source);
    });
  }
});

describe("file layouts", () => {
  it("EKS: hostname from the journal, instance id as alias, noise rules, stacks file skipped, container copies paired", () => {
    const cri = "2025-05-19T04:20:01Z stdout F x\n";
    const files = archive("eks_i-0abc_2025-05-19_0431-UTC_0.7.9.tar.gz", {
      "kubelet/kubelet.log": "May 19 04:20:07 ip-10-20-30-40.ec2.internal kubelet[1]: x\n",
      "containerd/containerd-log.txt": "May 19 04:20:07 ip-10-20-30-40.ec2.internal containerd[1]: x\n",
      "containerd/containerd.811.stacks.log": "goroutine 1 [running]:\n",
      "system/instance-id.txt": "i-0abc\n",
      [`var_log/aws-node-x_kube-system_aws-node-${"c".repeat(64)}.log`]: cri,
      "var_log/kube-system_aws-node-x_uid/aws-node/0.log": cri + cri,
    });
    const l = describeBundle(files);
    expect(l.files.map((f) => f.node)).toEqual(Array(6).fill("ip-10-20-30-40.ec2.internal"));
    expect(l.aliases.get("ip-10-20-30-40.ec2.internal")).toEqual(["i-0abc"]);
    expect(l.files[0].noise).toEqual(["journalctl-warnings"]);
    expect(l.files[1].noise).toEqual(["journalctl-warnings", "collector-stack-dump"]);
    expect(l.files[2].skipReason).toBe("collector-stack-dump");
    // the larger (later) copy is kept
    expect(l.files[4].duplicateOf).toBe("var_log/kube-system_aws-node-x_uid/aws-node/0.log");
    expect(l.files[5].duplicateOf).toBeUndefined();
  });

  it("sos >= 4.10 relabels separators; older sos does not", () => {
    for (const [v, relabel] of [
      ["4.10.0", true],
      ["4.9.2", false],
    ] as const) {
      const l = describeBundle(
        archive("s.tar.xz", {
          "sosreport-h-2025-05-19-abcdefg/version.txt": `sosreport: ${v}\n`,
          "sosreport-h-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager": "May 19 04:20:07 h kubelet[1]: x\n",
        }),
      );
      expect(l.files[1].separatorsLabelPrevious === true, v).toBe(relabel);
      expect(l.files[1].node).toBe("h");
    }
  });

  it("two archives in one upload keep their own collectors and nodes", () => {
    const files = [
      ...archive("a.tar.gz", {
        "kind-version.txt": "kind v0.22.0\n",
        "kind-worker/journal.log": "Feb 15 23:28:31 kind-worker kubelet[1]: x\n",
        "kind-worker/kubernetes-version.txt": "v1.29\n",
      }),
      ...archive("h-2025-05-19_04_31_02.tar.gz", { "h-2025-05-19_04_31_02/journald/kubelet": "May 19 04:20:07 h kubelet[1]: x\n" }),
    ];
    const l = describeBundle(files);
    expect(l.collectors).toEqual(["kind-export-logs", "rancher-logs-collector"]);
    expect(l.files.map((f) => f.node)).toEqual([null, "kind-worker", "kind-worker", "h"]);
  });

  it("plain uploads: no collector, no node from the path", () => {
    const l = describeBundle([
      { path: "kubelet.log", member: "kubelet.log", upload: "kubelet.log", status: "read", data: Buffer.from("May 19 04:20:07 h kubelet[1]: x\n") },
    ]);
    expect(l.collectors).toEqual([]);
    expect(l.files[0]).toMatchObject({ node: null });
  });
});
