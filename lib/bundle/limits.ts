/**
 * Limits on what one upload may hold (hostile and broken bundles: docs/hostile-input.md),
 * each with a documented default and an environment variable to change it (README "Limits"). Read once
 * when the module loads; a value that is not a positive number fails loudly at start rather
 * than silently turning a limit off.
 *
 * Sizes accept plain bytes or a binary suffix: `2147483648`, `2GiB`, `2G`, `512MiB`, `64k`.
 */

export interface Limits {
  /** largest upload (all files of one request together), bytes; larger: HTTP 413 */
  maxUploadBytes: number;
  /** largest unpacked size of one file, bytes; larger: skipped `too-large` */
  maxFileBytes: number;
  /** largest unpacked size of one upload, bytes; files past it: skipped `total-size-limit` */
  maxTotalBytes: number;
  /**
   * decompression ratio: unpacked bytes per byte of the upload that holds them (over every
   * gzip/xz/zip layer, nested ones included); past it (and past `RATIO_FREE_BYTES`) the rest is
   * skipped `ratio-limit` (an archive bomb)
   */
  maxRatio: number;
  /** most files read (or entries listed, refused ones included) per upload; the rest: one `too-many-files` entry that counts them */
  maxFiles: number;
  /** archives inside archives (gzip, xz, tar, zip layers): how deep; deeper: `nesting-too-deep` */
  maxDepth: number;
  /** longest line kept whole, UTF-8 bytes; longer lines are kept cut with `…[truncated N bytes]` */
  maxLineBytes: number;
}

/** Unpacked bytes an upload may always reach whatever its ratio (small, very repetitive logs). */
export const RATIO_FREE_BYTES = 16 * 1024 * 1024;

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

export const DEFAULTS: Limits = {
  maxUploadBytes: 2 * GiB,
  maxFileBytes: 512 * MiB,
  maxTotalBytes: 4 * GiB,
  maxRatio: 200,
  maxFiles: 20_000,
  maxDepth: 3,
  maxLineBytes: 64 * 1024,
};

/** The environment variable of each limit. */
export const LIMIT_ENV: Record<keyof Limits, string> = {
  maxUploadBytes: "BOOTLINE_MAX_UPLOAD_BYTES",
  maxFileBytes: "BOOTLINE_MAX_FILE_BYTES",
  maxTotalBytes: "BOOTLINE_MAX_TOTAL_BYTES",
  maxRatio: "BOOTLINE_MAX_RATIO",
  maxFiles: "BOOTLINE_MAX_FILES",
  maxDepth: "BOOTLINE_MAX_DEPTH",
  maxLineBytes: "BOOTLINE_MAX_LINE_BYTES",
};

const SIZE_KEYS = new Set<keyof Limits>(["maxUploadBytes", "maxFileBytes", "maxTotalBytes", "maxLineBytes"]);
const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: MiB, g: GiB, t: 1024 * GiB };

/** Parses `2GiB`, `512M`, `64k`, `1000` (bytes); null when it is not a size. */
export function parseSize(s: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(s);
  if (!m) return null;
  return Math.floor(Number(m[1]) * UNITS[m[2].toLowerCase()]);
}

/** The limits from `env` (defaults for unset or empty variables); throws on a value that is not a positive number. */
export function readLimits(env: Record<string, string | undefined> = process.env): Limits {
  const out = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as Array<keyof Limits>) {
    const raw = env[LIMIT_ENV[key]];
    if (raw === undefined || raw.trim() === "") continue;
    const n = SIZE_KEYS.has(key) ? parseSize(raw) : Number(raw.trim());
    if (n === null || !Number.isFinite(n) || n <= 0 || (!SIZE_KEYS.has(key) && key !== "maxRatio" && !Number.isInteger(n)))
      throw new Error(`${LIMIT_ENV[key]}=${JSON.stringify(raw)} is not a valid limit (a positive ${SIZE_KEYS.has(key) ? "size such as 512MiB" : "number"})`);
    out[key] = n;
  }
  return out;
}

/** The limits in force for this process. */
export const LIMITS: Limits = readLimits();

/** `1.5 GiB`, `64 KiB`, `812 bytes`: sizes in messages people read. */
export function fmtSize(n: number): string {
  if (n >= GiB) return `${+(n / GiB).toFixed(1)} GiB`;
  if (n >= MiB) return `${+(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
