import { describe, expect, it } from "vitest";
import { readStatement, StatementError } from "./statement";

const reason = (text: string, opts?: { recursive: boolean }) => {
  try {
    readStatement(text, opts);
    return "ok";
  } catch (e) {
    return e instanceof StatementError ? e.reason : String(e);
  }
};

describe("readStatement", () => {
  it("takes one query, trailing semicolons and comments dropped", () => {
    expect(readStatement("SELECT count(*) FROM events;; -- all of them\n")).toEqual({
      text: "SELECT count(*) FROM events",
      kind: "query",
      words: ["select", "count", "from", "events"],
    });
    expect(readStatement("  explain select 1").kind).toBe("explain");
    expect(readStatement("(select 1)").kind).toBe("query");
    expect(readStatement("with x as (select 1) table x").words[0]).toBe("with");
  });

  it("does not read semicolons, words or comment marks inside strings, names, dollar strings and comments", () => {
    expect(reason("SELECT 'a;b', \"x;y\", $$ ; DELETE $$, $t$;$t$ /* ; /* nested ; */ */ FROM events")).toBe("ok");
    expect(reason("SELECT E'it\\'s; fine', 'it''s; fine' -- ; DELETE\n")).toBe("ok");
    expect(readStatement("SELECT '-- not a comment' AS x").text).toBe("SELECT '-- not a comment' AS x");
  });

  it("refuses several statements, writes, session control and other commands", () => {
    expect(reason("SELECT 1; SELECT 2")).toBe("several");
    expect(reason("SELECT 1; DELETE FROM events")).toBe("several");
    for (const w of [
      "INSERT INTO events VALUES (1)",
      "update events set message = ''",
      "DELETE FROM events",
      "create temp table t (a int)",
      "DROP VIEW events",
      "COPY events TO STDOUT",
      "DO $$ BEGIN END $$",
      "truncate events",
      "call p()",
    ])
      expect(reason(w), w).toBe("write");
    for (const w of ["SET ROLE postgres", "RESET ROLE", "BEGIN", "COMMIT", "set bootline.x = 1", "show all", "declare c cursor for select 1"])
      expect(reason(w), w).toBe("session");
    expect(reason("listen x")).toBe("write");
    expect(reason("frobnicate")).toBe("not-query");
    expect(reason("SELECT * INTO t FROM events")).toBe("write");
    expect(reason("SELECT * FROM events WHERE message = 'into'")).toBe("ok");
    expect(reason("  -- nothing\n ;")).toBe("empty");
  });

  it("refuses unterminated strings and, where asked, WITH RECURSIVE", () => {
    expect(reason("SELECT 'abc")).toBe("unterminated");
    expect(reason("SELECT $x$ abc")).toBe("unterminated");
    expect(reason("SELECT 1 /* open")).toBe("unterminated");
    const rec = "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT * FROM t";
    expect(reason(rec)).toBe("ok");
    expect(reason(rec, { recursive: false })).toBe("recursive");
    expect(reason("SELECT 'recursive'", { recursive: false })).toBe("ok");
  });
});
