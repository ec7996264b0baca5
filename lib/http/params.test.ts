/**
 * Request parameters (lib/http/params.ts) and the error shape (lib/http/errors.ts), unit and
 * through the timeline's route handlers on a test database: NUL bytes in a query or path
 * parameter are a 400 in words, another incident's boot id is a 404 on every boot route, and a
 * 500 carries no stack or server path.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getBundle } from "../../app/api/bundles/[bundleId]/route";
import { GET as getDensity } from "../../app/api/incidents/[incidentId]/boots/[bootId]/density/route";
import { GET as getCount } from "../../app/api/incidents/[incidentId]/boots/[bootId]/events/count/route";
import { GET as getFacets } from "../../app/api/incidents/[incidentId]/boots/[bootId]/events/facets/route";
import { GET as getEvents } from "../../app/api/incidents/[incidentId]/boots/[bootId]/events/route";
import { getDb } from "../db/connection";
import { useTestDatabaseUrl } from "../db/test-db";
import { errorResponse } from "./errors";
import { checkParam, MAX_PARAM_CHARS, queryOf } from "./params";
import { readJson } from "./read-json";

describe("params", () => {
  it("refuses NUL and over-long values with a 400 in words", () => {
    expect(queryOf(new Request("http://x/a?q=kube&lanes=cni"))).toEqual({ q: "kube", lanes: "cni" });
    expect(() => queryOf(new Request("http://x/a?q=a%00b"))).toThrow("q: contains a NUL character");
    expect(() => queryOf(new Request("http://x/a?q%00=1"))).toThrow("q: contains a NUL character");
    expect(() => checkParam("q", "x".repeat(MAX_PARAM_CHARS + 1))).toThrow(`q: longer than ${MAX_PARAM_CHARS} characters`);
    expect(checkParam("q", "x".repeat(MAX_PARAM_CHARS))).toHaveLength(MAX_PARAM_CHARS);
  });

  it("refuses a JSON body with a NUL in a string", async () => {
    const req = (body: string) => new Request("http://x/", { method: "POST", body });
    await expect(readJson(req('{"text":"a\\u0000b"}'))).rejects.toThrow("the body contains a NUL character");
    await expect(readJson(req('{"a":[{"b\\u0000":1}]}'))).rejects.toThrow("the body contains a NUL character");
    expect(await readJson(req('{"text":"a\\\\u0000b"}'))).toEqual({ text: "a\\u0000b" });
  });

  it("answers 500 with a reference only: no message, stack or path", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const err = new Error("ENOSPC: no space left on device, write '/srv/bootline/.data/uploads/x'");
    const res = errorResponse(err);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("internal");
    expect(body.error.message).toMatch(/^internal error \(reference [a-z0-9]+ in the server log\)$/);
    // the details went to the log
    expect(log).toHaveBeenCalledWith(expect.stringContaining(body.error.message.match(/reference (\w+)/)![1]), err);
    log.mockRestore();
  });
});

describe("boot routes", () => {
  let t: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
  let bootA = 0;
  let bootB = 0;
  beforeAll(async () => {
    t = await useTestDatabaseUrl();
    const { sql } = await getDb();
    for (const inc of ["incA", "incB"]) {
      await sql.query(`INSERT INTO "Incident" (id, title) VALUES ($1, $1)`, [inc]);
      const [n] = await sql.query<{ id: number }>(`INSERT INTO "Node" ("incidentId", name) VALUES ($1, 'node-1') RETURNING id`, [inc]);
      const [b] = await sql.query<{ id: number }>(
        `INSERT INTO "Boot" ("incidentId", "nodeId", "bootKey", start, "end", "detectedBy") VALUES ($1, $2, 'b1', '2026-03-14T02:10:00Z', '2026-03-14T02:20:00Z', 'first-event') RETURNING id`,
        [inc, n.id],
      );
      if (inc === "incA") bootA = b.id;
      else bootB = b.id;
    }
  });
  afterAll(async () => {
    await t?.drop();
  });

  const RANGE = "from=2026-03-14T02:10:00Z&to=2026-03-14T02:20:00Z";
  const routes = { density: getDensity, events: getEvents, count: getCount, facets: getFacets };
  const call = (fn: (typeof routes)[keyof typeof routes], incidentId: string, bootId: number, query: string) =>
    fn(new Request(`http://127.0.0.1/api/incidents/${incidentId}/boots/${bootId}/x?${query}`), {
      params: Promise.resolve({ incidentId, bootId: String(bootId) }),
    });

  it("answers the incident's own boot, and 404 for another incident's boot id", async () => {
    for (const [name, fn] of Object.entries(routes)) {
      expect([name, (await call(fn, "incA", bootA, RANGE)).status]).toEqual([name, 200]);
      const other = await call(fn, "incA", bootB, RANGE);
      expect([name, other.status]).toEqual([name, 404]);
      expect(await other.json()).toEqual({ error: { code: "not_found", message: `no boot ${bootB} in incident incA` } });
    }
  });

  it("answers 400 in words for a NUL in a query or path parameter", async () => {
    for (const [name, fn] of Object.entries(routes)) {
      const res = await call(fn, "incA", bootA, `${RANGE}&q=kube%00let&pod=x`);
      expect([name, res.status]).toEqual([name, 400]);
      expect(await res.json()).toEqual({ error: { code: "bad_request", message: "q: contains a NUL character" } });
    }
    const b = await getBundle(new Request("http://127.0.0.1/api/bundles/a%00b"), { params: Promise.resolve({ bundleId: "a\0b" }) });
    expect(b.status).toBe(400);
    expect(await b.json()).toEqual({ error: { code: "bad_request", message: "bundleId: contains a NUL character" } });
  });
});
