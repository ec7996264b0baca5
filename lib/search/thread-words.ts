/**
 * The search data of one node's events, made on the ingest thread that formats its rows
 * (lib/ingest/node-task.ts `nodeRows`), so a bundle is searchable the moment it is stored
 * (postings.ts stores and reads it). Pure: no I/O.
 *
 * An event's words are those of its searchable text (search-sql.ts `docTextSql`: pod, sandbox id,
 * message and the stored JSON fields, joined by spaces), split as the database function
 * `bootline_search_words` splits them: maximal runs of letters and digits, lower-cased, runs of at
 * most MAX_WORD characters. Which characters are letters depends on the database's character
 * type (`WordsMode`): `ascii` (a `C` locale: A-Z, a-z, 0-9 only) or `unicode` (letters and digits
 * of any script, as a `C.UTF-8` or `en_US.UTF-8` database has them).
 *
 * Output: one COPY row per (word, boot) of the node, `word, nodeId, bootId, n, ids`: `n` events of
 * that boot hold the word, and `ids` are those events' ids in ascending order, or `\N` when `n` is
 * above POSTING_MAX (a word that common is read by walking the boot, not through its postings).
 */
import { copyText } from "../db/sql";

/** How the database splits words: see the module comment. */
export type WordsMode = "ascii" | "unicode";

/** Longest word indexed, characters (as the migration `search_words`). */
export const MAX_WORD = 500;
/** Most event ids kept per (word, node, boot) row; past it the row keeps only its count. */
export const POSTING_MAX = 5000;

/** Bytes of COPY text per piece of `NodeWords.rows` (about). */
const PIECE_CHARS = 1 << 20;

interface Entry {
  n: number;
  /** id of the last event counted (an event counts once per word) */
  last: number;
  ids: number[] | null;
}

const ASCII_SPLIT = /[^A-Za-z0-9]+/;
const UNICODE_SPLIT = /[^\p{L}\p{N}]+/u;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The words of `text` (lower-cased, possibly repeated), pushed onto `out`. The ASCII path walks
 * character codes (no intermediate strings but the words).
 */
export function wordsOf(text: string, mode: WordsMode, out: string[]): void {
  if (mode === "unicode" && NON_ASCII.test(text)) {
    for (const w of text.toLowerCase().split(UNICODE_SPLIT)) if (w && w.length <= MAX_WORD) out.push(w);
    return;
  }
  if (NON_ASCII.test(text)) {
    for (const w of text.split(ASCII_SPLIT)) if (w && w.length <= MAX_WORD) out.push(w.toLowerCase());
    return;
  }
  let start = -1;
  let upper = false;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0;
    const isDigit = c >= 48 && c <= 57;
    const isLower = c >= 97 && c <= 122;
    const isUpper = c >= 65 && c <= 90;
    if (isDigit || isLower || isUpper) {
      if (start < 0) {
        start = i;
        upper = false;
      }
      if (isUpper) upper = true;
    } else if (start >= 0) {
      if (i - start <= MAX_WORD) {
        const w = text.slice(start, i);
        out.push(upper ? w.toLowerCase() : w);
      }
      start = -1;
    }
  }
}

/** `\N`-free COPY text back to its value (`\\`, `\t`, `\n`, `\r`); `\N` is null. */
export function uncopyText(v: string): string | null {
  if (v === "\\N") return null;
  if (!v.includes("\\")) return v;
  return v.replace(/\\(.)/g, (_, c: string) => (c === "t" ? "\t" : c === "n" ? "\n" : c === "r" ? "\r" : c));
}

/**
 * The pod, sandbox id and message of a COPY tail (spill.ts `copyTail`: its last three columns),
 * decoded: events read back from a spill carry their text only there.
 */
export function tailText(tail: string): string {
  const c = tail.lastIndexOf("\t");
  const b = tail.lastIndexOf("\t", c - 1);
  const a = tail.lastIndexOf("\t", b - 1);
  return [tail.slice(a + 1, b), tail.slice(b + 1, c), tail.slice(c + 1)]
    .map(uncopyText)
    .filter((s): s is string => s !== null)
    .join(" ");
}

/** Accumulates one node's words per boot; `add` each event (ids ascending), then `rows` once. */
/**
 * `w` as a string of its own: a word cut from a message is a slice that keeps the whole message
 * alive while the word is a key of the node's postings (V8 slices strings of 13 characters and
 * more), so a node's words would hold every message with a new word (a sandbox id, say).
 */
function ownCopy(w: string): string {
  return w.length < 13 ? w : Buffer.from(w, "utf8").toString("utf8");
}

export class NodeWords {
  /** per boot id (-1: no boot): word -> entry */
  private readonly boots = new Map<number, Map<string, Entry>>();
  private readonly words: string[] = [];
  constructor(private readonly mode: WordsMode) {}

  /** Counts event `id` of boot `bootId` (null: none) for the words of `texts` (nulls skipped). */
  add(id: number, bootId: number | null, texts: ReadonlyArray<string | null | undefined>): void {
    const key = bootId ?? -1;
    let map = this.boots.get(key);
    if (!map) this.boots.set(key, (map = new Map()));
    const words = this.words;
    words.length = 0;
    for (const t of texts) if (t) wordsOf(t, this.mode, words);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      const en = map.get(w);
      if (!en) map.set(ownCopy(w), { n: 1, last: id, ids: [id] });
      else if (en.last !== id) {
        en.n++;
        en.last = id;
        if (en.ids) {
          if (en.n > POSTING_MAX) en.ids = null;
          else en.ids.push(id);
        }
      }
    }
  }

  /** The COPY rows (see the module comment) for node `nodeId`, in pieces of about PIECE_CHARS. */
  rows(nodeId: number | null): string[] {
    const out: string[] = [];
    let piece = "";
    const node = copyText(nodeId);
    for (const [boot, map] of this.boots) {
      const b = boot === -1 ? "\\N" : String(boot);
      for (const [w, en] of map) {
        piece += `${copyText(w)}\t${node}\t${b}\t${en.n}\t${en.ids ? `{${en.ids.join(",")}}` : "\\N"}\n`;
        if (piece.length >= PIECE_CHARS) {
          out.push(piece);
          piece = "";
        }
      }
    }
    if (piece) out.push(piece);
    this.boots.clear();
    return out;
  }
}
