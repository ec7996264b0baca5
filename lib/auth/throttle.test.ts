import { describe, expect, it } from "vitest";
import { CLIENT_HEADER } from "../http/client-address";
import { markServed } from "../http/serve";
import { clientAddress, DEFAULT_THROTTLE, TokenThrottle, UNVERIFIED_ADDRESS } from "./throttle";

const opts = { freeFailures: 5, baseLockS: 1, maxLockS: 8, globalPerMinute: 20, maxAddresses: 3 };

describe("TokenThrottle", () => {
  it("defaults: 5 free, then 1 s doubling up to 15 min; 60 a minute over all addresses", () => {
    expect(DEFAULT_THROTTLE).toEqual({ freeFailures: 5, baseLockS: 1, maxLockS: 900, globalPerMinute: 60, maxAddresses: 10_000 });
    const t = new TokenThrottle();
    for (let i = 0; i < 16; i++) t.failure("a", 0);
    expect(t.retryAfterS("a", 0)).toBe(900);
  });

  it("lets 5 wrong tokens through, then locks the address for 1, 2, 4, 8, 8 s", () => {
    const t = new TokenThrottle(opts);
    let now = 1_000_000;
    for (let i = 0; i < 5; i++) {
      expect(t.retryAfterS("a", now)).toBe(0);
      t.failure("a", now);
    }
    expect(t.retryAfterS("a", now)).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      t.failure("a", now);
      const w = t.retryAfterS("a", now);
      waits.push(w);
      now += w * 1000;
      expect(t.retryAfterS("a", now)).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8]);
    // another address is not affected
    t.failure("a", now);
    expect(t.retryAfterS("a", now)).toBe(8);
    expect(t.retryAfterS("b", now)).toBe(0);
  });

  it("a right token resets the address", () => {
    const t = new TokenThrottle(opts);
    for (let i = 0; i < 6; i++) t.failure("a", 0);
    expect(t.retryAfterS("a", 0)).toBe(1);
    t.success("a");
    expect(t.retryAfterS("a", 0)).toBe(0);
  });

  it("caps wrong tokens over all addresses per minute, so rotating addresses does not help", () => {
    const t = new TokenThrottle({ ...opts, maxAddresses: 1000 });
    for (let i = 0; i < 20; i++) t.failure(`10.0.0.${i}`, 5_000);
    expect(t.retryAfterS("fresh", 5_000)).toBe(0);
    expect(t.globalRetryAfterS(5_000)).toBe(60);
    expect(t.globalRetryAfterS(64_000)).toBe(1);
    expect(t.globalRetryAfterS(65_000)).toBe(0);
  });

  it("forgets the least recently used addresses past maxAddresses", () => {
    const t = new TokenThrottle({ ...opts, freeFailures: 0 });
    t.failure("a", 0);
    t.failure("b", 0);
    t.failure("c", 0);
    t.failure("d", 0);
    expect(t.retryAfterS("a", 0)).toBe(0);
    expect(t.retryAfterS("d", 0)).toBe(1);
  });
});

describe("clientAddress", () => {
  it("believes no header until bootline's server hands requests on, then only the address it set", () => {
    const forged = new Headers({ "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.8", [CLIENT_HEADER]: "203.0.113.9" });
    // `next start` or `next dev`: no client can be told apart, all share one entry
    expect(clientAddress(forged)).toBe(UNVERIFIED_ADDRESS);
    expect(clientAddress(new Headers())).toBe(UNVERIFIED_ADDRESS);
    markServed();
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.7", [CLIENT_HEADER]: "10.1.2.3" }))).toBe("10.1.2.3");
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.7" }))).toBe("unknown");
  });
});
