import { defineConfig } from "prisma/config";

// Prisma 7 config. Migrations are applied by lib/db/migrate.ts (no schema engine on
// machines without network access); a connected machine can run `prisma migrate deploy`
// on the same folder.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test" },
});
