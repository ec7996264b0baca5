import { CLIENT_HEADER } from "../http/client-address";
import { isServed } from "../http/serve";

/**
 * Throttle for wrong tokens (the sign-in form and `Authorization: Bearer`), kept in memory.
 *
 * Per client address: the first `freeFailures` wrong tokens cost nothing; each later one
 * locks the address out for `baseLockS * 2^(n - freeFailures)` seconds, at most `maxLockS`
 * (exponential backoff, as OWASP's authentication cheat sheet recommends). A right token resets
 * the address. Over all addresses together at most `globalPerMinute` wrong tokens are taken per
 * minute: past that, every token is refused unchecked until the minute is over, so many
 * addresses together cannot guess faster. While locked, an attempt is not checked at all and is
 * answered 429 with `Retry-After` (seconds). Addresses come from the socket (`clientAddress`).
 *
 * Pure apart from its own state: time comes in as `now` (ms).
 */

export interface ThrottleOptions {
  /** wrong tokens an address may send before the lockouts start */
  freeFailures: number;
  /** first lockout, seconds */
  baseLockS: number;
  /** longest lockout, seconds */
  maxLockS: number;
  /** wrong tokens accepted per minute over all addresses */
  globalPerMinute: number;
  /** addresses remembered at most (the oldest are forgotten first) */
  maxAddresses: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { freeFailures: 5, baseLockS: 1, maxLockS: 15 * 60, globalPerMinute: 60, maxAddresses: 10_000 };

interface AddressState {
  failures: number;
  lockedUntil: number;
}

export class TokenThrottle {
  private readonly byAddress = new Map<string, AddressState>();
  private windowStart = Number.NEGATIVE_INFINITY;
  private windowFailures = 0;

  constructor(private readonly opts: ThrottleOptions = DEFAULT_THROTTLE) {}

  /** Seconds `address` must wait before it may try again (whole seconds, at least 1), or 0 when it may try now. */
  retryAfterS(address: string, now: number): number {
    const a = this.byAddress.get(address);
    return seconds(a && a.lockedUntil > now ? a.lockedUntil - now : 0);
  }

  /**
   * Seconds until tokens from any address are checked again (the cap over all addresses: past
   * `globalPerMinute` wrong tokens in a minute, none is compared, right or wrong), or 0.
   */
  globalRetryAfterS(now: number): number {
    const inWindow = now - this.windowStart < 60_000;
    return seconds(inWindow && this.windowFailures >= this.opts.globalPerMinute ? this.windowStart + 60_000 - now : 0);
  }

  /** Records a wrong token from `address`. */
  failure(address: string, now: number): void {
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.windowFailures = 0;
    }
    this.windowFailures++;
    const a = this.byAddress.get(address) ?? { failures: 0, lockedUntil: 0 };
    this.byAddress.delete(address); // re-insert: the map's order is last use
    a.failures++;
    const over = a.failures - this.opts.freeFailures;
    if (over > 0) a.lockedUntil = now + 1000 * Math.min(this.opts.maxLockS, this.opts.baseLockS * 2 ** (over - 1));
    this.byAddress.set(address, a);
    if (this.byAddress.size > this.opts.maxAddresses) this.byAddress.delete(this.byAddress.keys().next().value as string);
  }

  /** Records a right token from `address`: its count starts again. */
  success(address: string): void {
    this.byAddress.delete(address);
  }
}

/** A wait in ms as whole seconds of at least 1, or 0 for none. */
const seconds = (ms: number) => (ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0);

const g = globalThis as unknown as { __bootlineTokenThrottle?: TokenThrottle };

/** The process-wide throttle (one instance shared by the proxy and the route handlers). */
export function tokenThrottle(): TokenThrottle {
  g.__bootlineTokenThrottle ??= new TokenThrottle();
  return g.__bootlineTokenThrottle;
}

/** The address every client shares when the app is not served by bootline's server (`next dev`, `next start`): none can be told apart. */
export const UNVERIFIED_ADDRESS = "unverified";

/**
 * The client's address as bootline's server resolved it from the socket (lib/http/serve.ts sets
 * `CLIENT_HEADER`, removing any copy the client sent; a trusted proxy's `X-Forwarded-For` is read
 * there, `BOOTLINE_TRUSTED_PROXIES`). Served otherwise, no header can be believed, so every
 * client is `UNVERIFIED_ADDRESS`: one entry, locked out for all at once.
 */
export function clientAddress(headers: Headers): string {
  if (!isServed()) return UNVERIFIED_ADDRESS;
  return headers.get(CLIENT_HEADER)?.slice(0, 64) || "unknown";
}
