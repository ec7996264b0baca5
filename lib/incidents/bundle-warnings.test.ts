import { describe, expect, it } from "vitest";
import { fileReason } from "../ingest/file-reason";
import { bundleWarnings } from "./bundle-warnings";

const read = (path: string, skipped = 0, reason: string | null = null) => ({ path, status: "read", reason, skipped });

describe("bundleWarnings", () => {
  it("says nothing for a bundle read cleanly, or one not stored", () => {
    const clean = { status: "ready", counts: { events: 120, eventsOnNoNode: 0 }, files: [read("kubelet.log"), { path: "copy.log", status: "duplicate", reason: null, skipped: 0 }] };
    expect(bundleWarnings(clean)).toEqual([]);
    expect(bundleWarnings({ ...clean, status: "failed", files: [{ path: "x.bin", status: "skipped", reason: "binary", skipped: 0 }] })).toEqual([]);
  });

  it("names files not read and read in part, totals skipped lines and counts events on no node", () => {
    // the reason a truncated .tar.gz leaves on the member it cut (lib/bundle/unpack.ts, file-reason.ts)
    const cut = fileReason({ status: "read", reason: null, byteSize: 5000, errors: [{ line: 0, message: "cut short: the archive ends inside this file after 5,000 of its 9,000 bytes" }] });
    expect(cut).toBe("cut short: the archive ends inside this file after 5,000 of its 9,000 bytes");
    const b = {
      status: "ready",
      counts: { eventsOnNoNode: 1 },
      files: [
        read("node.tar.gz/kubelet/kubelet.log", 3, cut),
        read("node.tar.gz/containerd/containerd.log", 1),
        { path: "node.tar.gz/core.bin", status: "skipped", reason: "binary: not a text log", skipped: 0 },
        ...["a", "b", "c", "d"].map((n) => ({ path: `${n}.zip/secret.log`, status: "skipped", reason: "encrypted", skipped: 0 })),
      ],
    };
    expect(bundleWarnings(b)).toEqual([
      { kind: "not-read", text: "5 files not read: node.tar.gz/core.bin (binary: not a text log); a.zip/secret.log (encrypted); b.zip/secret.log (encrypted); and 2 more" },
      { kind: "read-in-part", text: `1 file read with problems: node.tar.gz/kubelet/kubelet.log (${cut})` },
      { kind: "lines-skipped", text: "4 lines of files read could not be parsed (kept in the source view; counted by reason in the table below)" },
      {
        kind: "no-node",
        text: '1 event names no node (no path, option or record said which): stored, but on no node\'s timeline. Upload those files again with the "Node name" field set to place them',
      },
    ]);
  });
});
