/**
 * UTF-16 files (Windows PowerShell 5.1's `>` and `Out-File`) are read as their text: as a plain
 * upload, as a zip member, on disk and in memory, with chunk edges inside a 16-bit unit; other
 * files pass byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseFile } from "../parse/parse-file";
import { buildTarGz } from "./tar-build";
import { sniffUtf16, Utf16ToUtf8Writer } from "./text-encoding";
import { fileBytes, unpackUpload, unpackUploadFile } from "./unpack";
import { buildZip } from "./zip-build";

/** kubelet.err.log of a Windows node (klog), as `Get-Content … > kubelet.txt` saves it in PowerShell 5.1 */
const KUBELET_WIN = [
  'E0412 09:15:07.482113    4120 remote_runtime.go:176] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"7c1d0e5f\\": plugin type=\\"sdnbridge\\" name=\\"l2bridge\\" failed (add): hcnCreateEndpoint failed in Win32: The object already exists. (0x1392)"',
  'I0412 09:15:09.001250    4120 kubelet.go:2119] "SyncLoop (PLEG): event for pod" pod="default/win-web-5d8f7"',
].join("\r\n");

function utf16le(text: string, bom = true): Buffer {
  const body = Buffer.from(text, "utf16le");
  return bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
}

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, "utf16le");
  const be = Buffer.alloc(le.length);
  for (let i = 0; i < le.length; i += 2) {
    be[i] = le[i + 1];
    be[i + 1] = le[i];
  }
  return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
}

describe("sniffUtf16", () => {
  it("tells a BOM, ASCII text in 16-bit units, and leaves UTF-8 and binary alone", () => {
    expect(sniffUtf16(utf16le(KUBELET_WIN))).toBe("utf-16le");
    expect(sniffUtf16(utf16le(KUBELET_WIN, false))).toBe("utf-16le");
    expect(sniffUtf16(utf16be(KUBELET_WIN))).toBe("utf-16be");
    expect(sniffUtf16(Buffer.from(KUBELET_WIN))).toBeNull();
    // a tar header: a name, then NUL padding in every byte
    expect(sniffUtf16(Buffer.concat([Buffer.from("kubelet.log"), Buffer.alloc(245)]))).toBeNull();
    expect(sniffUtf16(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0]))).toBeNull();
  });
});

describe("Utf16ToUtf8Writer", () => {
  it("turns UTF-16 into UTF-8 whatever the chunk edges, and says so", () => {
    const bytes = utf16le(KUBELET_WIN);
    const parts: Buffer[] = [];
    const inner = {
      size: 0,
      write(c: Buffer) {
        parts.push(c);
        this.size += c.length;
      },
      end: () => ({ content: { encoding: null as "utf-16le" | "utf-16be" | null } }),
      abort() {},
    };
    const w = new Utf16ToUtf8Writer(inner);
    // odd chunk sizes cut 16-bit units and the BOM
    for (let o = 0; o < bytes.length; o += 7) w.write(bytes.subarray(o, o + 7));
    const s = w.end();
    expect(Buffer.concat(parts).toString("utf8")).toBe(KUBELET_WIN);
    expect(s.content.encoding).toBe("utf-16le");
  });
});

describe("UTF-16 uploads", () => {
  it("a plain UTF-16LE log is read as its text, with a note, and parses as klog", async () => {
    const [f] = await unpackUpload("kubelet.txt", utf16le(KUBELET_WIN));
    expect(f.status).toBe("read");
    expect(f.error).toBe("written in UTF-16LE (as Windows PowerShell writes files): read as that text");
    const text = fileBytes(f)?.toString("utf8") ?? "";
    expect(text).toBe(KUBELET_WIN);
    const parsed = parseFile(f.path, text, { year: 2024 });
    expect(parsed.format).toBe("klog");
    expect(parsed.records.map((r) => r.severity)).toEqual([3, 1]);
    expect(parsed.records[0].message).toContain("RunPodSandbox from runtime service failed");
  });

  it("zip and tar members in UTF-16LE and UTF-16BE, on disk; a UTF-8 member byte for byte", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bootline-utf16-"));
    try {
      const zip = buildZip([
        { path: "win-node-1/kubelet.err.log", content: utf16le(KUBELET_WIN) },
        { path: "win-node-1/hns.txt", content: utf16be("Name : l2bridge\r\nType : L2Bridge\r\n") },
        { path: "win-node-1/containerd.log", content: Buffer.from("plain utf-8 \u00e9\n") },
      ]);
      const up = path.join(dir, "win.zip");
      writeFileSync(up, zip);
      const out = await unpackUploadFile("win.zip", up, path.join(dir, "files"));
      const byPath = new Map(out.map((f) => [f.path, f]));
      const text = (p: string) => readFileSync(byPath.get(p)?.dataPath ?? "", "utf8");
      expect(text("win-node-1/kubelet.err.log")).toBe(KUBELET_WIN);
      expect(text("win-node-1/hns.txt")).toBe("Name : l2bridge\r\nType : L2Bridge\r\n");
      expect(text("win-node-1/containerd.log")).toBe("plain utf-8 \u00e9\n");
      expect(byPath.get("win-node-1/containerd.log")?.error).toBeUndefined();
      const tgz = await unpackUpload("n.tar.gz", buildTarGz([{ path: "n/kubelet.log", content: utf16le(KUBELET_WIN, false) }]));
      expect(fileBytes(tgz[0])?.toString("utf8")).toBe(KUBELET_WIN);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
