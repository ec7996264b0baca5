/**
 * Browser sessions kept server side (table `Session`). Signing in makes a random id (32 bytes
 * from the CSPRNG, base64url: 43 characters) that goes into the cookie; the table keeps only
 * its SHA-256, a tag of the token it was opened with, and its expiry. A session is good while
 * its row exists, `expiresAt` is in the future and its tag is the current token's (a new
 * `BOOTLINE_AUTH_TOKEN` ends every session). Sign-out deletes the row.
 *
 * Checks are remembered in memory for `CACHE_MS` (on `globalThis`, so the proxy and the route
 * handlers of one process share them), so most requests do not read the table; a revocation in
 * this process drops the entry at once, one in another process is seen within `CACHE_MS`.
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqlConn } from "../db/sql";

/** Session lifetime, seconds (7 days). */
export const SESSION_TTL_S = 7 * 24 * 3600;
/** How long a checked session is believed without reading the table again, ms. */
export const CACHE_MS = 30_000;
const CACHE_MAX = 5_000;

/** A cookie value of the shape we hand out (base64url of 32 bytes); anything else is no session. */
export const SESSION_ID_RE = /^[A-Za-z0-9_-]{43}$/;

export const sha256Hex = (s: string) => createHash("sha256").update(s).digest("hex");

/** The tag of a token stored with its sessions (not the token, not the cookie). */
export const tokenTag = (token: string) => sha256Hex(`bootline-token-tag:v1:${token}`);

interface Cached {
  tag: string;
  expiresAt: number;
  checkedAt: number;
}
const g = globalThis as unknown as { __bootlineSessions?: Map<string, Cached> };
const cache = () => (g.__bootlineSessions ??= new Map());

/** Where sessions are kept; the default is the app's database. */
export type SessionStore = () => Promise<SqlConn>;

const appStore: SessionStore = async () => {
  const { getDb } = await import("../db/connection");
  return (await getDb()).sql;
};

/** Opens a session for `token`; returns the id for the cookie (never stored) and its expiry. Removes expired rows. */
export async function createSession(token: string, opts: { now?: number; ttlS?: number; store?: SessionStore } = {}): Promise<{ id: string; expiresAt: Date }> {
  const now = opts.now ?? Date.now();
  const id = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now + 1000 * (opts.ttlS ?? SESSION_TTL_S));
  const conn = await (opts.store ?? appStore)();
  await conn.query(`DELETE FROM "Session" WHERE "expiresAt" <= $1`, [new Date(now)]);
  await conn.query(`INSERT INTO "Session" ("idHash", "tokenTag", "expiresAt") VALUES ($1, $2, $3)`, [sha256Hex(id), tokenTag(token), expiresAt]);
  return { id, expiresAt };
}

/** Whether `id` (the cookie's value) is a live session of `token`. Malformed ids are refused without a read. */
export async function sessionValid(id: string | null, token: string, opts: { now?: number; store?: SessionStore } = {}): Promise<boolean> {
  if (!id || !SESSION_ID_RE.test(id)) return false;
  const now = opts.now ?? Date.now();
  const key = sha256Hex(id);
  const tag = tokenTag(token);
  let c = cache().get(key);
  if (!c || now - c.checkedAt > CACHE_MS || now < c.checkedAt) {
    const conn = await (opts.store ?? appStore)();
    const rows = await conn.query<{ tokenTag: string; expiresAt: Date }>(`SELECT "tokenTag", "expiresAt" FROM "Session" WHERE "idHash" = $1`, [key]);
    cache().delete(key);
    if (!rows.length) return false;
    c = { tag: rows[0].tokenTag, expiresAt: new Date(rows[0].expiresAt).getTime(), checkedAt: now };
    if (cache().size >= CACHE_MAX) cache().delete(cache().keys().next().value as string);
    cache().set(key, c);
  }
  return c.tag === tag && c.expiresAt > now;
}

/** Ends session `id` (sign-out): its row is deleted and this process forgets it. */
export async function revokeSession(id: string | null, opts: { store?: SessionStore } = {}): Promise<void> {
  if (!id || !SESSION_ID_RE.test(id)) return;
  const key = sha256Hex(id);
  cache().delete(key);
  const conn = await (opts.store ?? appStore)();
  await conn.query(`DELETE FROM "Session" WHERE "idHash" = $1`, [key]);
}
