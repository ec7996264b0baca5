/**
 * The first piece of a record a terminal hard-wrapped, when the file's format cannot read the piece
 * alone: a JSON line cut inside a string (`{"level":"info",…,"msg":"… Sandbox d78e…8d24644` then
 * `f175222, ifname eth0"}` at column 0, aws/amazon-vpc-cni-k8s#3066). Pure.
 */
import { isWrapTail } from "./paste";

/** Most pieces one wrapped record is looked for in (a record of 16 screen widths). */
export const MAX_WRAP_PIECES = 16;

/**
 * The line `lines[i]` (0-based) with the wrapped pieces after it joined on, when it fills the wrap
 * width `w` exactly, each piece is a wrap tail of the one before (paste.ts `isWrapTail`), every
 * piece but the last fills the width too, and `reads(joined)` accepts the join (the format reads
 * a record from it); null otherwise. The pieces are not consumed here: the caller takes the record
 * from the first line and the reader joins the tails to it as wrapped pieces.
 */
export function wrappedHead(lines: readonly string[], i: number, w: number, reads: (joined: string) => boolean): string | null {
  if (w <= 0 || lines[i].length !== w) return null;
  let joined = lines[i];
  let prev = joined;
  for (let k = i + 1; k < lines.length && k <= i + MAX_WRAP_PIECES; k++) {
    const piece = lines[k];
    if (!isWrapTail(piece, prev, w)) return null;
    joined += piece;
    if (reads(joined)) return joined;
    if (piece.length !== w) return null;
    prev = piece;
  }
  return null;
}
