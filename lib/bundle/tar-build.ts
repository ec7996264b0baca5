/**
 * Builds tar archives in memory (ustar headers via the `tar` package's Header, a PAX
 * extended header before a member whose path does not fit ustar), for the
 * scenario generator and for tests that need hostile members (links, `..` paths) that
 * the `tar` package's own packer refuses to write.
 */
import { gzipSync } from "node:zlib";
import { Header, Pax } from "tar";

export interface TarMember {
  path: string;
  /** file content; omit for links and directories */
  content?: string | Buffer;
  type?: "File" | "Directory" | "SymbolicLink" | "Link" | "CharacterDevice";
  linkpath?: string;
  /** modification time, UTC ms (default 0 = 1970) */
  mtimeMs?: number;
}

/** Returns the bytes of a tar archive holding `members` in order. */
export function buildTar(members: TarMember[]): Buffer {
  const parts: Buffer[] = [];
  for (const m of members) {
    const body = m.content === undefined ? Buffer.alloc(0) : Buffer.isBuffer(m.content) ? m.content : Buffer.from(m.content, "utf8");
    const type = m.type ?? "File";
    const h = new Header({
      path: m.path,
      mode: type === "Directory" ? 0o755 : 0o644,
      size: type === "File" ? body.length : 0,
      mtime: new Date(m.mtimeMs ?? 0),
      type,
      linkpath: m.linkpath,
      uid: 0,
      gid: 0,
      uname: "root",
      gname: "root",
    });
    const hb = Buffer.alloc(512);
    h.encode(hb, 0);
    // a path or link that does not fit ustar's fields (a name over 100 bytes, such as the
    // EKS collector's `<pod>_<ns>_<ctr>-<64 hex>.log`) goes in a PAX extended header first
    if (h.needPax) parts.push(new Pax({ path: m.path, linkpath: m.linkpath, mtime: new Date(m.mtimeMs ?? 0) }).encode());
    parts.push(hb);
    if (type === "File" && body.length) {
      parts.push(body);
      const pad = (512 - (body.length % 512)) % 512;
      if (pad) parts.push(Buffer.alloc(pad));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** `buildTar` then gzip. */
export function buildTarGz(members: TarMember[]): Buffer {
  return gzipSync(buildTar(members));
}
