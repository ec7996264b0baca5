/**
 * Hostile and broken archives, each built on the fly: archive bombs against the
 * ratio budget, file-count, size and depth limits, truncated tar/gzip/zip that keep what they
 * held and say where they broke, encrypted and linked zip entries, content notes.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseSize, readLimits } from "./limits";
import { buildTar, buildTarGz } from "./tar-build";
import { unpackUpload, type UnpackLimits } from "./unpack";
import { buildHostileZip as buildZip } from "./hostile-zip";

const line = (i: number) => `Mar 14 02:10:${String(i % 60).padStart(2, "0")} node-a kubelet[1234]: I0314 02:10:07.123456    1234 kubelet.go:2321] "line ${i}"`;
const lines = (n: number) => Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n";
const L = (o: Partial<UnpackLimits> = {}): UnpackLimits => ({ maxFileBytes: 1e9, maxTotalBytes: 4e9, maxFiles: 1000, maxDepth: 3, maxRatio: 200, ...o });

describe("limits", () => {
  it("reads sizes with binary suffixes and refuses nonsense loudly", () => {
    expect(parseSize("2GiB")).toBe(2 * 1024 ** 3);
    expect(parseSize("512M")).toBe(512 * 1024 ** 2);
    expect(parseSize("64k")).toBe(65536);
    expect(parseSize("1000")).toBe(1000);
    expect(parseSize("lots")).toBeNull();
    const l = readLimits({ BOOTLINE_MAX_UPLOAD_BYTES: "1GiB", BOOTLINE_MAX_RATIO: "50", BOOTLINE_MAX_FILES: "" });
    expect(l).toMatchObject({ maxUploadBytes: 1024 ** 3, maxRatio: 50, maxFiles: 20_000, maxLineBytes: 65536 });
    expect(() => readLimits({ BOOTLINE_MAX_FILES: "many" })).toThrow(/BOOTLINE_MAX_FILES="many" is not a valid limit/);
    expect(() => readLimits({ BOOTLINE_MAX_DEPTH: "-1" })).toThrow(/BOOTLINE_MAX_DEPTH/);
  });
});

describe("archive bombs", () => {
  it("stops a gzip that unpacks past the ratio budget", async () => {
    const bomb = gzipSync(Buffer.alloc(24 * 1024 * 1024, 0x61));
    expect(bomb.length).toBeLessThan(100_000);
    const out = await unpackUpload("bomb.log.gz", bomb, L());
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ path: "bomb.log.gz", status: "skipped", reason: "ratio-limit" });
    expect(out[0].error).toMatch(/more than 200 times the upload's size .*BOOTLINE_MAX_RATIO.*archive bomb/);
  });

  it("counts every layer of a nested bomb against one budget, and keeps the honest files beside it", async () => {
    const inner = gzipSync(gzipSync(Buffer.alloc(40 * 1024 * 1024, 0)));
    const tgz = buildTarGz([
      { path: "good.log", content: lines(50) },
      { path: "layers.gz", content: inner },
    ]);
    const out = await unpackUpload("upload.tgz", tgz, L({ maxDepth: 5 }));
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["good.log", "read", null],
      ["layers", "skipped", "ratio-limit"],
    ]);
  });

  it("stops a zip entry whose declared size is past the budget, and one whose size lies", async () => {
    const big = Buffer.alloc(30 * 1024 * 1024, 0);
    const honest = await unpackUpload(
      "z.zip",
      buildZip([
        { name: "ok.log", data: lines(5) },
        { name: "zeros.bin", data: big },
      ]),
      L(),
    );
    expect(honest.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["ok.log", "read", null],
      ["zeros.bin", "skipped", "ratio-limit"],
    ]);
    const liar = await unpackUpload("z.zip", buildZip([{ name: "zeros.bin", data: big, claimedSize: 100 }]), L());
    expect(liar).toHaveLength(1);
    expect((liar[0].data?.length ?? 0) <= 1024 * 1024).toBe(true);
    expect(liar[0].error ?? liar[0].reason).toMatch(/damaged|corrupt|ratio/);
  });
});

describe("file count, size and depth limits", () => {
  it("lists the files past the file limit as one entry that counts them", async () => {
    const tar = buildTar(Array.from({ length: 30 }, (_, i) => ({ path: `f${i}.log`, content: `${line(i)}\n` })));
    const out = await unpackUpload("many.tar", tar, L({ maxFiles: 10 }));
    expect(out).toHaveLength(11);
    expect(out.slice(0, 10).every((f) => f.status === "read")).toBe(true);
    expect(out[10]).toMatchObject({ path: "f10.log", status: "skipped", reason: "too-many-files" });
    expect(out[10].error).toMatch(/^20 more files .*more than 10 files \(BOOTLINE_MAX_FILES\)/);
  });

  it("skips files past the total size and names the limit", async () => {
    const tar = buildTar([
      { path: "a.log", content: lines(20) },
      { path: "b.log", content: lines(20) },
    ]);
    const out = await unpackUpload("t.tar", tar, L({ maxTotalBytes: Buffer.byteLength(lines(20)) + 10 }));
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["a.log", "read", null],
      ["b.log", "skipped", "total-size-limit"],
    ]);
    expect(out[1].error).toMatch(/BOOTLINE_MAX_TOTAL_BYTES/);
  });

  it("refuses a file over the per-file limit", async () => {
    const out = await unpackUpload("big.log", Buffer.from(lines(100)), L({ maxFileBytes: 100 }));
    expect(out[0]).toMatchObject({ status: "skipped", reason: "too-large" });
    expect(out[0].error).toMatch(/larger than 100 bytes unpacked \(BOOTLINE_MAX_FILE_BYTES\)/);
  });
});

describe("truncated archives keep what they held and say where they broke", () => {
  const a = lines(3);
  const b = lines(4000);

  it("tar cut inside a member: the member keeps its first bytes, with how many of how many and the line that may be cut", async () => {
    const tar = buildTar([
      { path: "a.log", content: a },
      { path: "b.log", content: b },
    ]);
    const out = await unpackUpload("cut.tar", tar.subarray(0, 512 * 3 + 100_000));
    expect(out.map((f) => [f.path, f.status])).toEqual([
      ["a.log", "read"],
      ["b.log", "read"],
    ]);
    expect(out[0].error).toBeUndefined();
    const kept = out[1].data!;
    expect(b.startsWith(kept.toString())).toBe(true);
    expect(out[1].error).toMatch(
      new RegExp(
        `cut short: the archive ends inside this file after ${kept.length.toLocaleString("en-US")} of its ${Buffer.byteLength(b).toLocaleString("en-US")} bytes`,
      ),
    );
    const lastLine = kept.toString().split("\n").length;
    expect(out[1].error).toContain(`the last line (line ${lastLine.toLocaleString("en-US")}) may be incomplete`);
  });

  it("tar.gz cut: same, and the gzip layer's break is named", async () => {
    const tgz = buildTarGz([
      { path: "a.log", content: a },
      { path: "b.log", content: b },
    ]);
    const out = await unpackUpload("cut.tgz", tgz.subarray(0, Math.floor(tgz.length / 2)));
    expect(out[0]).toMatchObject({ path: "a.log", status: "read" });
    expect(out[0].data!.toString()).toBe(a);
    expect(out[1].error).toMatch(/cut short: .* \(archive cut\.tgz broke: gzip stream broken \(unexpected end of file\)/);
  });

  it("plain .gz cut: kept bytes and the line that may be incomplete", async () => {
    const gz = gzipSync(b);
    const out = await unpackUpload("kubelet.log.gz", gz.subarray(0, gz.length >> 1));
    expect(out).toHaveLength(1);
    expect(out[0].path).toBe("kubelet.log");
    expect(b.startsWith(out[0].data!.toString())).toBe(true);
    expect(out[0].error).toMatch(
      /^gzip stream broken \(unexpected end of file\) after \d+ compressed bytes: kept the first \d+ bytes; the last line \(line [\d,]+\) may be incomplete$/,
    );
  });

  it("zip cut before its central directory: members read from their local headers", async () => {
    const zip = buildZip([
      { name: "node-a/a.log", data: a },
      { name: "node-a/b.log", data: b, method: 0 },
    ]);
    const cut = zip.subarray(0, zip.length - 22 - 200 - Math.floor(Buffer.byteLength(b) / 2));
    const out = await unpackUpload("cut.zip", cut);
    expect(out.map((f) => [f.path, f.status])).toEqual([
      ["node-a/a.log", "read"],
      ["node-a/b.log", "read"],
    ]);
    expect(out[0].data!.toString()).toBe(a);
    expect(out[0].error).toMatch(/read from its local header \(zip directory unreadable/);
    expect(out[1].error).toMatch(
      /cut short: the archive ends inside this file after [\d,]+ of its [\d,]+ compressed bytes; the last line \(line [\d,]+\) may be incomplete/,
    );
    expect(b.startsWith(out[1].data!.toString())).toBe(true);
  });

  it("garbage that only looks like an archive is listed, not thrown", async () => {
    const gz = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff]);
    const out = await unpackUpload("broken.tar.gz", gz);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ status: "skipped", reason: "corrupt-archive" });
  });
});

describe("zip entries bootline will not read", () => {
  it("names encrypted entries and links", async () => {
    const zip = buildZip([
      { name: "ok.log", data: lines(2) },
      { name: "secret.log", data: lines(2), encrypted: true, method: 0 },
      { name: "link.log", data: "/etc/shadow", mode: 0o120777, method: 0 },
    ]);
    const out = await unpackUpload("z.zip", zip);
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["ok.log", "read", null],
      ["secret.log", "skipped", "encrypted"],
      ["link.log", "skipped", "symlink"],
    ]);
    expect(out[1].error).toMatch(/encrypted \(password-protected\) zip entry: bootline cannot read it/);
  });
});

describe("content notes on read files", () => {
  it("empty, not UTF-8 (with the first bad line), misnamed archives, compressed logs without .gz", async () => {
    const latin1 = Buffer.concat([Buffer.from(`${line(1)}\n${line(2)}\n`), Buffer.from("Mar 14 02:10:09 node-a kubelet[1]: caf\xe9\n", "latin1")]);
    const tar = buildTar([
      { path: "empty.log", content: "" },
      { path: "latin1.log", content: latin1 },
      { path: "fake.tar.gz", content: lines(2) },
      { path: "kubelet.log", content: gzipSync(lines(2)) },
    ]);
    const out = await unpackUpload("notes.tar", tar);
    const by = Object.fromEntries(out.map((f) => [f.path, f]));
    expect(by["empty.log"]).toMatchObject({ status: "read", error: "empty file (0 bytes)" });
    expect(by["latin1.log"].error).toBe("not valid UTF-8: 1 byte sequence shown as \uFFFD (first on line 3)");
    expect(by["fake.tar.gz"].error).toBe("named .tar.gz but holds no tar.gz data: read as a plain file");
    expect(by["kubelet.log"]).toMatchObject({ status: "read", error: "gzip-compressed although not named .gz: decompressed" });
    expect(by["kubelet.log"].data!.toString()).toBe(lines(2));
  });
});

describe("entries past the file limit are counted, not held", () => {
  it("a tar of 5,000 links and a zip of 3,000 entries list at most maxFiles + 1 entries", async () => {
    const links = buildTar(Array.from({ length: 5000 }, (_, i) => ({ path: `l${i}`, type: "SymbolicLink" as const, linkpath: "/etc/passwd" })));
    const out = await unpackUpload("links.tar", links, L({ maxFiles: 100 }));
    expect(out).toHaveLength(101);
    expect(out[100]).toMatchObject({ reason: "too-many-files" });
    expect(out[100].error).toMatch(/^4,900 more files/);
    const zip = buildZip(Array.from({ length: 3000 }, (_, i) => ({ name: `f${i}.log`, data: "x\n", method: 0 as const })));
    const zout = await unpackUpload("many.zip", zip, L({ maxFiles: 100 }));
    expect(zout).toHaveLength(101);
    expect(zout[100].error).toMatch(/^2,900 more files/);
  });
});

/** A gzip stream of several members (RFC 1952 section 2.2): `head`, then `zeroMembers` times 64 MiB of zeros, then `tail`. */
function multiMemberGz(head: Buffer, zeroMembers: number, tail: Buffer): Buffer {
  const zeros = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  return Buffer.concat([gzipSync(head), ...Array.from({ length: zeroMembers }, () => zeros), gzipSync(tail)]);
}

/** A ustar header block for a regular file of `size` bytes (the member's bytes follow it). */
function tarHeader(name: string, size: number): Buffer {
  const block = buildTar([{ path: name, content: "" }]).subarray(0, 512);
  const h = Buffer.from(block);
  h.write(size.toString(8).padStart(11, "0") + "\0", 124, 12, "latin1");
  // checksum: the header's bytes summed with the checksum field read as spaces (POSIX.1 ustar)
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "latin1");
  return h;
}

describe("limits while the bytes stream", () => {
  it("a tar.gz keeps the members before a bomb and lists the bomb with its reason", async () => {
    const good = Buffer.from(lines(40));
    const pad = Buffer.alloc((512 - (good.length % 512)) % 512);
    // 3 GiB of zeros declared in the member's header; the stream is about 3 MB
    const tgz = multiMemberGz(
      Buffer.concat([tarHeader("node-h1/kubelet.log", good.length), good, pad, tarHeader("node-h1/huge.log", 3 * 1024 ** 3)]),
      48,
      Buffer.alloc(1024),
    );
    expect(tgz.length).toBeLessThan(4 * 1024 * 1024);
    const out = await unpackUpload("bundle.tar.gz", tgz, L({ maxFileBytes: 512 * 1024 ** 2 }));
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["node-h1/kubelet.log", "read", null],
      ["node-h1/huge.log", "skipped", "too-large"],
    ]);
    expect(out[0].data!.toString()).toBe(lines(40));
    expect(out[1].error).toMatch(
      /^larger than 512 MiB unpacked \(BOOTLINE_MAX_FILE_BYTES\); not read; the archive was not read past it: unpacks to more than 200 times/,
    );
  });

  it("a bomb met inside a member being read lists that member with the ratio limit; the members before stay", async () => {
    const good = Buffer.from(lines(10));
    const pad = Buffer.alloc((512 - (good.length % 512)) % 512);
    // declared 256 MiB, under the file limit: read until the ratio budget runs out
    const tgz = multiMemberGz(Buffer.concat([tarHeader("a.log", good.length), good, pad, tarHeader("zeros.log", 256 * 1024 ** 2)]), 4, Buffer.alloc(1024));
    const out = await unpackUpload("b.tgz", tgz, L());
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["a.log", "read", null],
      ["zeros.log", "skipped", "ratio-limit"],
    ]);
  });

  it("stops a plain .gz at the file limit as it streams", async () => {
    const out = await unpackUpload(
      "big.log.gz",
      multiMemberGz(Buffer.from(lines(5)), 2, Buffer.from(lines(5))),
      L({ maxFileBytes: 1024 * 1024, maxRatio: 100_000 }),
    );
    expect(out).toEqual([expect.objectContaining({ path: "big.log", status: "skipped", reason: "too-large" })]);
  });
});

describe("empty archives and encrypted entries are named as such", () => {
  it("an empty tar (only its end-of-archive blocks), plain or gzipped, is an empty archive, not a binary file", async () => {
    for (const [name, data] of [
      ["empty.tar", buildTar([])],
      ["empty.tar.gz", buildTarGz([])],
      ["gnu-empty.tar", Buffer.alloc(10240)],
    ] as const) {
      const out = await unpackUpload(name, data);
      expect(out, name).toEqual([
        expect.objectContaining({
          status: "skipped",
          reason: "empty-archive",
          error: "an empty tar archive (only its end-of-archive blocks): it holds no files",
        }),
      ]);
    }
    // an empty tar inside a tar is listed the same way; 1 KiB of zeros named .log stays a (binary) file
    const out = await unpackUpload(
      "outer.tar",
      buildTar([
        { path: "inner.tar", content: buildTar([]) },
        { path: "zeros.log", content: Buffer.alloc(1024) },
      ]),
    );
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["inner.tar", "skipped", "empty-archive"],
      ["zeros.log", "read", null],
    ]);
  });

  it("a stored zip entry with only the encryption flag set is listed as encrypted, beside the readable ones", async () => {
    const zip = buildZip([
      { name: "good.log", data: lines(3), method: 0 },
      { name: "enc.log", data: lines(3), method: 0 },
    ]);
    // set bit 0 (encrypted) on the second entry's local and central headers, sizes left as they are
    const local = zip.indexOf(Buffer.from([0x50, 0x4b, 3, 4]), 1);
    zip[local + 6] |= 1;
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]), zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2])) + 1);
    zip[central + 8] |= 1;
    const out = await unpackUpload("flags.zip", zip);
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["good.log", "read", null],
      ["enc.log", "skipped", "encrypted"],
    ]);
    expect(out[0].data!.toString()).toBe(lines(3));
  });

  it("a zip entry whose stream holds more than its stated size keeps the stated bytes and says it is damaged", async () => {
    const zip = buildZip([{ name: "liar.log", data: lines(50), method: 0, claimedSize: 100 }]);
    const out = await unpackUpload("liar.zip", zip);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ path: "liar.log", status: "read" });
    expect(out[0].data!.length).toBe(100);
    expect(out[0].error).toMatch(/^zip entry damaged \(too many bytes in the stream: it claims 100\): kept the first 100 bytes/);
  });
});

describe("unpacking an upload on disk", () => {
  it("writes each file to the folder with its size and sha256, and nothing of the refused ones", async () => {
    const { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = await import("node:fs");
    const { createHash } = await import("node:crypto");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { unpackUploadFile } = await import("./unpack");
    const dir = mkdtempSync(path.join(tmpdir(), "bootline-unpack-"));
    try {
      const inner = buildTarGz([{ path: "c.log", content: lines(3) }]);
      const tar = buildTar([
        { path: "a.log", content: lines(20) },
        { path: "nested.tgz", content: inner },
        { path: "big.log", content: lines(200) },
      ]);
      writeFileSync(path.join(dir, "upload"), tar);
      const out = await unpackUploadFile("up.tar", path.join(dir, "upload"), path.join(dir, "files"), L({ maxFileBytes: Buffer.byteLength(lines(100)) }));
      expect(out.map((f) => [f.path, f.status, f.reason ?? null, f.size ?? null])).toEqual([
        ["a.log", "read", null, Buffer.byteLength(lines(20))],
        ["nested.tgz/c.log", "read", null, Buffer.byteLength(lines(3))],
        ["big.log", "skipped", "too-large", null],
      ]);
      for (const f of out.filter((f) => f.status === "read")) {
        const bytes = readFileSync(f.dataPath!);
        expect(f.data).toBeUndefined();
        expect(f.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      }
      expect(readFileSync(out[1].dataPath!).toString()).toBe(lines(3));
      // the nested archive's own copy went once it was unpacked
      expect(readdirSync(path.join(dir, "files")).sort()).toEqual([path.basename(out[0].dataPath!), path.basename(out[1].dataPath!)].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
