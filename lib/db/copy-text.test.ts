/**
 * COPY text escaping (PostgreSQL docs, "COPY ... File Formats / Text Format": backslash, tab,
 * newline and carriage return are written as \\, \t, \n, \r; \N is NULL; NUL cannot be stored
 * and is dropped). Checked against the server itself: every value goes through
 * `COPY ... FROM STDIN` and is read back unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "./test-db";
import { copyJson, copyText } from "./sql";

const klog = String.raw`RunPodSandbox from runtime service failed err="rpc error: code = Unknown desc = failed to setup network for sandbox \"b9cc\": plugin type=\"calico\" failed (add)"`;

describe("copyText and copyJson", () => {
  it("escapes as the text format wants", () => {
    expect(copyText(null)).toBe("\\N");
    expect(copyText(42)).toBe("42");
    expect(copyText("plain words")).toBe("plain words");
    expect(copyText(klog)).toBe(klog.replaceAll("\\", "\\\\"));
    expect(copyText("a\tb\\c\nd\re\0f")).toBe("a\\tb\\\\c\\nd\\re" + "f");
    expect(copyJson(null)).toBe("\\N");
    expect(copyJson({ err: 'say "hi"\n\tnow' })).toBe(String.raw`{"err":"say \\"hi\\"\\n\\tnow"}`);
  });

  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("a COPY whose input fails is aborted: the error comes back and the transaction rolls back", async () => {
    await db.sql.exec(`CREATE TABLE copy_abort (t text)`);
    function* rows(): Generator<string> {
      yield "kept only if the COPY ends\n";
      throw new Error("rows file gone");
    }
    // without the abort the connection stays in COPY mode and the ROLLBACK waits forever
    await expect(db.sql.transaction((tx) => tx.copyFrom("copy_abort", ["t"], rows()))).rejects.toThrow("rows file gone");
    expect(await db.sql.query(`SELECT count(*)::int AS n FROM copy_abort`)).toEqual([{ n: 0 }]);
    expect(await db.sql.copyFrom("copy_abort", ["t"], ["then a COPY works\n"])).toBe(1);
  });

  it("PostgreSQL reads every value back as it was", async () => {
    const texts = ["plain words", klog, "a\tb\\c\nd\re", "trailing backslash \\", "", "\\N as text"];
    const json = [{ err: 'say "hi"\n\tnow' }, { k8s: { reason: "Rebooted", count: 2 } }, { path: "C:\\dir\\file" }];
    await db.sql.exec(`CREATE TABLE copy_check (t text, j text)`);
    const rows = [...texts.map((t, i) => `${copyText(t)}\t${copyJson(json[i % json.length])}\n`), `\\N\t${copyJson(undefined)}\n`];
    expect(await db.sql.copyFrom("copy_check", ["t", "j"], rows)).toBe(rows.length);
    const back = await db.sql.query<{ t: string | null; j: string | null }>(`SELECT t, j FROM copy_check`);
    expect(back.map((r) => r.t)).toEqual([...texts, null]);
    expect(back.map((r) => (r.j === null ? null : JSON.parse(r.j)))).toEqual([...texts.map((_, i) => json[i % json.length]), null]);
  });
});
