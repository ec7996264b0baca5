import { describe, expect, it } from "vitest";
import { fileReason } from "../ingest/file-reason";
import { bundleWarnings } from "./bundle-warnings";

const read = (path: string, skippedByReason: Record<string, number> = {}, reason: string | null = null, format = "journal-short") => ({
  path,
  status: "read",
  reason,
  format,
  skippedByReason,
});
const skipped = (path: string, reason: string) => ({ path, status: "skipped", reason, format: "unknown", skippedByReason: {} });

describe("bundleWarnings", () => {
  it("says nothing for a bundle whose logs were all read, however much it holds on purpose, nor for one not stored", () => {
    // what the EKS collector's archive holds besides logs (tests/collectors-node.test.ts): its stack dump
    // file and dump lines, journalctl's warning, a file in no log format, a duplicate, a binary
    const eks = {
      status: "ready",
      counts: { events: 120, eventsOnNoNode: 0 },
      files: [
        read("kubelet/kubelet.log"),
        read("containerd/containerd-log.txt", { "journalctl-warning": 1, "collector-stack-dump": 5 }),
        skipped("containerd/containerd.811.stacks.log", "collector-stack-dump"),
        read(
          "system/instance-id.txt",
          { "unknown-format": 1 },
          "unknown-format: no line matched a known log format (1 line kept and counted as skipped)",
          "unknown",
        ),
        read("system/empty.txt", {}, "empty: the file has no bytes, nothing to parse", "unknown"),
        read("system/last_reboot.txt", {}, "newest-first file: records reversed into time order", "last-reboot"),
        { path: "var_log/aws-node/0.log", status: "duplicate", reason: null, format: "cri-log", skippedByReason: {} },
        skipped("core.bin", "binary: not a text log (NUL bytes in its first 8 KiB); not parsed"),
      ],
    };
    expect(bundleWarnings(eks)).toEqual([]);
    expect(bundleWarnings({ ...eks, status: "failed", files: [skipped("x.zip", "encrypted")] })).toEqual([]);
  });

  it("names files lost and read in part, totals unparsed lines of logs and counts events on no node", () => {
    // the reason a truncated .tar.gz leaves on the member it cut (lib/bundle/unpack.ts, file-reason.ts)
    const cut = fileReason({
      status: "read",
      reason: null,
      byteSize: 5000,
      errors: [{ line: 0, message: "cut short: the archive ends inside this file after 5,000 of its 9,000 bytes" }],
    });
    expect(cut).toBe("cut short: the archive ends inside this file after 5,000 of its 9,000 bytes");
    const b = {
      status: "ready",
      counts: { eventsOnNoNode: 1 },
      files: [
        read("node.tar.gz/kubelet/kubelet.log", { "unknown-format": 3 }, cut),
        read("node.tar.gz/containerd/containerd.log", { "unknown-format": 1, "journalctl-warning": 2 }),
        // a note and a problem: the problem counts
        read(
          "node.tar.gz/kernel/last.txt",
          {},
          "newest-first file: records reversed into time order; line 7: line longer than 65536 bytes: 1,024 bytes cut",
          "last-reboot",
        ),
        skipped("node.tar.gz/var/log/huge.log", "too-large: over 512 MiB unpacked (BOOTLINE_MAX_FILE_BYTES)"),
        ...["a", "b", "c", "d"].map((n) => skipped(`${n}.zip/secret.log`, "encrypted")),
      ],
    };
    expect(bundleWarnings(b)).toEqual([
      {
        kind: "not-read",
        text: "5 files not read: node.tar.gz/var/log/huge.log (too-large: over 512 MiB unpacked (BOOTLINE_MAX_FILE_BYTES)); a.zip/secret.log (encrypted); b.zip/secret.log (encrypted); and 2 more",
      },
      {
        kind: "read-in-part",
        text: `2 files read with problems: node.tar.gz/kubelet/kubelet.log (${cut}); node.tar.gz/kernel/last.txt (newest-first file: records reversed into time order; line 7: line longer than 65536 bytes: 1,024 bytes cut)`,
      },
      { kind: "lines-skipped", text: "4 lines of logs could not be parsed (kept as text; counted by reason in the bundle's files table)" },
      {
        kind: "no-node",
        text: '1 event names no node (no path, option or record said which): stored, but on no node\'s timeline. To place them, upload those files to a new incident with the "Node name" field set (here the same bytes count as the same upload)',
      },
    ]);
  });
});
