/**
 * What the SQL page's text is, read before any database sees it: one statement, and a query
 * (SELECT, WITH, VALUES, TABLE or EXPLAIN). This is for clear messages only: what keeps the
 * page read-only and inside its incident is the database (a read-only transaction, a role that
 * may read only the views of schema `ask`; docs/sql.md). The reader follows PostgreSQL's
 * lexical rules (sql-syntax-lexical in the PostgreSQL manual): '…' strings with '' inside,
 * E'…' strings with backslash escapes, "…" identifiers, $tag$…$tag$ strings, -- and nested
 * /* *\/ comments.
 *
 * `readStatement` throws `StatementError` with a message in words.
 */

export class StatementError extends Error {
  constructor(
    readonly reason: "empty" | "several" | "write" | "session" | "not-query" | "recursive" | "unterminated",
    message: string,
  ) {
    super(message);
  }
}

export interface Statement {
  /** the statement without what follows its last token (semicolons, blanks, comments) */
  text: string;
  /** `explain` runs as it is; a `query` is read through a cursor (a row limit without running it to its end) */
  kind: "query" | "explain";
  /** lower-cased words outside strings, quoted identifiers and comments, in order */
  words: string[];
}

/** Longest statement accepted, in characters. */
export const MAX_STATEMENT = 20_000;

const QUERY_START = new Set(["select", "with", "values", "table", "explain"]);
/** First words of statements that write (data, schema, privileges, files). */
const WRITES = new Set([
  "insert",
  "update",
  "delete",
  "merge",
  "truncate",
  "create",
  "alter",
  "drop",
  "grant",
  "revoke",
  "comment",
  "copy",
  "do",
  "call",
  "vacuum",
  "analyze",
  "analyse",
  "reindex",
  "cluster",
  "refresh",
  "lock",
  "import",
  "security",
  "reassign",
  "notify",
  "listen",
  "unlisten",
]);
/** First words of transaction and session control: the page runs each query in a transaction of its own. */
const SESSION = new Set([
  "begin",
  "start",
  "commit",
  "end",
  "rollback",
  "abort",
  "savepoint",
  "release",
  "set",
  "reset",
  "show",
  "prepare",
  "execute",
  "deallocate",
  "discard",
  "load",
  "checkpoint",
  "declare",
  "fetch",
  "move",
  "close",
]);

/**
 * Functions whose effect outlives the query's transaction or reaches other sessions: large
 * objects (PostgreSQL before 16 lets lo_create run in a read-only transaction), session-level
 * advisory locks (held by the pooled connection after the query), signals to other backends.
 * The transaction is rolled back and the backstops are in the database (docs/sql.md); this gives
 * the clear message.
 */
const WRITING_FUNCTIONS = new Set([
  "lo_create",
  "lo_creat",
  "lo_import",
  "lo_export",
  "lo_unlink",
  "lo_from_bytea",
  "lo_put",
  "lo_truncate",
  "lo_truncate64",
  "lo_open",
  "lowrite",
  "pg_advisory_lock",
  "pg_advisory_lock_shared",
  "pg_try_advisory_lock",
  "pg_try_advisory_lock_shared",
  "pg_cancel_backend",
  "pg_terminate_backend",
  "pg_notify",
]);

interface Lexed {
  words: string[];
  /** character index of each top-level `;` */
  semicolons: number[];
  /** index just past the last character that is neither blank, `;` nor comment */
  lastCode: number;
}

/** Words and semicolons of `text` outside strings, quoted identifiers and comments. */
function lex(text: string): Lexed {
  const words: string[] = [];
  const semicolons: number[] = [];
  let lastCode = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === "/" && text[i + 1] === "*") depth++, (i += 2);
        else if (text[i] === "*" && text[i + 1] === "/") depth--, (i += 2);
        else i++;
      }
      if (depth > 0) throw new StatementError("unterminated", "a /* comment is not closed");
      continue;
    }
    if (c === ";") {
      semicolons.push(i++);
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'") {
      const escapes = i > 0 && /[eE]/.test(text[i - 1]) && (i < 2 || !/[\w$]/.test(text[i - 2]));
      i++;
      for (;;) {
        if (i >= n) throw new StatementError("unterminated", "a quoted string is not closed (')");
        if (escapes && text[i] === "\\") i += 2;
        else if (text[i] === "'" && text[i + 1] === "'") i += 2;
        else if (text[i] === "'") break;
        else i++;
      }
      i++;
    } else if (c === '"') {
      // "" inside a quoted name: the scan goes on from the second quote as another quoted name
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new StatementError("unterminated", 'a quoted name is not closed (")');
      i = end + 1;
    } else if (c === "$" && (i === 0 || !/[\w$]/.test(text[i - 1]))) {
      const tag = /^\$([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(text.slice(i, i + 70));
      if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        if (end < 0) throw new StatementError("unterminated", `a ${tag[0]} string is not closed`);
        i = end + tag[0].length;
      } else i++;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$\u0080-\uffff]/.test(text[j])) j++;
      words.push(text.slice(i, j).toLowerCase());
      i = j;
    } else i++;
    lastCode = i;
  }
  return { words, semicolons, lastCode };
}

/**
 * Reads the page's text: one statement that is a query. `recursive: false` refuses WITH
 * RECURSIVE (on PGlite, where nothing stops a query that runs without end).
 */
export function readStatement(raw: string, opts: { recursive: boolean } = { recursive: true }): Statement {
  if (raw.length > MAX_STATEMENT) throw new StatementError("several", `the query is longer than ${MAX_STATEMENT} characters`);
  const { words, semicolons, lastCode } = lex(raw);
  if (!words.length) throw new StatementError("empty", "type a query, e.g. SELECT count(*) FROM events");
  // trailing semicolons (and blanks or comments after them) are fine; one between two statements is not
  const inner = semicolons.filter((s) => s < lastCode);
  if (inner.length) throw new StatementError("several", "one statement at a time: the text holds a ; between two statements");
  const text = raw.slice(0, lastCode).trim();
  const first = words[0];
  if (WRITES.has(first)) throw new StatementError("write", `read-only: this page cannot change data (${first.toUpperCase()} is refused)`);
  if (SESSION.has(first))
    throw new StatementError(
      "session",
      `${first.toUpperCase()} is refused: each query runs alone in a read-only transaction of its own, with the page's settings`,
    );
  if (!QUERY_START.has(first))
    throw new StatementError("not-query", `only queries run here (SELECT, WITH, VALUES, TABLE, EXPLAIN), not ${first.toUpperCase()}`);
  if (words.includes("into") && first === "select" && selectInto(words))
    throw new StatementError("write", "read-only: this page cannot change data (SELECT … INTO creates a table)");
  const writer = words.find((w) => WRITING_FUNCTIONS.has(w));
  if (writer) throw new StatementError("write", `read-only: this page cannot change data (${writer}() is refused: its effect would outlast the query)`);
  if (!opts.recursive && words.includes("recursive"))
    throw new StatementError("recursive", "WITH RECURSIVE is refused on the embedded database: it has no time limit that could stop a recursion without end");
  return { text, kind: first === "explain" ? "explain" : "query", words };
}

/** Whether `SELECT … INTO name` (a table created) rather than INTO inside a nested statement. */
function selectInto(words: string[]): boolean {
  const into = words.indexOf("into");
  const from = words.indexOf("from");
  return into > 0 && (from < 0 || into < from);
}
