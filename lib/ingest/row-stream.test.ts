/**
 * A node's rows in bounded batches (row-stream.ts with node-task.ts `nodeRows`, inline): rows
 * that exceed the sender's window come out byte for byte as the rows formatted whole, with the
 * same ids, while the thread never has more than the window (plus the chunk it just filled) on
 * its way; a COPY that gives up stops the formatting.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { UnpackedFile } from "../bundle/unpack";
import { forgetBundle, heldState } from "./ingest-tasks";
import { nodeRows, prepareNode } from "./node-task";
import { parseFileTask } from "./parse-task";
import { CHUNK_BYTES, inlineRowPair, RowsCancelled, type RowSender } from "./row-stream";

const dir = mkdtempSync(path.join(tmpdir(), "bootline-rowstream-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** kubelet klog lines (`Lmmdd hh:mm:ss.uuuuuu pid file:line]`), `n` of them, a RunPodSandbox failure each (about 480 bytes a row) */
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

/** Parses and prepares one node's kubelet log of `n` lines under `token` (inline), then formats its rows, through `sender` when given. */
function formatNode(token: string, n: number, sender?: RowSender, hold: { holdBytes: number; streamBytes?: number } = { holdBytes: 1 << 30 }) {
  const node = "ip-10-0-0-4";
  const file: UnpackedFile = { path: "kubelet/kubelet.log", status: "read", data: Buffer.from(kubeletLog(n)), mtimeMs: Date.UTC(2026, 2, 14, 3) };
  parseFileTask({
    token,
    ord: 0,
    file,
    layout: { node },
    opts: { uploadMs: Date.UTC(2026, 2, 14, 3) },
    collectedMs: Date.UTC(2026, 2, 14, 3),
    dir,
    ...hold,
  });
  const { boots } = prepareNode({ token, key: `${token}:0`, node, sources: [{ node }], spilled: [], offsets: {} });
  const task = {
    key: `${token}:0`,
    incidentId: "inc1",
    bundleId: "bun1",
    nodeId: 7,
    bootIds: boots.map((_, i) => 100 + i),
    detect: boots.map(() => null),
    firstId: 501,
    fileIds: { 0: 11 },
  };
  return nodeRows(task, undefined, sender);
}

describe("rows in bounded batches", () => {
  it("a node whose rows exceed the window lands as the rows formatted whole: same text, same count, same ids", async () => {
    const whole = await formatNode("whole", 20_000);
    const reference = Buffer.concat(whole.rows).toString("utf8");
    expect(whole.rows.length).toBeGreaterThanOrEqual(3);

    // a window of one chunk: the formatting waits for the COPY after every chunk past the first
    const { sender, receiver } = inlineRowPair(CHUNK_BYTES);
    let sentBytes = 0;
    let takenBytes = 0;
    let most = 0;
    const send = sender.send.bind(sender);
    sender.send = (chunk, events) => {
      sentBytes += chunk.byteLength;
      most = Math.max(most, sentBytes - takenBytes);
      return send(chunk, events);
    };
    const result = formatNode("batched", 20_000, sender);
    result.then(
      () => receiver.end(),
      (e) => receiver.fail(e),
    );
    const got: Buffer[] = [];
    for await (const chunk of receiver) {
      // a slow COPY: a turn of the event loop per chunk
      await new Promise((r) => setImmediate(r));
      got.push(Buffer.from(chunk));
      takenBytes += chunk.byteLength;
    }
    const r = await result;
    expect(r.rows).toEqual([]);
    expect(r.events).toBe(20_000);
    expect(receiver.taken.events).toBe(20_000);
    const text = Buffer.concat(got).toString("utf8");
    expect(text).toBe(reference);
    const ids = text
      .split("\n")
      .slice(0, -1)
      .map((l) => Number(l.split("\t")[0]));
    expect(ids[0]).toBe(501);
    expect(ids.at(-1)).toBe(501 + 19_999);
    // never more than the window and the chunk just filled on their way
    expect(got.length).toBeGreaterThanOrEqual(3);
    expect(most).toBeLessThanOrEqual(2 * CHUNK_BYTES);
    // the rest of the result is the same as formatted whole
    expect({ ...r, rows: [] }).toEqual({ ...whole, rows: [] });
    forgetBundle("whole");
    forgetBundle("batched");
    expect(heldState()).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
  });

  it("a file written to disk as it is parsed, read back light and whole again, gives the rows of a file held in memory", async () => {
    const held = await formatNode("held", 20_000);
    // streamBytes 0 and nothing held: the file's events go to a spill file in batches as they are made
    const streamed = await formatNode("streamed", 20_000, undefined, { holdBytes: 0, streamBytes: 0 });
    expect(streamed.events).toBe(20_000);
    expect(Buffer.concat(streamed.rows).toString("utf8")).toBe(Buffer.concat(held.rows).toString("utf8"));
    expect({ ...streamed, rows: [] }).toEqual({ ...held, rows: [] });
    forgetBundle("held");
    forgetBundle("streamed");
    expect(heldState()).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
  });

  it("a COPY that gives up after the first chunk stops the formatting: the task rejects, nothing is left held", async () => {
    const { sender, receiver } = inlineRowPair(CHUNK_BYTES);
    const result = formatNode("given-up", 20_000, sender);
    result.then(
      () => receiver.end(),
      (e) => receiver.fail(e),
    );
    for await (const _ of receiver) break; // the COPY failed after its first chunk
    await expect(result).rejects.toBeInstanceOf(RowsCancelled);
    forgetBundle("given-up");
    expect(heldState()).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
  });
});
