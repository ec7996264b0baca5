/**
 * Fuzz of every API route handler (app/api/**\/route.ts) on PostgreSQL: path parameters, query
 * strings and bodies drawn from hostile values (extreme and inverted time ranges, ids past 32 and
 * 64 bits, `%ZZ`, NUL and other control characters, huge and non-finite numbers, deeply nested
 * JSON, wrong types, over-long text) mixed with valid ones, against one incident holding a
 * node, a boot, events and a finding. Every answer must be below 500, and every 4xx must carry
 * the JSON error shape with a message in words (lib/http/errors.ts). The routes are called the
 * way Next.js calls them: a `Request` and `{ params }` as Next decodes them.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type DbHandles } from "../lib/db/connection";
import { useTestDatabaseUrl } from "../lib/db/test-db";

vi.mock("../lib/ingest/worker", () => ({ startIngestWorker: async () => ({ enqueue: async () => {} }) }));

let t: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
let db: DbHandles;
const ids = { incidentId: "", bootId: "", nodeId: "", eventId: "", findingId: "", bundleId: "", annotationId: "" };

beforeAll(async () => {
  t = await useTestDatabaseUrl();
  db = await getDb();
  const { POST } = await import("../app/api/uploads/route");
  const log = Array.from(
    { length: 30 },
    (_, i) =>
      `Mar 14 02:10:${String(i).padStart(2, "0")} node-z containerd[987]: time="2026-03-14T02:10:${String(i).padStart(2, "0")}.000000000Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:web-${i % 3},Namespace:default,} failed" error="plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"\n`,
  ).join("");
  const boundary = "----fuzz";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="year"\r\n\r\n2026\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="containerd.log"\r\n\r\n${log}\r\n--${boundary}--\r\n`;
  const res = await POST(
    new Request("http://127.0.0.1/api/uploads", { method: "POST", body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } }),
  );
  const up = (await res.json()) as { incidentId: string; bundleId: string };
  ids.incidentId = up.incidentId;
  ids.bundleId = up.bundleId;
  const { processBundle } = await import("../lib/ingest/pipeline");
  expect(await processBundle(db, up.bundleId)).toMatchObject({ status: "ready" });
  const [b] = await db.sql.query<{ id: number; nodeId: number }>(`SELECT id, "nodeId" FROM "Boot" WHERE "incidentId" = $1`, [ids.incidentId]);
  const [e] = await db.sql.query<{ id: string }>(`SELECT id::text FROM "Event" WHERE "incidentId" = $1 LIMIT 1`, [ids.incidentId]);
  const [f] = await db.sql.query<{ id: number }>(`SELECT id FROM "Finding" WHERE "incidentId" = $1 LIMIT 1`, [ids.incidentId]);
  ids.bootId = String(b.id);
  VALID.a.push(ids.bootId);
  VALID.b.push(ids.bootId);
  VALID.boot.push(ids.bootId);
  ids.nodeId = String(b.nodeId);
  ids.eventId = e.id;
  ids.findingId = String(f?.id ?? 1);
  const { patternKey } = await import("../lib/patterns/merge");
  const pats = await db.sql.query<{ template: string }>(`SELECT template FROM "LogPattern" WHERE "incidentId" = $1`, [ids.incidentId]);
  expect(pats.length).toBeGreaterThan(0);
  for (const p of pats) VALID.pat.push(patternKey(p.template)), VALID.xpat.push(patternKey(p.template));
}, 120_000);
afterAll(async () => {
  const { closeAskPools } = await import("../lib/ask/ask-pool");
  await closeAskPools();
  await t?.drop();
});

/** Values no parameter should choke on. */
const HOSTILE = [
  "",
  " ",
  "%ZZ",
  "%",
  "%E0%A4%A",
  "a\u0000b",
  "\u0000",
  "\u0001\u001f\u007f",
  "\ud800",
  "0",
  "-1",
  "-0",
  "1e308",
  "-1e308",
  "1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "2147483648",
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551616",
  "99999999999999999999999999999999",
  "8640000000000000",
  "8640000000000001",
  "-8640000000000001",
  "9999999999999999",
  "+275760-09-13T00:00:00.000Z",
  "-271821-04-20T00:00:00.000Z",
  "9999-12-31T23:59:59.999Z",
  "0000-01-01T00:00:00Z",
  "2026-02-30T00:00:00Z",
  "2026-03-14T02:10:00+99:99",
  "2026-03-14T02:10:00Z",
  "[]",
  "{}",
  "null",
  "true",
  "words",
  "substring",
  "cni,kubelet",
  "../../etc/passwd",
  "x".repeat(5000),
  "é".repeat(300),
];

const value = (valid: string[]) =>
  fc.oneof(
    fc.constantFrom(...HOSTILE),
    fc.constantFrom("2026-03-14T02:10:00Z", ...valid),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: "grapheme", maxLength: 10 }),
  );
/** A path parameter: the seeded row's id half the time (so the other parameters reach the database), else anything. */
const idParam = (key: keyof typeof ids) =>
  fc.oneof({ arbitrary: value([]), weight: 1 }, { arbitrary: fc.constant("@valid"), weight: 1 }).map((v) => (v === "@valid" ? ids[key] : v));

const QUERY_KEYS = [
  "from",
  "to",
  "lanes",
  "sev",
  "q",
  "match",
  "mode",
  "hits",
  "pod",
  "kind",
  "cursor",
  "limit",
  "buckets",
  "download",
  "theme",
  "pat",
  "xpat",
  "bins",
  "a",
  "b",
  "boot",
  "baseline",
];
const VALID: Record<string, string[]> = {
  from: ["2026-03-14T02:00:00Z", "1773453600000", "0"],
  to: ["2026-03-14T03:00:00Z", "1773457200000", "8640000000000000"],
  lanes: ["cni", "runtime,kubelet"],
  sev: ["0", "3"],
  q: ["calico", "nodename", "SELECT count(*) FROM events", "SELECT * FORM events", "DELETE FROM events", "SELECT 1; SELECT 2"],
  match: ["words", "substring"],
  mode: ["words", "substring"],
  hits: ["1", "5"],
  pod: ["web-1"],
  kind: ["sandbox.create.failed"],
  cursor: ["1773453600000:1", "abc"],
  limit: ["1", "100"],
  buckets: ["10", "100"],
  download: ["1"],
  theme: ["light", "dark"],
  // the seeded boot's template key is added once it is stored (beforeAll)
  pat: ["zzzzzz"],
  xpat: ["a1,b2", "zzzzzz"],
  bins: ["4", "40"],
  // the seeded boot's id is added once it is stored (beforeAll)
  a: ["1"],
  b: ["2"],
  boot: ["1"],
  baseline: ["before", "boot"],
};
const query = fc
  .array(
    fc.constantFrom(...QUERY_KEYS).chain((k) => value(VALID[k] ?? []).map((v) => [k, v] as const)),
    { maxLength: 6 },
  )
  .map((pairs) => {
    // always a range, mostly valid, so the reads reach the database
    const p = new URLSearchParams({ from: "2026-03-14T02:00:00Z", to: "2026-03-14T03:00:00Z" });
    for (const [k, v] of pairs) p.set(k, v);
    return p.toString();
  });

/** A JSON value nested `depth` deep. */
const nested = (depth: number) => "[".repeat(depth) + "1" + "]".repeat(depth);
const jsonBody = fc.oneof(
  fc.constantFrom(
    nested(10_000),
    nested(100_000),
    `{"a":${'{"a":'.repeat(5000)}1${"}".repeat(5001)}`,
    "",
    "not json",
    "null",
    "[]",
    '"text"',
    "1e999",
    '{"text":"\\u0000"}',
  ),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        text: value(["a note", "journal line"]),
        q: value(["SELECT kind, count(*) FROM events GROUP BY 1", 'SELECT * FROM public."Event"', "SELECT count(*) FROM events a, events b"]),
        ts: value(["2026-03-14T02:10:00Z"]),
        eventId: fc.oneof(value([]), fc.constant("@event")),
        name: value(["node-a"]),
        node: value(["node-a"]),
        tz: value(["UTC", "Europe/Berlin"]),
        year: value(["2026"]),
        collected: value(["2026-03-14T03:00:00Z"]),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o).replace('"@event"', `"${ids.eventId}"`)),
  fc
    .record({ text: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.array(fc.string())), ts: fc.oneof(fc.double(), fc.string()) })
    .map((o) => JSON.stringify(o)),
);

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A route: its module, method, the path parameters it takes, and whether it reads a JSON body. */
const ROUTES: Array<{ mod: string; method: string; params: Array<keyof typeof ids>; body?: "json" | "form" }> = [
  { mod: "bundles/[bundleId]", method: "GET", params: ["bundleId"] },
  { mod: "incidents", method: "GET", params: [] },
  { mod: "incidents/[incidentId]", method: "GET", params: ["incidentId"] },
  { mod: "incidents/[incidentId]/report", method: "GET", params: ["incidentId"] },
  { mod: "incidents/[incidentId]/export.md", method: "GET", params: ["incidentId"] },
  { mod: "incidents/[incidentId]/search", method: "GET", params: ["incidentId"] },
  { mod: "incidents/[incidentId]/nodes/[nodeId]", method: "PATCH", params: ["incidentId", "nodeId"], body: "json" },
  { mod: "incidents/[incidentId]/events/[eventId]", method: "GET", params: ["incidentId", "eventId"] },
  { mod: "incidents/[incidentId]/findings/[findingId]/evidence", method: "GET", params: ["incidentId", "findingId"] },
  { mod: "incidents/[incidentId]/annotations/[annotationId]", method: "DELETE", params: ["incidentId", "annotationId"] },
  { mod: "incidents/[incidentId]/boots/[bootId]/annotations", method: "GET", params: ["incidentId", "bootId"] },
  { mod: "incidents/[incidentId]/boots/[bootId]/annotations", method: "POST", params: ["incidentId", "bootId"], body: "json" },
  { mod: "incidents/[incidentId]/boots/[bootId]/density", method: "GET", params: ["incidentId", "bootId"] },
  { mod: "incidents/[incidentId]/boots/[bootId]/events", method: "GET", params: ["incidentId", "bootId"] },
  { mod: "incidents/[incidentId]/boots/[bootId]/events/count", method: "GET", params: ["incidentId", "bootId"] },
  { mod: "incidents/[incidentId]/boots/[bootId]/events/facets", method: "GET", params: ["incidentId", "bootId"] },
  { mod: "incidents/[incidentId]/boots/[bootId]/patterns", method: "GET", params: ["incidentId", "bootId"] },
  { mod: "incidents/[incidentId]/diff", method: "GET", params: ["incidentId"] },
  { mod: "incidents/[incidentId]/explain", method: "GET", params: ["incidentId"] },
  { mod: "incidents/[incidentId]/sql", method: "GET", params: ["incidentId"] },
  { mod: "incidents/[incidentId]/sql", method: "POST", params: ["incidentId"], body: "json" },
  { mod: "incidents/[incidentId]/boots/[bootId]/timeline.svg", method: "GET", params: ["incidentId", "bootId"] },
  { mod: "preview", method: "POST", params: [], body: "json" },
  { mod: "auth/sign-in", method: "POST", params: [], body: "form" },
  { mod: "health", method: "GET", params: [] },
  { mod: "auth/sign-out", method: "POST", params: [] },
];

/** Every route module of the app, by its folder under app/api. */
const MODULES = Object.fromEntries(
  Object.entries(import.meta.glob("../app/api/**/route.ts")).map(([file, load]) => [file.slice("../app/api/".length, -"/route.ts".length), load]),
);

/** Routes fuzzed below on their own (deleting the incident: never the seeded one; the PNG, slow to draw: the hostile values alone), or elsewhere (uploads: tests/upload-bounds.test.ts). */
const ELSEWHERE = ["POST uploads", "DELETE incidents/[incidentId]", "GET incidents/[incidentId]/boots/[bootId]/timeline.png"];

async function handler(mod: string, method: string): Promise<Handler> {
  const m = (await MODULES[mod]()) as Record<string, Handler>;
  return m[method];
}

/** The answer is below 500; a 4xx is the JSON error shape with a message. */
async function check(label: string, res: Response): Promise<void> {
  const text = await res.text();
  expect([label, res.status, text.slice(0, 300)]).toEqual([label, expect.any(Number), expect.any(String)]);
  if (res.status >= 500) throw new Error(`${label}: ${res.status} ${text.slice(0, 300)}`);
  if (res.status >= 400 && (res.headers.get("content-type") ?? "").includes("json")) {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (!body.error?.message || /\n\s+at |\/work\/|node_modules/.test(body.error.message))
      throw new Error(`${label}: ${res.status} without a plain message: ${text.slice(0, 300)}`);
  }
}

describe("every API route, fuzzed", () => {
  it("covers every route module and method", async () => {
    const listed = new Set(ROUTES.map((r) => `${r.method} ${r.mod}`));
    const missing: string[] = [];
    for (const [mod, load] of Object.entries(MODULES))
      for (const method of Object.keys((await load()) as object).filter((k) => /^(GET|POST|PUT|PATCH|DELETE)$/.test(k)))
        if (!listed.has(`${method} ${mod}`) && !ELSEWHERE.includes(`${method} ${mod}`)) missing.push(`${method} ${mod}`);
    expect(missing).toEqual([]);
  });

  for (const r of ROUTES) {
    it(`${r.method} /api/${r.mod}: no 500, a message for every 4xx`, async () => {
      const fn = await handler(r.mod, r.method);
      const params = fc.record(Object.fromEntries(r.params.map((k) => [k, idParam(k)])) as Record<string, fc.Arbitrary<string>>);
      const body =
        r.body === "json"
          ? jsonBody
          : r.body === "form"
            ? fc.string({ maxLength: 50 }).map((s) => `token=${encodeURIComponent(s)}&next=${encodeURIComponent(s)}`)
            : fc.constant(null);
      const log = vi.spyOn(console, "error").mockImplementation(() => {});
      const call = async (p: Record<string, string>, q: string, b: string | null) => {
        const init: RequestInit = { method: r.method };
        if (b !== null) {
          init.body = b;
          init.headers = { "content-type": r.body === "form" ? "application/x-www-form-urlencoded" : "application/json" };
        }
        const req = new Request(`http://127.0.0.1/api/${r.mod}?${q}`, init);
        await check(
          `${r.method} ${r.mod} ${JSON.stringify(p).slice(0, 200)} ?${q.slice(0, 200)} ${String(b).slice(0, 100)}`,
          await fn(req, { params: Promise.resolve(p) }),
        );
      };
      try {
        // first every hostile value in every path parameter and query key, the others valid
        const valid = Object.fromEntries(r.params.map((k) => [k, ids[k]]));
        const range = "from=2026-03-14T02:00:00Z&to=2026-03-14T03:00:00Z";
        for (const v of HOSTILE) {
          for (const k of r.params) await call({ ...valid, [k]: v }, range, null);
          for (const k of QUERY_KEYS) {
            const q = new URLSearchParams(range);
            q.set(k, v);
            await call(valid, q.toString(), r.body === "json" ? "{}" : null);
          }
        }
        await fc.assert(
          fc.asyncProperty(params, query, body, (p, q, b) => call(p, q, b)),
          { numRuns: 300, seed: 26 },
        );
      } finally {
        log.mockRestore();
      }
    }, 120_000);
  }

  it("DELETE /api/incidents/[incidentId] and GET …/timeline.png: no 500 for the hostile values", async () => {
    const del = await handler("incidents/[incidentId]", "DELETE");
    const png = await handler("incidents/[incidentId]/boots/[bootId]/timeline.png", "GET");
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const v of HOSTILE) {
        await check(`DELETE ${v}`, await del(new Request("http://127.0.0.1/x", { method: "DELETE" }), { params: Promise.resolve({ incidentId: v }) }));
        await check(`png bootId ${v}`, await png(new Request("http://127.0.0.1/x"), { params: Promise.resolve({ incidentId: ids.incidentId, bootId: v }) }));
        for (const k of ["from", "to", "lanes", "theme"])
          await check(
            `png ${k}=${v}`,
            await png(new Request(`http://127.0.0.1/x?${new URLSearchParams({ [k]: v })}`), {
              params: Promise.resolve({ incidentId: ids.incidentId, bootId: ids.bootId }),
            }),
          );
      }
    } finally {
      log.mockRestore();
    }
    expect(await db.sql.query(`SELECT id FROM "Incident" WHERE id = $1`, [ids.incidentId])).toHaveLength(1);
  }, 300_000);
});
