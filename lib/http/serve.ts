/**
 * The request listener of bootline's own HTTP server (scripts/serve.ts, run by `npm start`),
 * in front of Next.js's handler. Per request, before Next sees it:
 * - a path that is not valid percent-encoding (`%ZZ`, a cut `%E0%A4%A`) or holds a NUL or
 *   another control character (raw or encoded) is answered 400 in words, for pages and APIs
 *   alike (`/api/…` in the JSON error shape of lib/http/errors.ts);
 * - the client address is resolved from the socket (lib/http/client-address.ts: the peer, or
 *   what a trusted proxy's `X-Forwarded-For` says) and set in `CLIENT_HEADER`, after removing any
 *   copy the client sent; from a peer that is not a trusted proxy the `X-Forwarded-For`,
 *   `X-Forwarded-Proto`, `X-Forwarded-Host`, `X-Forwarded-Port` and `Forwarded` headers are
 *   removed, so Next.js sets them from the socket and nothing downstream believes a client's word;
 * - over HTTPS (a TLS socket, or a trusted proxy's `X-Forwarded-Proto: https`) the response
 *   carries `Strict-Transport-Security: max-age=31536000; includeSubDomains` (a year, the value
 *   OWASP's HTTP Strict Transport Security cheat sheet gives; browsers ignore the header over
 *   plain HTTP, RFC 6797 section 8.1, so it is sent only where it means something).
 *
 * `markServed()` records, process-wide, that requests come through this listener: the throttle
 * (lib/auth/throttle.ts `clientAddress`) believes `CLIENT_HEADER` only then.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { BlockList } from "node:net";
import { CLIENT_HEADER, isTrustedPeer, resolveClientAddress } from "./client-address";

export const HSTS = "max-age=31536000; includeSubDomains";

/** Headers a client may only set through a trusted proxy. */
const FORWARDED_HEADERS = ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port", "forwarded"];

const g = globalThis as unknown as { __bootlineServed?: boolean };

/** Records that this process serves through `requestListener` (see the module comment). */
export function markServed(): void {
  g.__bootlineServed = true;
}

/** Whether this process serves through `requestListener`. */
export function isServed(): boolean {
  return g.__bootlineServed === true;
}

/** Why the path of a request target cannot be served (a sentence), or null when it can. */
export function pathProblem(target: string): string | null {
  const path = target.split(/[?#]/, 1)[0];
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return "the path holds a control character";
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return "the path is not valid percent-encoding (a % must start %XX of UTF-8 bytes)";
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return decoded.includes("\0") ? "the path holds a NUL character (%00)" : "the path holds a control character";
  return null;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** The listener: checks and prepares each request as the module comment says, then hands it to `handle`. */
export function requestListener(handle: Handler, trustedProxies: BlockList): Handler {
  markServed();
  return (req, res) => {
    const target = req.url ?? "/";
    const problem = pathProblem(target);
    if (problem) {
      const api = target.startsWith("/api/");
      res.writeHead(400, { "content-type": api ? "application/json" : "text/plain; charset=utf-8", "x-content-type-options": "nosniff" });
      res.end(api ? JSON.stringify({ error: { code: "bad_request", message: problem } }) : `${problem}\n`);
      return;
    }
    const peer = req.socket.remoteAddress;
    const trusted = isTrustedPeer(peer, trustedProxies);
    const xff = req.headers["x-forwarded-for"];
    const client = resolveClientAddress(peer, trusted ? [xff ?? []].flat().join(",") : null, trustedProxies);
    delete req.headers[CLIENT_HEADER];
    if (!trusted) for (const h of FORWARDED_HEADERS) delete req.headers[h];
    req.headers[CLIENT_HEADER] = client;
    const proto = trusted
      ? String(req.headers["x-forwarded-proto"] ?? "")
          .split(",")[0]
          .trim()
          .toLowerCase()
      : "";
    if ((req.socket as TLSSocket).encrypted || proto === "https") res.setHeader("Strict-Transport-Security", HSTS);
    return handle(req, res);
  };
}
