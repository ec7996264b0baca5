/**
 * The one writer of a bundle's status (`Bundle.status`, `phase`, `progress`, `error`, `startedAt`,
 * `finishedAt`). A bundle moves `queued -> parsing -> ready | failed`; a bundle left `parsing` by
 * a process that died goes back to `queued` (`requeueParsing`, PGlite's poller at start) or is
 * claimed again while `parsing` (a pg-boss retry, `claimBundle`).
 *
 * - `claimBundle` / `claimOldestQueued`: `queued` (or `parsing`) -> `parsing`, phase `unpack`;
 * - `setParsing`: the run starts (`startedAt` = now, error cleared);
 * - `setPhase`: progress of the running bundle (only while it is `parsing`);
 * - `setReady`: inside the transaction that stored the bundle, with its counts;
 * - `setRepeat`: the bundle repeats one the incident has stored: `ready`, pointing at it;
 * - `setFailed`: with a reason in words (`plainReason`: one sentence, no stack, no server path).
 *
 * `finishedAt` is the wall-clock time of the write (`clock_timestamp()`), not the start of the
 * transaction it is written in (`now()`), so `finishedAt - startedAt` is the real run time.
 */
import { tmpdir } from "node:os";
import path from "node:path";
import type { SqlConn } from "../db/sql";

export type BundleStatus = "queued" | "parsing" | "ready" | "failed";

/** Claims bundle `bundleId` while it is `queued` or `parsing`; true when claimed. */
export async function claimBundle(db: SqlConn, bundleId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE "Bundle" SET status = 'parsing', phase = 'unpack', progress = 0 WHERE id = $1 AND status IN ('queued', 'parsing') RETURNING id`,
    [bundleId],
  );
  return rows.length > 0;
}

/** Claims the oldest `queued` bundle (skipping rows another transaction holds); its id, or null. */
export async function claimOldestQueued(db: SqlConn): Promise<string | null> {
  const rows = await db.query<{ id: string }>(
    `UPDATE "Bundle" SET status = 'parsing', phase = 'unpack', progress = 0
     WHERE id = (SELECT id FROM "Bundle" WHERE status = 'queued' ORDER BY "createdAt", id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
  );
  return rows[0]?.id ?? null;
}

/** Puts every `parsing` bundle back to `queued` (a process that died left them so); returns how many. */
export async function requeueParsing(db: SqlConn): Promise<number> {
  const rows = await db.query<{ id: string }>(`UPDATE "Bundle" SET status = 'queued', phase = 'queued', progress = 0 WHERE status = 'parsing' RETURNING id`);
  return rows.length;
}

/** The run of `bundleId` starts: `parsing`, phase `unpack`, `startedAt` now, no error. */
export async function setParsing(db: SqlConn, bundleId: string): Promise<void> {
  await db.query(
    `UPDATE "Bundle" SET status = 'parsing', phase = 'unpack', progress = 0, "startedAt" = clock_timestamp(), "finishedAt" = NULL, error = NULL WHERE id = $1`,
    [bundleId],
  );
}

/** Phase and progress (0..1) of a running bundle; nothing when it is no longer `parsing`. */
export async function setPhase(db: SqlConn, bundleId: string, phase: string, progress: number): Promise<void> {
  await db.query(`UPDATE "Bundle" SET phase = $2, progress = $3 WHERE id = $1 AND status = 'parsing'`, [bundleId, phase, progress]);
}

/** The bundle is stored: `ready`, with its counts (JSON) and collector; `finishedAt` the real end. */
export async function setReady(db: SqlConn, bundleId: string, counts: unknown, collector: string | null): Promise<void> {
  await db.query(
    `UPDATE "Bundle" SET status = 'ready', phase = 'done', progress = 1, counts = $2, collector = $3, "finishedAt" = clock_timestamp() WHERE id = $1`,
    [bundleId, JSON.stringify(counts), collector],
  );
}

/** The bundle repeats `originalId` (same uploads, stored): `ready`, nothing of its own stored; `finishedAt` the real end. */
export async function setRepeat(db: SqlConn, bundleId: string, originalId: string): Promise<void> {
  await db.query(`UPDATE "Bundle" SET status = 'ready', phase = 'done', progress = 1, "duplicateOf" = $2, "finishedAt" = clock_timestamp() WHERE id = $1`, [
    bundleId,
    originalId,
  ]);
}

/**
 * The counts a `ready` bundle keeps (`Bundle.counts`, JSON): its files, lines, records and skipped
 * lines summed over `files`, what was stored, the detectors that failed, and `extra` (phase
 * timings in ms, the ingest path taken).
 */
export function bundleCounts(
  files: ReadonlyArray<{ status: string; counts: { lines: number; records: number; skipped: number } }>,
  stored: { events: number; eventsOnNoNode: number; findings: number; failures: string[] },
  extra: Record<string, unknown>,
): Record<string, unknown> {
  return {
    files: files.length,
    filesRead: files.filter((f) => f.status === "read").length,
    lines: files.reduce((s, f) => s + f.counts.lines, 0),
    records: files.reduce((s, f) => s + f.counts.records, 0),
    skipped: files.reduce((s, f) => s + f.counts.skipped, 0),
    events: stored.events,
    eventsOnNoNode: stored.eventsOnNoNode,
    findings: stored.findings,
    detectorFailures: stored.failures,
    ...extra,
  };
}

/** The bundle failed: `failed` with `reason` (one plain sentence: see `plainReason`); `finishedAt` the real end. A stored (`ready`) bundle stays so. */
export async function setFailed(db: SqlConn, bundleId: string, reason: string): Promise<void> {
  await db.query(`UPDATE "Bundle" SET status = 'failed', phase = 'done', error = $2, "finishedAt" = clock_timestamp() WHERE id = $1 AND status <> 'ready'`, [
    bundleId,
    reason,
  ]);
}

/** PostgreSQL error classes (SQLSTATE, PostgreSQL manual appendix A) and what they mean for a bundle. */
const SQLSTATE_REASONS: Array<[RegExp, string]> = [
  [/^57014$/, "the database cancelled a statement while the bundle was being stored"],
  [/^57P0[1-3]$/, "the database server terminated the connection while the bundle was being stored"],
  [/^08/, "the database connection was lost while the bundle was being stored"],
  [/^53100$/, "the database ran out of disk space while the bundle was being stored"],
  [/^53/, "the database ran out of resources while the bundle was being stored"],
  [/^40P01$/, "the database stopped the bundle's transaction to resolve a deadlock"],
  [/^23/, "the database refused a row of the bundle as breaking one of its constraints"],
];

/** Node.js error codes and messages, and what they mean for a bundle. */
const ERROR_REASONS: Array<[(e: { code?: unknown; message: string; name?: string }) => boolean, string]> = [
  [(e) => e.code === "ENOSPC", "the server ran out of disk space while processing the bundle"],
  [(e) => e.code === "EMFILE" || e.code === "ENFILE", "the server had too many open files while processing the bundle"],
  [(e) => e.code === "ERR_WORKER_OUT_OF_MEMORY" || /reaching memory limit|out of memory/i.test(e.message), "processing the bundle ran out of memory"],
  [
    (e) => e.code === "ERR_STRING_TOO_LONG" || (e.name === "RangeError" && /Invalid string length|Array buffer allocation failed/i.test(e.message)),
    "a file of the bundle is too large to process",
  ],
  [
    (e) =>
      /Connection terminated|connection.*(closed|lost|ended)|ECONNRESET|ECONNREFUSED|EPIPE/i.test(e.message) || e.code === "ECONNRESET" || e.code === "EPIPE",
    "the database connection was lost while the bundle was being stored",
  ],
  [(e) => /^ingest worker exited/.test(e.message), "a processing thread stopped while handling the bundle"],
];

/** Longest reason kept, characters. */
const MAX_REASON = 300;

/** Folders of this server whose paths never reach users: the working folder, the data folder, the temporary folder. */
function serverRoots(): string[] {
  const roots = [process.cwd(), process.env.BOOTLINE_DATA_DIR, tmpdir()].filter((r): r is string => !!r && r.length > 1);
  return [...new Set(roots.map((r) => path.resolve(r)))].sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A failure as one plain sentence for users: known database and system errors in words, any
 * other message cut to its first line, with server paths taken out (`file://` URLs, anything
 * under the working, data or temporary folder, and `node_modules`) and at most `MAX_REASON`
 * characters. Never a stack trace. Paths inside the bundle (`var/log/pods/...`) stay: they are
 * the user's own. The full error belongs in the server log (the caller logs it).
 */
export function plainReason(e: unknown): string {
  const err = e instanceof Error ? (e as Error & { code?: unknown }) : { message: String(e), code: undefined, name: undefined };
  const code = typeof err.code === "string" ? err.code : undefined;
  if (code && /^[0-9A-Z]{5}$/.test(code)) {
    for (const [re, reason] of SQLSTATE_REASONS) if (re.test(code)) return reason;
  }
  for (const [test, reason] of ERROR_REASONS) if (test(err)) return reason;
  let text = (err.message || "").split("\n")[0].trim();
  text = text.replace(/\bfile:\/\/\S+/g, "");
  for (const root of serverRoots()) text = text.replace(new RegExp(`${escape(root)}(?:/[^\\s'"()]*)?`, "g"), "");
  text = text
    .replace(/\S*node_modules\S*/g, "")
    .replace(/\s+at\s*$/, "")
    .replace(/\s{2,}/g, " ")
    .replace(/\s+([,.;:)])/g, "$1")
    .trim();
  if (!text) text = "the bundle could not be processed";
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}
