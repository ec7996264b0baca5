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

const ASCII_SPLIT = /[^A-Za-z0-9]+/;
const UNICODE_SPLIT = /[^\p{L}\p{N}]+/u;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The words of `text` (lower-cased, possibly repeated), pushed onto `out`, split as the database
 * splits them in `mode` (see the module comment). `NodeWords` reads ASCII text without it, by
 * character codes; this is its path for text past ASCII, and the reference its tests compare with.
 */
export function wordsOf(text: string, mode: WordsMode, out: string[]): void {
  if (mode === "unicode" && NON_ASCII.test(text)) {
    for (const w of text.toLowerCase().split(UNICODE_SPLIT)) if (w && w.length <= MAX_WORD) out.push(w);
    return;
  }
  for (const w of text.split(ASCII_SPLIT)) if (w && w.length <= MAX_WORD) out.push(w.toLowerCase());
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

/**
 * `w` as a string of its own: a word cut from a message is a slice that keeps the whole message
 * alive while the word is a key of the node's postings (V8 slices strings of 13 characters and
 * more), so a node's words would hold every message with a new word (a sandbox id, say).
 */
function ownCopy(w: string): string {
  return w.length < 13 ? w : Buffer.from(w, "utf8").toString("utf8");
}

/** FNV-1a over UTF-16 code units, 32 bits: the hash `BootWords` probes by. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

function hashOf(w: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * One boot's words: an open-addressing table of entries in the order they were first seen.
 * `addSpan` looks a word up by its place in a text, hashed while it is read, so a word already
 * counted costs no string: one event's 50-odd words are mostly words seen before. The state of
 * entry `e` is in typed arrays indexed by `e` (no objects per word or per event id).
 */
class BootWords {
  /** entries */
  size = 0;
  /** the word (lower-cased) */
  words: string[] = [];
  /** its code units, `chars[offs[e], offs[e] + lens[e])` */
  chars = new Uint16Array(2048);
  offs = new Int32Array(256);
  lens = new Int32Array(256);
  private used = 0;
  /** the word's hash (`hashOf`) */
  hashes = new Int32Array(256);
  /** events holding the word */
  n = new Float64Array(256);
  /** id of the last event counted (an event counts once per word) */
  last = new Float64Array(256);
  /**
   * entry + 1 of the word that followed this one when it was last counted (`first`: of an event's
   * first word), 0 for none: `NodeWords.addAscii` compares the next word with it first
   */
  next = new Int32Array(256);
  first = 0;
  /**
   * the events' ids while `n[e]` is at most POSTING_MAX: a list through `postIds`/`postNext`
   * from `heads[e]` to `tails[e]`, `n[e]` long, ascending
   */
  heads = new Int32Array(256);
  tails = new Int32Array(256);
  postIds = new Float64Array(2048);
  postNext = new Int32Array(2048);
  private posted = 0;
  /** entry index + 1 per slot, 0 for an empty slot; the length a power of two, at most half full */
  private slots = new Int32Array(1024);

  /**
   * Counts event `id` for the ASCII word `text[start, end)`, lower-cased (`upper`: it holds
   * capitals), whose lower-cased hash is `h`; returns its entry.
   */
  addSpan(text: string, start: number, end: number, upper: boolean, h: number, id: number): number {
    const len = end - start;
    const mask = this.slots.length - 1;
    const hashes = this.hashes;
    const lens = this.lens;
    const chars = this.chars;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = this.slots[s];
      if (at === 0) {
        const w = text.slice(start, end);
        return this.insert(s, ownCopy(upper ? w.toLowerCase() : w), h, id);
      }
      const e = at - 1;
      if (hashes[e] !== h || lens[e] !== len) continue;
      const o = this.offs[e] - start;
      let k = start;
      if (upper) {
        for (; k < end; k++) {
          let c = text.charCodeAt(k);
          if (c >= 65 && c <= 90) c += 32;
          if (c !== chars[o + k]) break;
        }
      } else for (; k < end && text.charCodeAt(k) === chars[o + k]; k++);
      if (k === end) {
        this.count(e, id);
        return e;
      }
    }
  }

  /** Counts event `id` for word `w` (already lower-cased). */
  addWord(w: string, id: number): void {
    const h = hashOf(w);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = this.slots[s];
      if (at === 0) {
        this.insert(s, ownCopy(w), h, id);
        return;
      }
      if (this.hashes[at - 1] === h && this.words[at - 1] === w) return this.count(at - 1, id);
    }
  }

  /** Counts event `id` for entry `e`. */
  count(e: number, id: number): void {
    if (this.last[e] === id) return;
    this.last[e] = id;
    const n = ++this.n[e];
    if (n <= POSTING_MAX) {
      const p = this.post(id);
      this.postNext[this.tails[e]] = p;
      this.tails[e] = p;
    }
  }

  private insert(slot: number, w: string, h: number, id: number): number {
    const e = this.size++;
    if (e === this.hashes.length) {
      this.hashes = grown(this.hashes, new Int32Array(e * 2));
      this.n = grown(this.n, new Float64Array(e * 2));
      this.last = grown(this.last, new Float64Array(e * 2));
      this.lens = grown(this.lens, new Int32Array(e * 2));
      this.offs = grown(this.offs, new Int32Array(e * 2));
      this.heads = grown(this.heads, new Int32Array(e * 2));
      this.tails = grown(this.tails, new Int32Array(e * 2));
      this.next = grown(this.next, new Int32Array(e * 2));
    }
    if (this.used + w.length > this.chars.length) {
      const chars = new Uint16Array(Math.max(this.chars.length * 2, this.used + w.length));
      chars.set(this.chars);
      this.chars = chars;
    }
    for (let k = 0; k < w.length; k++) this.chars[this.used + k] = w.charCodeAt(k);
    this.lens[e] = w.length;
    this.offs[e] = this.used;
    this.used += w.length;
    this.words.push(w);
    const p = this.post(id);
    this.heads[e] = p;
    this.tails[e] = p;
    this.hashes[e] = h;
    this.n[e] = 1;
    this.last[e] = id;
    this.slots[slot] = e + 1;
    if (this.size * 2 > this.slots.length) this.grow();
    return e;
  }

  /** A new list item of event id `id` (see `heads`), its index. */
  private post(id: number): number {
    const p = this.posted++;
    if (p === this.postIds.length) {
      this.postIds = grown(this.postIds, new Float64Array(p * 2));
      this.postNext = grown(this.postNext, new Int32Array(p * 2));
    }
    this.postIds[p] = id;
    return p;
  }

  /** The ids of entry `e` as the COPY text of an array (`{7,8}`), or `\N` past POSTING_MAX; `scratch` is reused. */
  idsText(e: number, scratch: number[]): string {
    const n = this.n[e];
    if (n > POSTING_MAX) return "\\N";
    scratch.length = n;
    for (let k = 0, p = this.heads[e]; k < n; k++, p = this.postNext[p]) scratch[k] = this.postIds[p];
    return `{${scratch.join(",")}}`;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.size; e++) {
      let s = this.hashes[e] & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = e + 1;
    }
    this.slots = slots;
  }
}

/** `to` holding `from` at its start. */
function grown<T extends Int32Array | Float64Array | Uint16Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Kinds of a code unit for `NodeWords.addAscii`: a separator, a-z or 0-9, A-Z, past ASCII (bit flags). */
const SPLIT = 0;
const LOWER = 1;
const UPPER = 2;
const OTHER = 4;

/** The kind of every code unit; past ASCII: OTHER (`unicode`), SPLIT (`ascii`: not a letter there). */
function kindsOf(mode: WordsMode): Uint8Array {
  const k = new Uint8Array(65536).fill(mode === "unicode" ? OTHER : SPLIT, 128);
  for (let c = 48; c <= 57; c++) k[c] = LOWER;
  for (let c = 97; c <= 122; c++) k[c] = LOWER;
  for (let c = 65; c <= 90; c++) k[c] = UPPER;
  return k;
}
const ASCII_KINDS = kindsOf("ascii");
const UNICODE_KINDS = kindsOf("unicode");

/** Accumulates one node's words per boot; `add` each event (ids ascending), then `rows` once. */
export class NodeWords {
  /** per boot id (-1: no boot), in the order first seen */
  private readonly boots = new Map<number, BootWords>();
  private readonly scratch: string[] = [];
  private readonly scratchIds: number[] = [];
  /** entry + 1 of the word `addAscii` counted last in this event (0: none yet) */
  private prev = 0;
  /** kind of each UTF-16 code unit, as the database splits words in this mode */
  private readonly kinds: Uint8Array;
  constructor(private readonly mode: WordsMode) {
    this.kinds = mode === "unicode" ? UNICODE_KINDS : ASCII_KINDS;
  }

  /** Counts event `id` of boot `bootId` (null: none) for the words of `texts` (nulls skipped). */
  add(id: number, bootId: number | null, texts: ReadonlyArray<string | null | undefined>): void {
    const key = bootId ?? -1;
    let table = this.boots.get(key);
    if (!table) this.boots.set(key, (table = new BootWords()));
    this.prev = 0;
    for (const t of texts) if (t && !this.addAscii(table, t, id)) this.addOther(table, t, id);
  }

  /**
   * The words of `text` counted for event `id`, read by character codes (see `wordsOf`); in
   * `unicode` mode false, having counted only words that `wordsOf` also gives first (counting
   * them again changes nothing), at a character past ASCII. Log lines repeat their word
   * sequences, so a word is first compared with the entry that followed the previous word last
   * time (`BootWords.next`): when equal it is that entry, with no hash and no lookup; else it is
   * hashed (from its start) and looked up.
   */
  private addAscii(table: BootWords, text: string, id: number): boolean {
    const kinds = this.kinds;
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      let k = kinds[c];
      if (k === SPLIT) {
        i++;
        continue;
      }
      if (k === OTHER) return false;
      const start = i;
      let up = 0;
      let h = FNV_OFFSET;
      // the word goes on at i (its code unit c, of kind k)
      let rest = true;
      const pe = (this.prev > 0 ? table.next[this.prev - 1] : table.first) - 1;
      if (pe >= 0) {
        const chars = table.chars;
        const o = table.offs[pe] - start;
        const end = start + table.lens[pe];
        for (;;) {
          if (i === end || chars[o + i] !== (c | ((k & UPPER) << 4))) break;
          up |= k;
          if (++i === n) break;
          c = text.charCodeAt(i);
          k = kinds[c];
          if ((k & (LOWER | UPPER)) === 0) break;
        }
        rest = i < n && (k & (LOWER | UPPER)) !== 0;
        if (!rest && i === end) {
          if (i < n && k === OTHER) return false;
          table.count(pe, id);
          this.prev = pe + 1;
          continue;
        }
        for (let j = start; j < i; j++) {
          const d = text.charCodeAt(j);
          h = Math.imul(h ^ (d | ((kinds[d] & UPPER) << 4)), FNV_PRIME);
        }
      }
      if (rest) {
        for (;;) {
          up |= k;
          h = Math.imul(h ^ (c | ((k & UPPER) << 4)), FNV_PRIME);
          if (++i === n) break;
          c = text.charCodeAt(i);
          k = kinds[c];
          if ((k & (LOWER | UPPER)) === 0) break;
        }
      }
      if (i < n && k === OTHER) return false;
      if (i - start <= MAX_WORD) {
        const e = table.addSpan(text, start, i, (up & UPPER) !== 0, h, id);
        if (this.prev > 0) table.next[this.prev - 1] = e + 1;
        else table.first = e + 1;
        this.prev = e + 1;
      }
    }
    return true;
  }

  /** A text past ASCII: split as `wordsOf` splits it. */
  private addOther(table: BootWords, text: string, id: number): void {
    const words = this.scratch;
    words.length = 0;
    wordsOf(text, this.mode, words);
    for (const w of words) table.addWord(w, id);
  }

  /** The COPY rows (see the module comment) for node `nodeId`, in pieces of about PIECE_CHARS. */
  rows(nodeId: number | null): string[] {
    const out: string[] = [];
    let piece = "";
    const node = copyText(nodeId);
    for (const [boot, t] of this.boots) {
      const b = boot === -1 ? "\\N" : String(boot);
      for (let e = 0; e < t.size; e++) {
        piece += `${copyText(t.words[e])}\t${node}\t${b}\t${t.n[e]}\t${t.idsText(e, this.scratchIds)}\n`;
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
