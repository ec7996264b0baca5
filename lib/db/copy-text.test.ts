/**
 * COPY text escaping (PostgreSQL docs, "COPY ... File Formats / Text Format": backslash, tab,
 * newline and carriage return are written as \\, \t, \n, \r; \N is NULL; NUL cannot be stored
 * and is dropped). Checked against the server itself: every value goes through
 * `COPY ... FROM STDIN` and is read back unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "./test-db";
import { CopyRowWriter } from "./copy-rows";
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

  // every kind of code unit the writer treats apart: ASCII, escapes, other controls, 2- and
  // 3-byte UTF-8, a surrogate pair, lone surrogates (U+FFFD in text, \uXXXX in JSON)
  const odd = ["plain words", klog, "a\tb\\c\nd\re\0f", "\b\f\u0001\u001f", "café ñ", "日本語", "emoji 😀 pair", "lone \ud800 high", "lone \udc00 low", "end \ud83d", "tab\tcafé 日 😀 \ud800 \udc00\n", ""];
  const objects: unknown[] = [
    null,
    undefined,
    { err: 'say "hi"\n\tnow' },
    Object.fromEntries(odd.map((s, i) => [`k${i}${s.slice(0, 2)}`, s])),
    { "2": "numeric keys first", a: "b", "1": "c" },
    { k8s: { reason: "Rebooted", count: 2 } },
    { n: 1 },
    ["a", "b\\c"],
    { when: new Date(0) },
  ];

  it("CopyRowWriter writes the bytes copyText and copyJson give, rows whole within a chunk", () => {
    const w = new CopyRowWriter(64);
    const expected: string[] = [];
    odd.forEach((s, i) => {
      const o = objects[i % objects.length];
      w.raw(`${i}\t`).text(s).byte(9).json(o).byte(9).text(null).byte(10);
      expected.push(`${i}\t${copyText(s)}\t${copyJson(o)}\t\\N\n`);
    });
    for (const o of objects) {
      w.json(o).byte(10);
      expected.push(`${copyJson(o)}\n`);
    }
    const chunks = w.done();
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c[c.length - 1]).toBe(10);
    // as Buffer.write encodes the strings (a lone surrogate as U+FFFD)
    expect(Buffer.concat(chunks).toString("utf8")).toBe(Buffer.from(expected.join(""), "utf8").toString("utf8"));
    expect(Buffer.concat(chunks).equals(Buffer.from(expected.join(""), "utf8"))).toBe(true);
  });

  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.drop();
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
