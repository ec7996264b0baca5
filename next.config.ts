import type { NextConfig } from "next";

const config: NextConfig = {
  // database drivers and the embedded PostgreSQL (WASM + data files) stay outside the bundle
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "pg-copy-streams", "@prisma/adapter-pg", "yauzl", "tar", "pg-boss"],
  typedRoutes: false,
  poweredByHeader: false,
};

export default config;
