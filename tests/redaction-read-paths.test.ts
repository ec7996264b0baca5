/**
 * The redaction table's samples (lib/redact/secret-samples.ts, the table of
 * docs/hostile-input.md) through the whole app on PostgreSQL: a log holding every sample, each
 * inside a kubelet journal line, is uploaded through `POST /api/uploads` and ingested, its search
 * index and word counts built; then no read path gives any sample's secret back (incident, report,
 * Markdown export, timeline picture, boot events with and without a search, every event's detail,
 * incident search for the secret and for its words), and no row of any table holds it (events,
 * source text, search word counts: every table of the schema, read as text).
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { SECRET_SAMPLES } from "../lib/redact/secret-samples";
import { appTestDb } from "../lib/testing/app-db";

vi.mock("../lib/ingest/worker", () => ({ startIngestWorker: async () => ({ enqueue: async () => {} }) }));

const app = appTestDb("redaction-paths");

const pad = (n: number) => String(n).padStart(2, "0");
/** One kubelet journal line per sample, a second apart. */
const LOG = SECRET_SAMPLES.map((x, i) => `Mar 14 02:10:${pad(i)} node-r kubelet[1234]: I0314 02:10:${pad(i)}.123456    1234 kubelet.go:2321] ${x.line}\n`).join(
  "",
);

function upload(): Request {
  const boundary = "----bootline-redaction";
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="year"\r\n\r\n2026\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="kubelet.log"\r\nContent-Type: text/plain\r\n\r\n${LOG}\r\n--${boundary}--\r\n`,
  );
  return new Request("http://127.0.0.1/api/uploads", { method: "POST", body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
}

/** The longest run of letters and digits in `s`. */
const longestRun = (s: string) => (s.match(/[A-Za-z0-9]+/g) ?? [""]).reduce((a, b) => (b.length > a.length ? b : a));

/** The secrets (and, for the long ones, their longest run of letters and digits) found in `text`. */
function leaks(text: string): string[] {
  const out: string[] = [];
  for (const x of SECRET_SAMPLES) {
    if (text.includes(x.secret)) out.push(`${x.kind}: ${x.secret}`);
    const core = longestRun(x.secret);
    if (core.length >= 12 && text.includes(core)) out.push(`${x.kind} (part): ${core}`);
  }
  return out;
}

const ctx = <P extends Record<string, string>>(p: P) => ({ params: Promise.resolve(p) });
const get = (url: string) => new Request(`http://127.0.0.1${url}`);

describe("the redaction table's samples", () => {
  let incidentId = "";
  let bundleId = "";
  beforeAll(async () => {
    const { POST } = await import("../app/api/uploads/route");
    const res = await POST(upload());
    expect(res.status).toBe(202);
    ({ incidentId, bundleId } = (await res.json()) as { incidentId: string; bundleId: string });
    const { processBundle } = await import("../lib/ingest/pipeline");
    expect(await processBundle(app.db, bundleId)).toMatchObject({ status: "ready", events: SECRET_SAMPLES.length });
    const { buildSearchIndex } = await import("../lib/search/search-index");
    expect(await buildSearchIndex(app.db.sql, bundleId)).toBe(true);
  });

  it("are counted as redacted, one per sample", async () => {
    const [f] = await app.db.sql.query<{ redacted: Record<string, number> }>(`SELECT redacted FROM "SourceFile" WHERE "bundleId" = $1`, [bundleId]);
    const want: Record<string, number> = {};
    for (const x of SECRET_SAMPLES) want[x.kind] = (want[x.kind] ?? 0) + 1;
    expect(f.redacted).toEqual(want);
  });

  it("never come back from a read path", async () => {
    const bodies: Array<[string, string]> = [];
    const read = async (name: string, res: Promise<Response>) => {
      const r = await res;
      expect([name, r.status]).toEqual([name, 200]);
      bodies.push([name, await r.text()]);
    };
    const inc = await import("../app/api/incidents/[incidentId]/route");
    await read("incident", inc.GET(get(`/api/incidents/${incidentId}`), ctx({ incidentId })));
    const report = await import("../app/api/incidents/[incidentId]/report/route");
    await read("report", report.GET(get(`/api/incidents/${incidentId}/report`), ctx({ incidentId })));
    const md = await import("../app/api/incidents/[incidentId]/export.md/route");
    await read("export.md", md.GET(get(`/api/incidents/${incidentId}/export.md`), ctx({ incidentId })));

    const boots = await app.db.sql.query<{ id: number; start: Date; end: Date }>(`SELECT id, start, "end" FROM "Boot" WHERE "incidentId" = $1`, [incidentId]);
    expect(boots.length).toBeGreaterThan(0);
    const events = await import("../app/api/incidents/[incidentId]/boots/[bootId]/events/route");
    const svg = await import("../app/api/incidents/[incidentId]/boots/[bootId]/timeline.svg/route");
    const detail = await import("../app/api/incidents/[incidentId]/events/[eventId]/route");
    const search = await import("../app/api/incidents/[incidentId]/search/route");
    let eventsSeen = 0;
    for (const b of boots) {
      const p = ctx({ incidentId, bootId: String(b.id) });
      const range = `from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z`;
      await read("timeline.svg", svg.GET(get(`/x/timeline.svg`), p));
      const page = await events.GET(get(`/x/events?${range}&limit=1000`), p);
      expect(page.status).toBe(200);
      const text = await page.text();
      bodies.push(["events", text]);
      const { events: rows } = JSON.parse(text) as { events: Array<{ id: string }> };
      eventsSeen += rows.length;
      for (const e of rows) await read(`event ${e.id}`, detail.GET(get(`/x/events/${e.id}`), ctx({ incidentId, eventId: e.id })));
      for (const x of SECRET_SAMPLES) {
        const core = longestRun(x.secret);
        for (const match of ["substring", "words"])
          await read(`events q ${x.kind}`, events.GET(get(`/x/events?${range}&match=${match}&q=${encodeURIComponent(core)}`), p));
      }
    }
    expect(eventsSeen).toBe(SECRET_SAMPLES.length);
    for (const x of SECRET_SAMPLES) {
      // the whole secret (its words may meet others of the line: `BEGIN PRIVATE KEY`), and its longest run of letters and digits, which nothing else holds
      const core = longestRun(x.secret);
      for (const mode of ["words", "substring"]) {
        for (const q of [x.secret.slice(0, 200), core]) {
          const r = await search.GET(get(`/x/search?mode=${mode}&q=${encodeURIComponent(q)}`), ctx({ incidentId }));
          expect([x.kind, mode, r.status]).toEqual([x.kind, mode, 200]);
          // the answer repeats the query it was sent: what it found is the rest
          const { q: _sent, ...found } = (await r.json()) as { q: string; total: number };
          bodies.push([`search ${mode} ${x.kind}`, JSON.stringify(found)]);
          if (q === core) expect([x.kind, mode, found.total]).toEqual([x.kind, mode, 0]);
        }
      }
    }
    const found = bodies.flatMap(([name, body]) => leaks(body).map((l) => `${name}: ${l}`));
    expect(found).toEqual([]);
    // the redacted lines are there, with their markers
    expect(bodies.find(([n]) => n === "events")?.[1]).toContain("[REDACTED:azure-storage-key]");
  });

  it("are stored nowhere: no row of any table holds one", async () => {
    const tables = await app.db.sql.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    expect(tables.map((r) => r.t)).toEqual(expect.arrayContaining(["Event", "SourceFile", `Search_post_${bundleId}`]));
    const found: string[] = [];
    for (const { t: table } of tables) {
      const rows = await app.db.sql.query<{ row: string }>(`SELECT t::text AS row FROM "${table}" t`);
      for (const r of rows) for (const l of leaks(r.row)) found.push(`${table}: ${l}`);
    }
    expect(found).toEqual([]);
  });
});
