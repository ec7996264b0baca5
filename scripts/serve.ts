/**
 * bootline's HTTP server: Next.js's production handler (the build in `.next`, or
 * `NEXT_DIST_DIR`) behind the request listener of lib/http/serve.ts, which resolves each client's
 * address from the socket (`BOOTLINE_TRUSTED_PROXIES`: the proxies whose `X-Forwarded-For` is
 * believed), sends HSTS over HTTPS and refuses malformed paths. Run by `npm start` (scripts/start.ts)
 * once the build and the database are ready; `PORT` (3000) and `HOST` (127.0.0.1) as there.
 * Exits with 1 and the reason when `BOOTLINE_TRUSTED_PROXIES` holds an entry that is no address.
 */
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { parseTrustedProxies, TRUSTED_PROXIES_ENV } from "../lib/http/client-address";
import { requestListener } from "../lib/http/serve";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? "3000");
const host = process.env.HOST || "127.0.0.1";

async function main() {
  const trusted = parseTrustedProxies(process.env[TRUSTED_PROXIES_ENV]);
  const app = next({ dev: false, dir: root, hostname: host, port });
  await app.prepare();
  const server = createServer(requestListener(app.getRequestHandler(), trusted));
  server.listen(port, host, () => console.log(`bootline: listening on ${host}:${port}`));
  // as `next start` does: finish the requests under way, close Next, exit 128 + the signal's number
  let stopping = false;
  for (const [sig, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      server.close(() => void app.close().finally(() => process.exit(code)));
    });
}

main().catch((e) => {
  console.error(`bootline: ${(e as Error).message}`);
  process.exit(1);
});
