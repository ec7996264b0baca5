import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { buildTar, buildTarGz } from "./tar-build";
import { fileBytes, safeMemberPath, sniffContainer, unpackUpload } from "./unpack";

const LOG = 'Mar 14 02:10:07 node-a kubelet[1234]: I0314 02:10:07.123456    1234 kubelet.go:2321] "Starting kubelet main sync loop"\n';

describe("safeMemberPath", () => {
  it("normalises and refuses escapes", () => {
    expect(safeMemberPath("./a//b/./c.log")).toBe("a/b/c.log");
    expect(safeMemberPath("../etc/passwd")).toBeNull();
    expect(safeMemberPath("a/../../b")).toBeNull();
    expect(safeMemberPath("/etc/passwd")).toBeNull();
    expect(safeMemberPath("C:/x")).toBeNull();
  });
});

describe("unpackUpload", () => {
  it("reads a plain log as itself", async () => {
    const out = await unpackUpload("kubelet.log", Buffer.from(LOG));
    expect(out).toEqual([{ path: "kubelet.log", status: "read", data: Buffer.from(LOG), mtimeMs: undefined, upload: "kubelet.log", member: "kubelet.log" }]);
  });

  it("reads a tar.gz, lists links, escapes and devices as skipped, expands nested archives and .gz members", async () => {
    const inner = buildTarGz([{ path: "inner/containerd.log", content: "inner\n" }]);
    const tgz = buildTarGz([
      { path: "bundle/", type: "Directory" },
      { path: "bundle/kubelet/kubelet.log", content: LOG, mtimeMs: Date.UTC(2026, 2, 14, 3, 0, 0) },
      { path: "bundle/rotated.log.gz", content: gzipSync("rotated line\n") },
      { path: "bundle/nested.tar.gz", content: inner },
      { path: "bundle/link.log", type: "SymbolicLink", linkpath: "/etc/shadow" },
      { path: "bundle/hard.log", type: "Link", linkpath: "bundle/kubelet/kubelet.log" },
      { path: "../evil.log", content: "x" },
      { path: "bundle/dev", type: "CharacterDevice" },
    ]);
    const out = await unpackUpload("node-a.tar.gz", tgz);
    const view = out.map((f) => [f.path, f.status, f.reason ?? null, f.data?.toString("utf8") ?? null]);
    expect(view).toEqual([
      ["bundle/kubelet/kubelet.log", "read", null, LOG],
      ["bundle/rotated.log", "read", null, "rotated line\n"],
      ["bundle/nested.tar.gz/inner/containerd.log", "read", null, "inner\n"],
      ["bundle/link.log", "skipped", "symlink", null],
      ["bundle/hard.log", "skipped", "hardlink", null],
      ["../evil.log", "skipped", "path-escape", null],
      ["bundle/dev", "skipped", "device", null],
    ]);
    expect(out.find((f) => f.path === "bundle/kubelet/kubelet.log")!.mtimeMs).toBe(Date.UTC(2026, 2, 14, 3, 0, 0));
  });

  it("keeps what a truncated tar.gz held and says it broke", async () => {
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
    const tgz = buildTarGz([
      { path: "a.log", content: "first file\n" },
      { path: "b.log", content: big },
    ]);
    const cut = tgz.subarray(0, Math.floor(tgz.length * 0.6));
    const out = await unpackUpload("cut.tgz", cut);
    expect(out[0]).toMatchObject({ path: "a.log", status: "read" });
    expect(out[0].data!.toString()).toBe("first file\n");
    expect(out.some((f) => f.error && /broke|broken/.test(f.error))).toBe(true);
  });

  it("reads every member of a gzip of several members (its trailer states the last one's size only)", async () => {
    const first = 'Mar 14 02:10:05 ip-10-0-0-1 kubelet[2099]: I0314 02:10:05.991540    2099 server.go:486] "Kubelet version"\n'.repeat(4000);
    const second = 'Mar 14 02:10:06 ip-10-0-0-1 containerd[800]: time="2026-03-14T02:10:06Z" level=info msg="starting containerd"\n'.repeat(10);
    const out = await unpackUpload("node.log.gz", Buffer.concat([gzipSync(first), gzipSync(second)]));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ path: "node.log", status: "read" });
    expect(out[0].data!.toString("utf8")).toBe(first + second);
  });

  it("does not keep a large buffer for a small file whose gzip trailer claims a large size", async () => {
    // zlib ignores NUL padding after the member; the padding's last four bytes pose as ISIZE (200 MB)
    const body = 'I0314 02:10:05.991540    2099 server.go:486] "Kubelet version"\n';
    const padded = Buffer.concat([gzipSync(body), Buffer.alloc(200_000), Buffer.from([0x00, 0x2d, 0x31, 0x0c])]);
    expect(padded.readUInt32LE(padded.length - 4)).toBe(204_549_376);
    const out = await unpackUpload("kubelet.log.gz", padded);
    expect(out).toMatchObject([{ path: "kubelet.log", status: "read" }]);
    expect(out[0].data!.toString("utf8")).toBe(body);
    expect(out[0].data!.buffer.byteLength).toBeLessThan(1 << 20);
  });

  it("gives each tar member its own bytes, and a reused read its file's", async () => {
    const files = [
      { path: "./kubelet/kubelet.log", content: 'I0314 02:10:05.991540    2099 server.go:486] "Kubelet version" kubeletVersion="v1.31.4"\n'.repeat(3000) },
      { path: "./containerd/containerd.log", content: 'time="2026-03-14T02:10:06Z" level=info msg="starting containerd"\n' },
    ];
    const out = await unpackUpload("node.tar.gz", buildTarGz(files.map((f) => ({ ...f, mtimeMs: 0 }))));
    expect(out.map((f) => [f.path, f.data!.toString("utf8")])).toEqual(files.map((f) => [f.path.slice(2), f.content]));
    const dir = mkdtempSync(path.join(tmpdir(), "bootline-unpack-"));
    try {
      const onDisk = out.map((f, i) => {
        writeFileSync(path.join(dir, String(i)), f.data!);
        return { path: f.path, status: "read" as const, dataPath: path.join(dir, String(i)), size: f.data!.length };
      });
      // the larger file first: the second read goes into the same buffer, and gets only its own bytes
      expect(fileBytes(onDisk[0], true)!.toString("utf8")).toBe(files[0].content);
      expect(fileBytes(onDisk[1], true)!.toString("utf8")).toBe(files[1].content);
      expect(fileBytes(onDisk[0])!.toString("utf8")).toBe(files[0].content);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sniffs containers by magic bytes, not by name", async () => {
    expect(sniffContainer(gzipSync("x"))).toBe("gzip");
    expect(sniffContainer(buildTar([{ path: "a", content: "b" }]))).toBe("tar");
    expect(sniffContainer(Buffer.from("plain text"))).toBe("plain");
    const out = await unpackUpload("looks-like.tar.gz", Buffer.from(LOG));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ path: "looks-like.tar.gz", status: "read" });
  });

  it("refuses archives nested deeper than the limit", async () => {
    let data = buildTarGz([{ path: "deep.log", content: "deep\n" }]);
    for (let i = 0; i < 4; i++) data = buildTarGz([{ path: `level${i}.tar.gz`, content: data }]);
    const out = await unpackUpload("top.tar.gz", data, { maxDepth: 3, maxFileBytes: 1e9, maxTotalBytes: 1e9, maxFiles: 100 });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ status: "skipped", reason: "nesting-too-deep" });
  });
});

describe("zip uploads", () => {
  it("reads members and refuses escapes and encrypted entries", async () => {
    // a minimal zip built by hand (stored, no compression): APPNOTE.TXT 4.3
    const entries = [
      { name: "node-a/kubelet.log", data: Buffer.from(LOG), flags: 0 },
      { name: "../escape.log", data: Buffer.from("x\n"), flags: 0 },
      { name: "secret.log", data: Buffer.from("y\n"), flags: 1 },
    ];
    const { crc32 } = await import("node:zlib");
    const locals: Buffer[] = [];
    const centrals: Buffer[] = [];
    let offset = 0;
    for (const e of entries) {
      const name = Buffer.from(e.name);
      const crc = crc32(e.data);
      // traditional PKWARE encryption prefixes 12 header bytes to the stored data
      const stored = e.flags & 1 ? Buffer.concat([Buffer.alloc(12, 7), e.data]) : e.data;
      const lh = Buffer.alloc(30);
      lh.writeUInt32LE(0x04034b50, 0);
      lh.writeUInt16LE(20, 4);
      lh.writeUInt16LE(e.flags, 6);
      lh.writeUInt32LE(crc, 14);
      lh.writeUInt32LE(stored.length, 18);
      lh.writeUInt32LE(e.data.length, 22);
      lh.writeUInt16LE(name.length, 26);
      const ch = Buffer.alloc(46);
      ch.writeUInt32LE(0x02014b50, 0);
      ch.writeUInt16LE(20, 4);
      ch.writeUInt16LE(20, 6);
      ch.writeUInt16LE(e.flags, 8);
      ch.writeUInt32LE(crc, 16);
      ch.writeUInt32LE(stored.length, 20);
      ch.writeUInt32LE(e.data.length, 24);
      ch.writeUInt16LE(name.length, 28);
      ch.writeUInt32LE(offset, 42);
      locals.push(lh, name, stored);
      centrals.push(ch, name);
      offset += lh.length + name.length + stored.length;
    }
    const cd = Buffer.concat(centrals);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(cd.length, 12);
    end.writeUInt32LE(offset, 16);
    const zip = Buffer.concat([...locals, cd, end]);
    const out = await unpackUpload("bundle.zip", zip);
    expect(out.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["node-a/kubelet.log", "read", null],
      ["../escape.log", "skipped", "path-escape"],
      ["secret.log", "skipped", "encrypted"],
    ]);
    expect(out[0].data!.toString()).toBe(LOG);
  });
});

/**
 * `data` compressed by `xz` from xz-utils (`.ci/run` installs it). Throws when it is missing, so
 * the tests that need it fail rather than skip.
 */
function xz(data: Buffer): Buffer {
  try {
    return execFileSync("xz", ["-z", "-c", "-T1"], { input: data });
  } catch (e) {
    throw new Error(`these tests need xz (Debian: apt-get install xz-utils): ${(e as Error).message}`);
  }
}

describe("xz (sosreport's default .tar.xz)", () => {
  const tar = buildTar([
    { path: "sosreport-node-a-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager", content: LOG, mtimeMs: Date.UTC(2025, 4, 19) },
    { path: "sosreport-node-a-2025-05-19-abcdefg/rotated.log.gz", content: gzipSync("rotated\n") },
  ]);
  const txz = () => xz(tar);

  it("reads a .tar.xz through the tar parser, with upload, archive and member paths", async () => {
    const out = await unpackUpload("sosreport-node-a-2025-05-19-abcdefg.tar.xz", txz());
    expect(out.map((f) => [f.path, f.status, f.data?.toString("utf8"), f.upload, f.archive, f.member])).toEqual([
      [
        "sosreport-node-a-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager",
        "read",
        LOG,
        "sosreport-node-a-2025-05-19-abcdefg.tar.xz",
        "sosreport-node-a-2025-05-19-abcdefg.tar.xz",
        "sosreport-node-a-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager",
      ],
      [
        "sosreport-node-a-2025-05-19-abcdefg/rotated.log",
        "read",
        "rotated\n",
        "sosreport-node-a-2025-05-19-abcdefg.tar.xz",
        "sosreport-node-a-2025-05-19-abcdefg.tar.xz",
        "sosreport-node-a-2025-05-19-abcdefg/rotated.log",
      ],
    ]);
  });

  it("names members of a nested archive by their place inside it", async () => {
    const outer = buildTarGz([{ path: "upload/sos.tar.xz", content: txz() }]);
    const out = await unpackUpload("outer.tgz", outer);
    expect(out[0]).toMatchObject({
      path: "upload/sos.tar.xz/sosreport-node-a-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager",
      upload: "outer.tgz",
      archive: "upload/sos.tar.xz",
      member: "sosreport-node-a-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager",
    });
  });

  it("keeps what a truncated .xz held and says it broke; a plain .xz file is read as itself", async () => {
    const big = Buffer.from(LOG.repeat(5000));
    const whole = xz(big);
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    const out = await unpackUpload("kubelet.log.xz", cut);
    expect(out).toHaveLength(1);
    expect(out[0].path).toBe("kubelet.log");
    expect(out[0].error ?? "").toMatch(/xz stream broken/);
    expect(out[0].data!.length).toBeGreaterThan(0);
    expect(big.toString("utf8").startsWith(out[0].data!.toString("utf8"))).toBe(true);
    const plain = await unpackUpload("kubelet.log.xz", xz(Buffer.from(LOG)));
    expect(plain[0]).toMatchObject({ path: "kubelet.log", status: "read", data: Buffer.from(LOG) });
  });

  it("stops at the size limit", async () => {
    const out = await unpackUpload("big.log.xz", xz(Buffer.alloc(1 << 20, 97)), { maxFileBytes: 1000, maxTotalBytes: 1e9, maxFiles: 10, maxDepth: 3 });
    expect(out[0]).toMatchObject({ status: "skipped", reason: "too-large" });
  });
});
