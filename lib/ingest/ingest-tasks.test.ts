/**
 * The thread tasks of the streaming ingest (ingest-tasks.ts), run inline: a node's rows are the
 * same whether its chunks are fresh or taken back from an earlier node (`recycleRows`).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { UnpackedFile } from "../bundle/unpack";
import { forgetBundle, heldState } from "./ingest-tasks";
import { nodeRows, prepareNode } from "./node-task";
import { blockRowChunks, parseFileTask } from "./parse-task";
import { recycleRows } from "./row-stream";
import { fileLines } from "./spill-files";

const dir = mkdtempSync(path.join(tmpdir(), "bootline-tasks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** klog lines of kubelet (klog header `Lmmdd hh:mm:ss.uuuuuu pid file:line]`), `n` of them, one RunPodSandbox failure each */
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
async function rowsOf(token: string, node: string, text: string): Promise<{ chunks: Uint8Array[]; text: string; events: number }> {
  const file: UnpackedFile = { path: "kubelet/kubelet.log", status: "read", data: Buffer.from(text), mtimeMs: Date.UTC(2026, 2, 14, 3) };
  parseFileTask({
    token,
    ord: 0,
    file,
    layout: { node },
    opts: { uploadMs: Date.UTC(2026, 2, 14, 3) },
    collectedMs: Date.UTC(2026, 2, 14, 3),
    dir,
    holdBytes: 1 << 30,
  });
  const { boots } = prepareNode({ token, key: `${token}:0`, node, sources: [{ node }], spilled: [], offsets: {} });
  const r = await nodeRows({
    key: `${token}:0`,
    incidentId: "inc1",
    bundleId: "bun1",
    nodeId: 7,
    bootIds: boots.map((_, i) => 100 + i),
    detect: boots.map(() => null),
    firstId: 1,
    fileIds: { 0: 11 },
  });
  return { chunks: r.rows, text: Buffer.concat(r.rows).toString("utf8"), events: r.events };
}

describe("nodeRows chunks", () => {
  it("writes a node's rows into chunks taken back from the node before, with the same text as fresh ones", async () => {
    // about 480 bytes a row: 20,000 rows fill more than two 4 MB chunks
    const big = await rowsOf("t1", "ip-10-0-0-1", kubeletLog(20_000));
    expect(big.events).toBe(20_000);
    expect(big.chunks.length).toBeGreaterThanOrEqual(3);
    const fresh = await rowsOf("t2", "ip-10-0-0-2", kubeletLog(9_000));
    const lines = fresh.text.split("\n");
    expect(lines).toHaveLength(9_001);
    expect(lines[0].split("\t").slice(0, 7)).toEqual(["1", "inc1", "bun1", "11", "7", "100", "2026-03-14T02:10:10.100Z"]);

    const spare = big.chunks.map((c) => c.buffer);
    recycleRows({ chunks: big.chunks });
    const again = await rowsOf("t3", "ip-10-0-0-2", kubeletLog(9_000));
    // written into the chunks handed back (over the first node's rows), not fresh memory
    expect(again.chunks.every((c) => spare.includes(c.buffer))).toBe(true);
    expect(again.text).toBe(fresh.text);

    // with no bundle left in hand, the thread lets its spare chunks go
    const kept = again.chunks.map((c) => c.buffer);
    recycleRows({ chunks: again.chunks });
    for (const t of ["t1", "t2", "t3"]) forgetBundle(t);
    const after = await rowsOf("t4", "ip-10-0-0-3", kubeletLog(100));
    expect(after.chunks.some((c) => kept.includes(c.buffer))).toBe(false);
    forgetBundle("t4");
  });
});

describe("held events of a failed bundle", () => {
  const file = (text: string): UnpackedFile => ({ path: "kubelet/kubelet.log", status: "read", data: Buffer.from(text), mtimeMs: Date.UTC(2026, 2, 14, 3) });
  const task = (token: string, spillDir: string, holdBytes: number) => ({
    token,
    ord: 0,
    file: file(kubeletLog(2_000)),
    layout: { node: "ip-10-0-0-9" },
    opts: { uploadMs: Date.UTC(2026, 2, 14, 3) },
    collectedMs: Date.UTC(2026, 2, 14, 3),
    dir: spillDir,
    holdBytes,
  });

  it("a spill that fails leaves the parts held until the bundle is forgotten, and nothing of it reaches the next bundle", async () => {
    // a spill folder that does not exist: the write fails after the file's events are held
    expect(() => parseFileTask(task("bad", path.join(dir, "no-such-folder"), 0))).toThrow(/ENOENT/);
    expect(heldState().bundles).toEqual(["bad"]);
    expect(heldState().heldBytes).toBeGreaterThan(2_000 * 1400);
    forgetBundle("bad");
    expect(heldState()).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
    // the next bundle spills only its own part
    const next = path.join(dir, "next");
    const r = parseFileTask({ ...task("good", next, 0), dir: (mkdirSync(next), next) });
    expect(r.parts).toEqual([{ node: "ip-10-0-0-9", events: 2_000 }]);
    expect(readdirSync(next).filter((n) => n.endsWith(".ev"))).toHaveLength(1);
    expect(heldState().heldBytes).toBe(0);
    const { boots } = prepareNode({ token: "good", key: "good:0", node: "ip-10-0-0-9", sources: [{ node: "ip-10-0-0-9" }], spilled: [], offsets: {} });
    const rows = await nodeRows({
      key: "good:0",
      incidentId: "i",
      bundleId: "b",
      nodeId: 1,
      bootIds: boots.map((_, i) => i + 1),
      detect: boots.map(() => null),
      firstId: 1,
      fileIds: { 0: 1 },
    });
    expect(rows.events).toBe(2_000);
    forgetBundle("good");
    expect(heldState()).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
  });
});

describe("bounded reads of the thread's files", () => {
  it("fileLines gives every line of a file longer than one read, multi-byte characters cut across reads included", () => {
    const p = path.join(dir, "lines.txt");
    // 4 MiB reads: 300,000 lines of 20 bytes (one 3-byte character each) cross two read boundaries
    const lines = Array.from({ length: 300_000 }, (_, i) => `€ line ${String(i).padStart(9, "0")}`);
    writeFileSync(p, `${lines.join("\n")}\n`);
    const got = [...fileLines(p)];
    expect(got.length).toBe(300_000);
    expect(got[0]).toBe(lines[0]);
    expect(got[299_999]).toBe(lines[299_999]);
    expect(got.every((l, i) => l === lines[i])).toBe(true);
  });

  it("blockRowChunks cuts at row ends and fills the file id in every row", () => {
    const p = path.join(dir, "blocks.blk");
    const rows = Array.from({ length: 120_000 }, (_, i) => `0000000000\t${i}\t${i * 10}\t10\t\\\\x${"ab".repeat(20)}\n`);
    writeFileSync(p, rows.join(""));
    const chunks = [...blockRowChunks(p, 42)];
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const c of chunks) expect(c[c.length - 1]).toBe(10);
    const text = Buffer.concat(chunks).toString("latin1").split("\n").slice(0, -1);
    expect(text).toHaveLength(120_000);
    expect(text.every((r, i) => r.startsWith(`0000000042\t${i}\t`))).toBe(true);
  });
});
