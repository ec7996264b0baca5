/**
 * Reads physical lines of a stored source file back from its blocks (SourceBlock):
 * an event's raw text (`line .. line + span - 1`) and the lines around it. Works on both
 * backends (one query, then decompression of the one to three blocks involved:
 * source-block-codec.ts).
 */
import type { SqlConn } from "../db/sql";
import { decodeSourceBlock } from "../db/source-block-codec";

export interface SourceLine {
  /** 1-based physical line */
  n: number;
  text: string;
}

/** Lines `from..to` (inclusive, 1-based) of file `fileId`; fewer at the file's ends. */
export async function readSourceLines(sql: SqlConn, fileId: number, from: number, to: number): Promise<SourceLine[]> {
  const rows = await sql.query<{ firstLine: number; lineCount: number; data: Uint8Array | Buffer }>(
    `SELECT "firstLine", "lineCount", data FROM "SourceBlock"
     WHERE "fileId" = $1 AND "firstLine" <= $3 AND "firstLine" + "lineCount" > $2 ORDER BY seq`,
    [fileId, from, to],
  );
  const out: SourceLine[] = [];
  for (const r of rows) {
    const lines = decodeSourceBlock(r.data).split("\n");
    for (let i = 0; i < lines.length; i++) {
      const n = r.firstLine + i;
      if (n >= from && n <= to) out.push({ n, text: lines[i] });
    }
  }
  return out;
}
