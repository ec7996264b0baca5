/**
 * The thread tasks of the streaming ingest (ingest-tasks.ts), run inline: a node's rows are the
 * same whether its chunks are fresh or taken back from an earlier node (`recycleRows`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { UnpackedFile } from "../bundle/unpack";
import { forgetBundle, nodeRows, parseFileTask, prepareNode, recycleRows } from "./ingest-tasks";

const dir = mkdtempSync(path.join(tmpdir(), "bootline-tasks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** klog lines of kubelet (FORMATS.md klog header), `n` of them, one RunPodSandbox failure each */
function kubeletLog(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const us = String(100000 + i).padStart(6, "0");
    s +=
      `E0314 02:10:${String(10 + (i % 40)).padStart(2, "0")}.${us}    2099 log.go:32] "RunPodSandbox from runtime service failed" ` +
      `err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"${i.toString(16).padStart(64, "a")}\\": plugin type=\\"calico\\" failed (add): ` +
      `stat /var/lib/calico/nodename: no such file or directory" pod="kube-system/coredns-${i % 7}"\n`;
  }
  return s;
}

/** One node's file through parse, prepare and rows, inline; returns the rows' chunks and their text. */
function rowsOf(token: string, node: string, text: string): { chunks: Uint8Array[]; text: string; events: number } {
  const file: UnpackedFile = { path: "kubelet/kubelet.log", status: "read", data: Buffer.from(text), mtimeMs: Date.UTC(2026, 2, 14, 3) };
  parseFileTask({ token, ord: 0, file, layout: { node }, opts: { uploadMs: Date.UTC(2026, 2, 14, 3) }, collectedMs: Date.UTC(2026, 2, 14, 3), dir, holdBytes: 1 << 30 });
  const boots = prepareNode({ token, key: `${token}:0`, node, sources: [node], spilled: [], offsets: {} });
  const r = nodeRows({ key: `${token}:0`, incidentId: "inc1", bundleId: "bun1", nodeId: 7, bootIds: boots.map((_, i) => 100 + i), detect: boots.map(() => null), firstId: 1, fileIds: { 0: 11 } });
  return { chunks: r.rows, text: Buffer.concat(r.rows).toString("utf8"), events: r.events };
}

describe("nodeRows chunks", () => {
  it("writes a node's rows into chunks taken back from the node before, with the same text as fresh ones", () => {
    // about 480 bytes a row: 20,000 rows fill more than two 4 MB chunks
    const big = rowsOf("t1", "ip-10-0-0-1", kubeletLog(20_000));
    expect(big.events).toBe(20_000);
    expect(big.chunks.length).toBeGreaterThanOrEqual(3);
    const fresh = rowsOf("t2", "ip-10-0-0-2", kubeletLog(9_000));
    const lines = fresh.text.split("\n");
    expect(lines).toHaveLength(9_001);
    expect(lines[0].split("\t").slice(0, 7)).toEqual(["1", "inc1", "bun1", "11", "7", "100", "2026-03-14T02:10:10.100Z"]);

    const spare = big.chunks.map((c) => c.buffer);
    recycleRows({ chunks: big.chunks });
    const again = rowsOf("t3", "ip-10-0-0-2", kubeletLog(9_000));
    // written into the chunks handed back (over the first node's rows), not fresh memory
    expect(again.chunks.every((c) => spare.includes(c.buffer))).toBe(true);
    expect(again.text).toBe(fresh.text);

    // with no bundle left in hand, the thread lets its spare chunks go
    const kept = again.chunks.map((c) => c.buffer);
    recycleRows({ chunks: again.chunks });
    for (const t of ["t1", "t2", "t3"]) forgetBundle(t);
    const after = rowsOf("t4", "ip-10-0-0-3", kubeletLog(100));
    expect(after.chunks.some((c) => kept.includes(c.buffer))).toBe(false);
    forgetBundle("t4");
  });
});
