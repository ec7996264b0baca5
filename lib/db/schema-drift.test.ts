/**
 * Fails when prisma/schema.prisma and the hand-written migration SQL drift apart:
 * applies every migration to a fresh PostgreSQL database and compares tables, columns
 * (type, nullability, default presence), primary keys, indexes and foreign keys
 * (with their ON DELETE action) against the models in schema.prisma.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "./test-db";

interface Field {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  attrs: string;
}
interface Model {
  name: string;
  fields: Field[];
  blockAttrs: string[];
}

/** Minimal reader for the subset of the Prisma schema language this project uses. */
function readSchema(text: string): Model[] {
  const models: Model[] = [];
  const re = /^model (\w+) \{([\s\S]*?)^\}/gm;
  for (const m of text.matchAll(re)) {
    const fields: Field[] = [];
    const blockAttrs: string[] = [];
    for (const raw of m[2].split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trim();
      if (!line) continue;
      if (line.startsWith("@@")) {
        blockAttrs.push(line);
        continue;
      }
      const f = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!f) throw new Error(`cannot read schema line: ${line}`);
      fields.push({ name: f[1], type: f[2], list: !!f[3], optional: !!f[4], attrs: f[5] });
    }
    models.push({ name: m[1], fields, blockAttrs });
  }
  return models;
}

/** Indexes created by raw SQL in the migrations that Prisma's schema language cannot express. */
const RAW_SQL_INDEXES: Record<string, string[]> = {
  Event: ["Event_signal_idx", "Event_bootId_pod_ts_idx"],
};

const SQL_TYPE: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Boolean: "boolean",
  DateTime: "timestamp with time zone",
  Json: "jsonb",
  Bytes: "bytea",
};

const schemaText = readFileSync(path.resolve(__dirname, "../../prisma/schema.prisma"), "utf8");
const models = readSchema(schemaText);
const modelNames = new Set(models.map((m) => m.name));

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.drop();
});

describe("schema.prisma and migrations agree", () => {
  it("has the same tables", async () => {
    const rows = await db.sql.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual([...modelNames].sort());
  });

  for (const model of models) {
    it(`model ${model.name}: columns, keys, indexes, foreign keys`, async () => {
      const cols = await db.sql.query<{
        column_name: string;
        data_type: string;
        udt_name: string;
        is_nullable: string;
        column_default: string | null;
        datetime_precision: number | null;
      }>(
        `SELECT column_name, data_type, udt_name, is_nullable, column_default, datetime_precision FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [model.name],
      );
      const byName = new Map(cols.map((c) => [c.column_name, c]));
      const scalar = model.fields.filter((f) => !modelNames.has(f.type));
      expect([...byName.keys()].sort()).toEqual(scalar.map((f) => f.name).sort());
      for (const f of scalar) {
        const c = byName.get(f.name)!;
        const want = SQL_TYPE[f.type];
        expect(want, `unknown Prisma type ${f.type}`).toBeDefined();
        if (f.list) {
          expect(c.data_type, `${model.name}.${f.name}`).toBe("ARRAY");
          expect(c.udt_name, `${model.name}.${f.name}`).toBe(`_${want === "text" ? "text" : want === "bigint" ? "int8" : want}`);
        } else {
          expect(c.data_type, `${model.name}.${f.name}`).toBe(want);
          expect(c.is_nullable, `${model.name}.${f.name} nullability`).toBe(f.optional ? "YES" : "NO");
        }
        const ts = /@db\.Timestamptz\((\d)\)/.exec(f.attrs);
        if (ts) expect(c.datetime_precision, `${model.name}.${f.name} precision`).toBe(Number(ts[1]));
        expect(c.column_default !== null, `${model.name}.${f.name} default`).toBe(/@default\(/.test(f.attrs));
      }

      const idx = await db.sql.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1`,
        [model.name],
      );
      const want = new Map<string, string[]>();
      const idField = model.fields.find((f) => /@id\b/.test(f.attrs));
      const compoundId = model.blockAttrs.map((a) => /^@@id\(\[([^\]]+)\]/.exec(a)).find(Boolean);
      want.set(`${model.name}_pkey`, idField ? [idField.name] : compoundId![1].split(",").map((s) => s.trim()));
      for (const a of model.blockAttrs) {
        const m = /^@@(index|unique)\(\[([^\]]+)\]/.exec(a);
        if (!m) continue;
        const fieldsOf = m[2].split(",").map((s) => s.trim());
        want.set(`${model.name}_${fieldsOf.join("_")}_${m[1] === "unique" ? "key" : "idx"}`, fieldsOf);
      }
      const got = new Map(idx.map((i) => [i.indexname, i.indexdef]));
      for (const [name, fieldsOf] of want) {
        const def = got.get(name);
        expect(def, `index ${name}`).toBeDefined();
        expect(
          def!
            .replace(/^.*\((.*)\)$/, "$1")
            .split(", ")
            .map((s) => s.replace(/"/g, "")),
        ).toEqual(fieldsOf);
      }
      expect([...got.keys()].sort()).toEqual([...want.keys(), ...(RAW_SQL_INDEXES[model.name] ?? [])].sort());

      const fks = await db.sql.query<{ conname: string; def: string }>(
        `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f' AND conrelid = $1::regclass`,
        [`"${model.name}"`],
      );
      const wantFk = new Map<string, string>();
      for (const f of model.fields.filter((x) => modelNames.has(x.type) && /@relation\(/.test(x.attrs))) {
        const fieldsOf = /fields: \[([^\]]+)\]/
          .exec(f.attrs)![1]
          .split(",")
          .map((s) => s.trim());
        const onDelete = /onDelete: (\w+)/.exec(f.attrs)?.[1] ?? "Restrict";
        const action = { Cascade: "CASCADE", SetNull: "SET NULL", Restrict: "RESTRICT", NoAction: "NO ACTION" }[onDelete]!;
        wantFk.set(`${model.name}_${fieldsOf.join("_")}_fkey`, `REFERENCES "${f.type}"(id) ON UPDATE CASCADE ON DELETE ${action}`);
      }
      const gotFk = new Map(fks.map((f) => [f.conname, f.def]));
      expect([...gotFk.keys()].sort()).toEqual([...wantFk.keys()].sort());
      for (const [name, tail] of wantFk) expect(gotFk.get(name), name).toContain(tail);
    });
  }

  it("stores SourceBlock.data and Finding.evidence out of line, not compressed (raw SQL migration)", async () => {
    const rows = await db.sql.query<{ rel: string; attname: string; attstorage: string }>(
      `SELECT attrelid::regclass::text AS rel, attname, attstorage FROM pg_attribute
       WHERE (attrelid = '"SourceBlock"'::regclass AND attname = 'data') OR (attrelid = '"Finding"'::regclass AND attname = 'evidence') ORDER BY 1`,
    );
    expect(rows.map((r) => `${r.rel}.${r.attname}:${r.attstorage}`)).toEqual(['"Finding".evidence:e', '"SourceBlock".data:e']);
  });
});
