import type { NextConfig } from "next";
import { API_CSP, SECURITY_HEADERS } from "./lib/http/security-headers";

const config: NextConfig = {
  // a separate build folder lets two builds of one checkout run side by side (NEXT_DIST_DIR=.next-e2e)
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // database drivers and the embedded PostgreSQL (WASM + data files) stay outside the bundle
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "pg-copy-streams", "@prisma/adapter-pg", "yauzl", "tar", "pg-boss"],
  typedRoutes: false,
  poweredByHeader: false,
  // browser security headers on every response; pages get their Content-Security-Policy (with a
  // nonce) from proxy.ts, everything else the locked-down one below
  async headers() {
    return [
      { source: "/:path*", headers: [...SECURITY_HEADERS] },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
    ];
  },
};

export default config;
