// Runs `prisma generate` with the schema engine stub unless a real engine is configured.
// Prisma cannot download its schema engine from a machine that reaches only the npm registry.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const stub = fileURLToPath(new URL("./no-schema-engine.sh", import.meta.url));
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= stub;
const r = spawnSync("npx", ["prisma", "generate"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
