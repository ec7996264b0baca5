/**
 * Browser security headers of every response (OWASP Secure Headers Project):
 * - `SECURITY_HEADERS` on all responses (next.config.ts `headers()`): no framing
 *   (`X-Frame-Options: DENY`, with CSP `frame-ancestors 'none'` below), no MIME sniffing, no
 *   referrer sent to other sites or to this one;
 * - `API_CSP` on everything that is not a page (JSON, pictures, downloads): nothing may run or
 *   load in it, nothing may frame it (a route's own policy, as the timeline SVG's, is replaced
 *   by this one);
 * - `pageCsp(nonce)` on pages, set per request by proxy.ts: scripts only with the request's
 *   nonce (Next.js puts it on its own scripts when it renders a page dynamically, reading it
 *   from the request's `Content-Security-Policy` header) and the scripts they load
 *   (`'strict-dynamic'`); styles from this site and inline (React renders `style` attributes);
 *   pictures from this site, `data:` and `blob:`; fetches to this site only; forms post to this
 *   site only; no plugins, no `<base>`, no framing.
 *
 * No imports: next.config.ts reads this file.
 */

export const SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The page policy for one request's `nonce` (base64); `dev` adds `'unsafe-eval'`, which React's development build needs. */
export function pageCsp(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A fresh nonce: 16 random bytes, base64. */
export function newNonce(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return btoa(String.fromCharCode(...b));
}
