/**
 * The migration runner: a released migration whose comments were reworded (its earlier
 * checksum listed in REWORDED) keeps an existing database current and takes the file's
 * checksum; any other changed file is refused.
 */
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, readMigrations, REWORDED } from "./migrate";
import { pgliteSql } from "./sql";

const pg = new PGlite();
const db = pgliteSql(pg);
afterAll(() => pg.close());

describe("applyMigrations", () => {
  it("accepts a reworded migration's earlier checksum, records the current one, and refuses any other change", async () => {
    const all = readMigrations();
    expect(await applyMigrations(db)).toEqual(all.map((m) => m.name));
    const [name, earlier] = Object.entries(REWORDED)[0];
    const current = all.find((m) => m.name === name)!.checksum;
    expect(earlier).not.toContain(current);

    await pg.query(`UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2`, [earlier[0], name]);
    expect(await applyMigrations(db)).toEqual([]);
    const { rows } = await pg.query<{ checksum: string }>(`SELECT checksum FROM "_prisma_migrations" WHERE migration_name = $1`, [name]);
    expect(rows).toEqual([{ checksum: current }]);

    await pg.query(`UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2`, ["0".repeat(64), name]);
    await expect(applyMigrations(db)).rejects.toThrow(`migration ${name} differs from the one this database was built with`);
  });
});
