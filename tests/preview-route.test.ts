/**
 * `POST /api/preview`: JSON in, what bootline recognises out, nothing stored (no database is
 * opened: none is configured for this file); bad input 400, a text over 5 MiB 413.
 */
import { describe, expect, it } from "vitest";
import { POST } from "../app/api/preview/route";
import { caseText } from "./cases/cases";

const post = (body: unknown, headers: Record<string, string> = {}) =>
  POST(
    new Request("http://127.0.0.1/api/preview", {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    }),
  );

describe("POST /api/preview", () => {
  it("previews pasted klog with the upload options (case 079, year 2020)", async () => {
    const res = await post({ text: caseText("079-klog-calico-nodename-triple.log"), name: "pasted-2026-03-14-0300.log", year: "2020", tz: "UTC" });
    expect(res.status).toBe(200);
    const p = await res.json();
    expect(p.files[0]).toMatchObject({ format: "klog", records: 2, timed: 2, read: true, node: "pasted-2026-03-14-0300", nodeUnnamed: true });
    expect(p.nodes[0].boots[0].attempts).toBe(1);
    expect(p.nodes[0].boots[0].windows[0]).toMatchObject({ attempts: 1, errorClass: "calico-nodename-missing" });
  });

  it("takes the collection time as an ISO instant", async () => {
    const res = await post({ text: caseText("013-describe-events-sandboxchanged-x10.log"), collected: "2020-07-08T10:00:00Z" });
    const p = await res.json();
    expect(new Date(p.nodes[0].boots[0].windows[0].firstMs).toISOString()).toBe("2020-07-08T09:58:00.000Z");
  });

  it("refuses bad input with 400 in the one error shape", async () => {
    expect(await (await post({ name: "x.log" })).json()).toMatchObject({ error: { code: "bad_request", message: expect.stringContaining("text") } });
    expect((await post({ text: "x", year: 1800 })).status).toBe(400);
    expect((await post({ text: "x", collected: "yesterday-ish" })).status).toBe(400);
    expect((await post("not json")).status).toBe(400);
  });

  it("refuses a text over 5 MiB with 413 and says what to do", async () => {
    const res = await post({ text: "a".repeat(5 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toMatch(/at most 5 MiB: save it as a file and upload that instead/);
    const announced = await post({ text: "a" }, { "content-length": String(20 * 1024 * 1024) });
    expect(announced.status).toBe(413);
  });
});
