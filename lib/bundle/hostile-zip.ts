/**
 * Builds hostile or broken zip archives in memory for tests: deflated or stored
 * entries, encrypted entries (the flag and a fake 12-byte encryption header; nothing is really
 * encrypted), symlinks (Unix mode), sizes that lie, any name. Cut the result with `subarray`
 * for a truncated zip. (lib/bundle/zip-build.ts builds plain stored zips of collector layouts.)
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface HostileZipMember {
  name: string;
  data?: Buffer | string;
  /** 0 stored, 8 deflate (default) */
  method?: 0 | 8;
  /** set the "encrypted" flag (bit 0) */
  encrypted?: boolean;
  /** Unix mode in the external attributes (e.g. 0o120777 for a symlink); default a regular file */
  mode?: number;
  /** the uncompressed size to claim (default: the real one) */
  claimedSize?: number;
}

const DOS_DATE = (46 << 9) | (3 << 5) | 14; // 2026-03-14

export function buildHostileZip(members: HostileZipMember[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = Buffer.from(m.name);
    const data = typeof m.data === "string" ? Buffer.from(m.data) : (m.data ?? Buffer.alloc(0));
    const method = m.method ?? 8;
    let body = method === 8 ? deflateRawSync(data) : data;
    if (m.encrypted) body = Buffer.concat([Buffer.alloc(12, 7), body]);
    const flags = m.encrypted ? 1 : 0;
    const crc = crc32(data) >>> 0;
    const size = m.claimedSize ?? data.length;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(flags, 6);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt16LE(DOS_DATE, 12);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(body.length, 18);
    lh.writeUInt32LE(size, 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(flags, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt16LE(DOS_DATE, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(size, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(((m.mode ?? 0o100644) << 16) >>> 0, 38);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, body);
    centrals.push(ch, name);
    offset += lh.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
