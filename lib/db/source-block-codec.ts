/**
 * The compression of stored source text (`SourceBlock.data`): one block of whole lines
 * (lib/ingest/analyse-bundle.ts `toSourceBlocks`), written as Brotli, read as Brotli or gzip.
 *
 * Written with Brotli quality 1 and a 256 KiB window (`BROTLI_PARAM_LGWIN` 18; a block is
 * 256 lines, tens of KB): on node logs it is faster than gzip level 1 and compresses better
 * (docs/scaling.md has the figures). Blocks written as gzip (level 1) stay readable: a gzip member
 * always starts with the magic bytes 1f 8b (RFC 1952 section 2.3.1), while the first byte of
 * a Brotli stream with an 18-bit window encodes that window in its low four bits as 0011
 * (RFC 7932 section 9.1), so it is never 0x1f.
 */
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from "node:zlib";

const BROTLI_OPTIONS = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_LGWIN]: 18,
  },
};

/** One block's text (its lines joined with "\n", no final newline) as stored bytes. */
export function encodeSourceBlock(text: string): Buffer {
  return brotliCompressSync(text, BROTLI_OPTIONS);
}

/**
 * A stored block's text: gzip when it starts with gzip's magic bytes, Brotli otherwise.
 * Throws (zlib's error) when the bytes are neither.
 */
export function decodeSourceBlock(data: Uint8Array): string {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return (buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : brotliDecompressSync(buf)).toString("utf8");
}
