/**
 * The rule catalogue (rules/*.yaml) on real-format node logs (tests/rule-inputs/): each input
 * gives exactly the rule findings stated, with their counts and values, through the whole
 * reading and the detect step (tests/rule-inputs/inputs.ts); a healthy boot
 * gives no finding at all.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "@/lib/detect/types";
import { ruleInputRun } from "./rule-inputs/inputs";

function ruleInputFindings(files: string[]): Finding[] {
  const r = ruleInputRun(files);
  expect(r.errors).toEqual([]);
  return r.findings;
}

const brief = (fs: Finding[]) =>
  Object.fromEntries(fs.filter((f) => f.detector.startsWith("rule:")).map((f) => [f.detector.slice(5), [f.severity, f.metrics.matches]]));
const of = (fs: Finding[], name: string) => fs.find((f) => f.detector === `rule:${name}`)!;

describe("rules on real-format node logs", () => {
  it("journald: kernel, systemd and chronyd lines", () => {
    const fs = ruleInputFindings(["journal-node-trouble.log"]);
    expect(brief(fs)).toEqual({
      "clock-stepped": ["medium", 2],
      "hung-task": ["high", 1],
      "unregister-netdevice": ["high", 4],
      "conntrack-table-full": ["high", 2],
      "oom-kill-runtime": ["critical", 1],
      "containerd-restarting": ["critical", 5],
      "ext4-error": ["high", 1],
      "filesystem-read-only": ["critical", 1],
      "disk-io-error": ["high", 2],
    });
    const oom = of(fs, "oom-kill-runtime");
    expect(oom.title).toBe("The kernel killed the container runtime (containerd) for memory");
    expect(oom.metrics.firstAfterBootS).toBe(100);
    expect(oom.explanation).toContain("Rule oom-kill-runtime (rule set kernel-memory) fires at 1 match: 1 match at T+100.000 s.");
    const restarts = of(fs, "containerd-restarting");
    expect(restarts.metrics).toMatchObject({ minCount: 5, withinS: 1200, peakMatches: 5, firstAfterBootS: 5, lastAfterBootS: 390 });
    // a lasting problem stays open; a read-only filesystem is not fixed by the log ending
    expect(of(fs, "filesystem-read-only").end).toBeNull();
    expect(of(fs, "unregister-netdevice").evidence).toHaveLength(4);
    expect(of(fs, "disk-io-error").metrics.matchedValues).toEqual(["error=I/O (1)", "error=Buffer I/O (1)", "device=nvme1n1 (2)"]);
    expect(of(fs, "clock-stepped").metrics.matchedValues).toEqual(["seconds=-7.842311 (1)"]);
  });

  it("dmesg: a kill the journal also holds counts once; untimed lines count only for rules with no time condition", () => {
    const both = ruleInputFindings(["journal-node-trouble.log", "dmesg-raw-node.log"]);
    expect(of(both, "oom-kill-runtime").metrics.matches).toBe(1);
    expect(of(both, "unregister-netdevice").metrics.matches).toBe(4);
    const alone = ruleInputFindings(["journal-healthy-boot.log", "dmesg-raw-node.log"]);
    expect(brief(alone)).toEqual({ "oom-kill-runtime": ["critical", 1] });
    expect(of(alone, "oom-kill-runtime").metrics.firstAfterBootS).toBeNull();
  });

  it("dmesg -T", () => {
    const fs = ruleInputFindings(["dmesg-T-node.log"]);
    expect(brief(fs)).toEqual({
      "kernel-oops": ["critical", 2],
      "oom-kill-cni-agent": ["high", 1],
      "pids-exhausted": ["high", 1],
      "xfs-shutdown": ["critical", 1],
    });
    expect(of(fs, "xfs-shutdown").title).toBe("XFS shut down the filesystem on sdb1");
    expect(of(fs, "oom-kill-cni-agent").metrics.firstAfterBootS).toBe(371);
  });

  it("Talos kmsg (talosctl dmesg)", () => {
    const fs = ruleInputFindings(["talos-kmsg-node.log"]);
    expect(brief(fs)).toEqual({
      "hung-task": ["high", 1],
      "kernel-panic": ["critical", 1],
      "conntrack-table-full": ["high", 1],
      "oom-kill-kubelet": ["critical", 1],
    });
    expect(of(fs, "kernel-panic").title).toBe("The kernel panicked: hung_task: blocked tasks");
  });

  it("journald: kubelet klog lines", () => {
    const fs = ruleInputFindings(["journal-kubelet-trouble.log"]);
    expect(brief(fs)).toEqual({
      "image-pulls-failing": ["medium", 5],
      "inotify-exhausted": ["medium", 1],
      "pid-pressure": ["high", 1],
      "cni-agent-restarting": ["high", 3],
    });
    const pid = of(fs, "pid-pressure");
    // T+0 is the kubelet's first line (08:14:08.412); the NodeHasSufficientPID before the report opens nothing, the one after clears it
    expect(pid.metrics).toMatchObject({ firstAfterBootS: 1021.708, clearedAfterBootS: 1351.592 });
    expect(pid.end).toBe(Date.UTC(2026, 11, 2, 8, 36, 40, 4));
    expect(pid.evidence).toHaveLength(2);
    expect(of(fs, "cni-agent-restarting").metrics.matchedValues).toEqual(["container=calico-node (3)"]);
  });

  it("a healthy boot gives no finding", () => {
    expect(ruleInputFindings(["journal-healthy-boot.log"])).toEqual([]);
  });
});
