/**
 * Who sent a request, as the server saw it: the socket's peer address, unless that peer is a
 * trusted proxy (`BOOTLINE_TRUSTED_PROXIES`), whose `X-Forwarded-For` then names the client.
 *
 * `BOOTLINE_TRUSTED_PROXIES` is a comma-separated list of IPv4 / IPv6 addresses and CIDR
 * ranges (`127.0.0.1, 10.0.0.0/8, fd00::/8`); unset or empty, no proxy is trusted and the
 * peer address is the client. Behind a trusted peer, `X-Forwarded-For` is read from its right
 * end (the entry the nearest proxy appended) leftwards: trusted entries are proxies and are
 * passed over, the first untrusted one is the client (the rule of MDN's X-Forwarded-For page,
 * "selecting an IP address": entries left of it are the client's own word). IPv4-mapped IPv6
 * addresses (`::ffff:10.0.0.1`) are taken as their IPv4 address.
 *
 * The custom server (lib/http/serve.ts) resolves the address per request and hands it to the
 * app in `CLIENT_HEADER`, which it first removes from what the client sent.
 */
import { BlockList, isIP } from "node:net";

export const TRUSTED_PROXIES_ENV = "BOOTLINE_TRUSTED_PROXIES";
/** The request header the server sets to the resolved client address (any copy the client sent is removed first). */
export const CLIENT_HEADER = "x-bootline-client";

/** The addresses of a `BOOTLINE_TRUSTED_PROXIES` value; throws an Error naming the entry that is no address or range. */
export function parseTrustedProxies(value: string | undefined): BlockList {
  const list = new BlockList();
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addr, bits, extra] = entry.split("/");
    const family = isIP(addr);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
    if (!family || extra !== undefined || !(prefix >= 0 && prefix <= max))
      throw new Error(`${TRUSTED_PROXIES_ENV}: "${entry.slice(0, 80)}" is not an IPv4 or IPv6 address or CIDR range (as 10.0.0.0/8)`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === max) list.addAddress(addr, type);
    else list.addSubnet(addr, prefix, type);
  }
  return list;
}

/** An address as the socket or a header gives it, normalised (`::ffff:1.2.3.4` to `1.2.3.4`, brackets and zone dropped), or null when it is none. */
export function normaliseAddress(a: string | undefined | null): string | null {
  if (!a) return null;
  let s = a.trim();
  if (s.startsWith("[") && s.includes("]")) s = s.slice(1, s.indexOf("]"));
  s = s.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(s);
  if (mapped) s = mapped[1];
  return isIP(s) ? s.toLowerCase() : null;
}

function trusted(list: BlockList, addr: string): boolean {
  return list.check(addr, isIP(addr) === 4 ? "ipv4" : "ipv6");
}

/**
 * The client address of a request whose socket peer is `peer`, with the `X-Forwarded-For`
 * header `xff` (null when absent): the peer itself unless it is trusted; else the rightmost
 * untrusted entry of `xff` (an entry that is no address ends the walk: the hop right of it is
 * taken). `unknown` when the socket gave no address.
 */
export function resolveClientAddress(peer: string | undefined, xff: string | null | undefined, trustedProxies: BlockList): string {
  let client = normaliseAddress(peer);
  if (!client) return "unknown";
  if (!trusted(trustedProxies, client) || !xff) return client;
  const hops = xff.split(",").map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normaliseAddress(hops[i]);
    if (!hop) break;
    client = hop;
    if (!trusted(trustedProxies, hop)) break;
  }
  return client;
}

/** Whether the peer is a trusted proxy (its `X-Forwarded-*` headers are believed). */
export function isTrustedPeer(peer: string | undefined, trustedProxies: BlockList): boolean {
  const p = normaliseAddress(peer);
  return p !== null && trusted(trustedProxies, p);
}
