/**
 * Property test: random bytes and mutated archives (tar, tar.gz, zip, gz, nested)
 * through the unpacker and then the in-memory half of ingest: nothing throws, nothing hangs
 * (each run is bounded), every file is listed as read or skipped with a reason, and the limits
 * hold.
 */
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseBundle } from "../ingest/reference";
import { buildHostileZip } from "./hostile-zip";
import { buildTar, buildTarGz } from "./tar-build";
import { unpackUpload, type UnpackLimits } from "./unpack";

const LOG = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Mar 14 02:10:${String(i % 60).padStart(2, "0")} node-a kubelet[1234]: I0314 02:10:07.123456    1234 kubelet.go:2321] "line ${i}"`,
  ).join("\n") + "\n";

const inner = buildTarGz([{ path: "inner/containerd.log", content: LOG(5) }]);
const BASES: Array<[string, Buffer]> = [
  [
    "bundle.tar",
    buildTar([
      { path: "a/kubelet.log", content: LOG(20) },
      { path: "a/b.log", content: LOG(3) },
      { path: "a/link", type: "SymbolicLink", linkpath: "/etc/passwd" },
    ]),
  ],
  [
    "bundle.tar.gz",
    buildTarGz([
      { path: "a/kubelet.log", content: LOG(40) },
      { path: "a/nested.tar.gz", content: inner },
      { path: "a/rot.log.gz", content: gzipSync(LOG(10)) },
    ]),
  ],
  [
    "bundle.zip",
    buildHostileZip([
      { name: "z/kubelet.log", data: LOG(30) },
      { name: "z/stored.log", data: LOG(4), method: 0 },
      { name: "z/in.tgz", data: inner, method: 0 },
      { name: "z/enc.log", data: "x", encrypted: true },
    ]),
  ],
  ["kubelet.log.gz", gzipSync(LOG(50))],
  ["kubelet.log", Buffer.from(LOG(10))],
];

const LIMITS: UnpackLimits = { maxFileBytes: 4 * 1024 * 1024, maxTotalBytes: 16 * 1024 * 1024, maxFiles: 50, maxDepth: 4, maxRatio: 200 };

type Mutation = { kind: "flip" | "cut" | "insert" | "zero"; at: number; bytes: number[] };

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("flip", "cut", "insert", "zero"),
  at: fc.nat(),
  bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 16 }),
});

function mutate(data: Buffer, muts: Mutation[]): Buffer {
  let d = Buffer.from(data);
  for (const m of muts) {
    const at = d.length ? m.at % d.length : 0;
    if (m.kind === "flip") for (let i = 0; i < m.bytes.length && at + i < d.length; i++) d[at + i] ^= m.bytes[i] || 1;
    else if (m.kind === "cut") d = d.subarray(0, at);
    else if (m.kind === "zero") d.fill(0, at, Math.min(d.length, at + m.bytes.length * 32));
    else d = Buffer.concat([d.subarray(0, at), Buffer.from(m.bytes), d.subarray(at)]);
  }
  return d;
}

/** unpackUpload, failing the run when it takes more than `ms`. */
async function bounded<T>(p: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`took more than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(name: string, data: Buffer) {
  const out = await bounded(unpackUpload(name, data, LIMITS));
  expect(out.length).toBeGreaterThan(0);
  let total = 0;
  for (const f of out) {
    expect(["read", "skipped"]).toContain(f.status);
    if (f.status === "skipped") expect(f.reason, f.path).toBeTruthy();
    else {
      expect(f.data, f.path).toBeDefined();
      expect(f.data!.length).toBeLessThanOrEqual(LIMITS.maxFileBytes);
      total += f.data!.length;
    }
  }
  expect(total).toBeLessThanOrEqual(LIMITS.maxTotalBytes);
  expect(out.filter((f) => f.status === "read").length).toBeLessThanOrEqual(LIMITS.maxFiles);
  // the pipeline's in-memory half takes whatever came out
  const a = analyseBundle(out, { uploadMs: Date.UTC(2026, 2, 15) });
  expect(a.files).toHaveLength(out.length);
  for (const f of a.files) expect(f.counts.parsed + f.counts.blank + f.counts.skipped).toBe(f.counts.lines);
}

describe("unpack on hostile bytes", () => {
  it("mutated archives: never throws, never hangs, limits hold", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BASES), fc.array(mutationArb, { minLength: 1, maxLength: 4 }), async ([name, base], muts) => {
        await check(name, mutate(base, muts));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 250) },
    );
  });

  it("random bytes, with and without archive magic in front", async () => {
    const magic = fc.constantFrom(
      Buffer.alloc(0),
      Buffer.from([0x1f, 0x8b, 8, 0]),
      Buffer.from("PK\u0003\u0004", "latin1"),
      Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0]),
    );
    await fc.assert(
      fc.asyncProperty(magic, fc.uint8Array({ maxLength: 2048 }), fc.constantFrom("x.tar.gz", "x.zip", "x.log", "x.gz", "x.xz"), async (m, bytes, name) => {
        await check(name, Buffer.concat([m, Buffer.from(bytes)]));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 250) },
    );
  });
});
