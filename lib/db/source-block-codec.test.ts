import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { generateScenario } from "../sample/index";
import { toSourceBlocks } from "../ingest/analyse-bundle";
import { decodeSourceBlock, encodeSourceBlock } from "./source-block-codec";

// the Calico scenario's kubelet log in blocks of 256 lines, as toSourceBlocks cuts it
const lines = generateScenario("calico", { pods: 60, nodenameDelayS: 900, retryIntervalS: 15, seed: 3 })
  .files.find((f) => f.path.includes("kubelet"))!
  .content.split("\n");
const blocks = Array.from({ length: Math.min(12, Math.ceil(lines.length / 256)) }, (_, i) => lines.slice(i * 256, i * 256 + 256).join("\n"));
const block = blocks[0];

describe("source block codec", () => {
  it("reads back what it writes, in fewer bytes than gzip level 1", () => {
    let stored = 0;
    let gzip = 0;
    for (const b of blocks) {
      const data = encodeSourceBlock(b);
      expect(decodeSourceBlock(data)).toBe(b);
      // never gzip's magic: the reader tells the two apart by it
      expect(data[0] & 0x0f).toBe(0x03);
      stored += data.length;
      gzip += gzipSync(b, { level: 1 }).length;
    }
    expect(blocks.length).toBeGreaterThan(3);
    expect(stored).toBeLessThan(gzip);
  });

  it("reads back every block toSourceBlocks writes for a file", () => {
    const text = lines.slice(0, 700).join("\n") + "\n";
    const stored = toSourceBlocks(text);
    expect(stored.map((b) => [b.firstLine, b.lineCount])).toEqual([
      [1, 256],
      [257, 256],
      [513, 188],
    ]);
    expect(stored.map((b) => decodeSourceBlock(b.data)).join("\n") + "\n").toBe(text);
  });

  it("reads blocks stored as gzip before", () => {
    expect(decodeSourceBlock(gzipSync(block, { level: 1 }))).toBe(block);
  });

  it("reads a Uint8Array view as the database drivers return it", () => {
    const data = encodeSourceBlock("näive 'ünïcode' line\nsecond");
    const padded = new Uint8Array(data.length + 8);
    padded.set(data, 4);
    expect(decodeSourceBlock(padded.subarray(4, 4 + data.length))).toBe("näive 'ünïcode' line\nsecond");
  });

  it("throws on bytes that are neither", () => {
    expect(() => decodeSourceBlock(Buffer.from("plain text"))).toThrow();
  });
});
