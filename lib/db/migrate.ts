/**
 * Applies the SQL migrations in `prisma/migrations/<stamp>_<name>/migration.sql` in name
 * order and records them in `_prisma_migrations` with the columns and checksum (sha256 hex
 * of the file) that `prisma migrate deploy` uses, so a machine with Prisma's schema engine
 * can take over the same database. Needed because Prisma's schema engine is a binary from
 * Prisma's own host, which machines with only npm registry access cannot download.
 *
 * Throws when an applied migration's file changed (checksum mismatch) or a migration fails;
 * a failed migration is rolled back (each runs in its own transaction). A released migration
 * whose comments were reworded lists its earlier checksums in REWORDED: a database built with
 * one of them is current, and its recorded checksum is brought up to the file's.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlDb } from "./sql";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Folder of the migrations (overridable for tests with BOOTLINE_MIGRATIONS_DIR). */
export function migrationsDir(): string {
  return path.resolve(process.env.BOOTLINE_MIGRATIONS_DIR ?? path.join(process.cwd(), "prisma", "migrations"));
}

/** Reads the migrations folder, in name order. */
export function readMigrations(dir = migrationsDir()): Migration[] {
  if (!existsSync(dir)) throw new Error(`migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Earlier checksums (sha256 hex of the whole file) of released migrations whose SQL is
 * unchanged and whose comments were reworded since, by migration name.
 */
export const REWORDED: Readonly<Record<string, readonly string[]>> = {
  "20261202000000_redaction": ["0ad84549d17b51a66cd9f981ac53f7e8bf1afe32d09491306e9d386332dcebb0"],
  "20261202000100_bundle_duplicate": ["e58f4e2aa322789dc00881e0392f43a5a584d12d05fc34952635378dc8471dfa"],
  "20261203000000_external_storage": ["73313629146d4b150358e16955a2ede27a17fe213aea561f92b96e54220dd50a"],
};

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Applies pending migrations; returns the names applied now. */
export async function applyMigrations(db: SqlDb, dir = migrationsDir()): Promise<string[]> {
  const migrations = readMigrations(dir);
  return db.transaction(async (tx) => {
    // one migrator at a time (several app processes or test workers on one database)
    if (db.backend === "postgres") await tx.query("SELECT pg_advisory_xact_lock(72707369)");
    await tx.exec(CREATE_TABLE);
    const applied = await tx.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const byName = new Map(applied.map((r) => [r.migration_name, r.checksum]));
    const done: string[] = [];
    for (const m of migrations) {
      const prev = byName.get(m.name);
      if (prev !== undefined) {
        if (prev !== m.checksum && REWORDED[m.name]?.includes(prev)) {
          await tx.query(`UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2`, [m.checksum, m.name]);
          continue;
        }
        if (prev !== m.checksum)
          throw new Error(
            `migration ${m.name} differs from the one this database was built with (checksum): the database comes from another version of bootline; ` +
              `use a new database (with the embedded one: move ${db.backend === "pglite" ? "./.data" : "its data folder"} away)`,
          );
        continue;
      }
      const id = randomUUID();
      await tx.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [id, m.checksum, m.name]);
      await tx.exec(m.sql);
      await tx.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
      done.push(m.name);
    }
    return done;
  });
}
