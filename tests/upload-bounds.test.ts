/**
 * The fields of `POST /api/uploads` on PostgreSQL: `collected` outside 1970 to a day from now and
 * `skew` not finite or past 100 years answer 400 naming the field; an `incidentId` of no incident
 * answers 404 and creates none; fuzzed fields never answer 500; in-bounds values are taken.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { appTestDb } from "../lib/testing/app-db";

const enqueued: string[] = [];
vi.mock("../lib/ingest/worker", () => ({ startIngestWorker: async () => ({ enqueue: async (id: string) => void enqueued.push(id) }) }));

const app = appTestDb("upload-bounds");

const LOG = 'Mar 14 02:10:07 node-b kubelet[1234]: I0314 02:10:07.123456    1234 kubelet.go:2321] "sync loop"\n';

function upload(fields: Record<string, string>): Request {
  const boundary = "----bootline-bounds";
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="kubelet.log"\r\nContent-Type: text/plain\r\n\r\n${LOG}\r\n--${boundary}--\r\n`,
  );
  return new Request("http://127.0.0.1/api/uploads", {
    method: "POST",
    body: parts.join(""),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  });
}

const count = async (table: string) => Number((await app.db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}"`))[0].n);

describe("upload fields", () => {
  it("refuses collected and skew out of bounds with a 400 naming the field, and stores nothing", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const far = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const cases: Array<[Record<string, string>, string]> = [
      [{ collected: "9999-12-31T00:00:00Z" }, "collected: 9999-12-31T00:00:00Z is not between 1970-01-01 and a day from now"],
      [{ collected: far }, `collected: ${far} is not between 1970-01-01 and a day from now`],
      [{ collected: "1969-12-31T23:59:59Z" }, "collected: 1969-12-31T23:59:59Z is not between 1970-01-01 and a day from now"],
      [{ collected: "yesterday" }, "collected: not a date (ISO 8601, as 2026-03-14T02:10:00Z)"],
      [{ skew: "1e308" }, "skew: seconds within ±3155760000 (100 years), or a JSON object of bundle path to such seconds"],
      [{ skew: "Infinity" }, "skew: seconds within ±3155760000 (100 years), or a JSON object of bundle path to such seconds"],
      [{ skew: "-3155760001" }, "skew: seconds within ±3155760000 (100 years), or a JSON object of bundle path to such seconds"],
      [{ skew: '{"events.json": 1e300}' }, "skew: seconds within ±3155760000 (100 years), or a JSON object of bundle path to such seconds"],
      [{ skew: '{"events.json": "5"}' }, "skew: seconds within ±3155760000 (100 years), or a JSON object of bundle path to such seconds"],
    ];
    for (const [fields, message] of cases) {
      const res = await POST(upload(fields));
      expect([fields, res.status, await res.json()]).toEqual([fields, 400, { error: { code: "bad_request", message } }]);
    }
    expect([await count("Incident"), await count("Bundle"), enqueued]).toEqual([0, 0, []]);
  });

  it("answers 404 for an incidentId of no incident, and creates none", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const res = await POST(upload({ incidentId: "NoSuchIncident01" }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: "not_found", message: "no incident NoSuchIncident01: leave incidentId out (and give a title) to start a new incident" },
    });
    expect([await count("Incident"), await count("Bundle")]).toEqual([0, 0]);
  });

  it("takes in-bounds values, and adds to an incident that exists", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const collected = new Date(Date.now() + 3_600_000).toISOString();
    const first = await POST(upload({ title: "bounds", collected, skew: "-3155760000" }));
    expect(first.status).toBe(202);
    const { incidentId, bundleId } = (await first.json()) as { incidentId: string; bundleId: string };
    const [b] = await app.db.sql.query<{ options: { collected: string; skew: number } }>(`SELECT options FROM "Bundle" WHERE id = $1`, [bundleId]);
    expect(b.options).toMatchObject({ collected, skew: -3155760000 });
    const second = await POST(upload({ incidentId, skew: '{"events.json": 90.5}', collected: "1970-01-01T00:00:00Z" }));
    expect(second.status).toBe(202);
    expect(((await second.json()) as { incidentId: string }).incidentId).toBe(incidentId);
    expect(await count("Incident")).toBe(1);
  });

  it("never answers 500 to fuzzed fields", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const v = fc.oneof(
      fc.constantFrom(
        "",
        "1e308",
        "-1e308",
        "NaN",
        "Infinity",
        "[]",
        "{}",
        "null",
        '{"a":[1]}',
        "%ZZ",
        "+275760-09-13T00:00:00.000Z",
        "0000-01-01T00:00:00Z",
        "99999999999999999999",
        "x".repeat(300),
      ),
      fc.string({ maxLength: 20 }),
    );
    const fields = fc.record({ incidentId: v, title: v, node: v, tz: v, year: v, collected: v, skew: v }, { requiredKeys: [] });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await fc.assert(
        fc.asyncProperty(fields, async (f) => {
          const res = await POST(upload(f));
          const body = (await res.json()) as { error?: { message?: string } };
          expect([f, res.status < 500, res.status < 400 || !!body.error?.message]).toEqual([f, true, true]);
        }),
        { numRuns: 150, seed: 26 },
      );
    } finally {
      log.mockRestore();
    }
  }, 120_000);
});
