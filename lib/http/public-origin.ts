/**
 * The origin (scheme, host, port) absolute links should point at: permalinks in the
 * Markdown export, og:url and og:image. `BOOTLINE_PUBLIC_URL` wins (set it behind a proxy
 * that rewrites the host); else the proxy's `x-forwarded-proto`/`x-forwarded-host`; else
 * the request's `host`; else `fallback`. A host that is not a plain host[:port] is ignored.
 */
const HOST_RE = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function publicOrigin(headers: { get(name: string): string | null }, fallback = "http://localhost:3000"): string {
  const env = process.env.BOOTLINE_PUBLIC_URL;
  if (env && /^https?:\/\/[^/\s]+/i.test(env)) return new URL(env).origin;
  const first = (v: string | null) => v?.split(",")[0]?.trim() || null;
  const host = first(headers.get("x-forwarded-host")) ?? first(headers.get("host"));
  const proto = first(headers.get("x-forwarded-proto"));
  if (host && HOST_RE.test(host)) return `${proto === "https" || proto === "http" ? proto : new URL(fallback).protocol.replace(":", "")}://${host}`;
  return new URL(fallback).origin;
}
