/**
 * An API answers a failure with a plain message, never a stack: an unexpected error (a database's
 * own text naming a server path, say) is a 500 with a reference only, its text and stack going to
 * the server log; an `ApiError` keeps its plain sentence.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, route } from "./errors";

afterEach(() => vi.restoreAllMocks());

describe("route errors", () => {
  it("an unexpected error answers 500 with a reference, its text and stack only in the log", async () => {
    const logged: unknown[][] = [];
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void logged.push(a));
    const failing = route(async () => {
      throw new Error('could not open file "/var/lib/postgresql/data/base/16384/2619": Permission denied');
    });
    const res = await failing();
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error.code).toBe("internal");
    expect(body.error.message).toMatch(/^internal error \(reference \S+ in the server log\)$/);
    const text = JSON.stringify(body);
    expect(text).not.toContain("/var/lib");
    expect(text).not.toMatch(/\bat \S+ \(/);
    // the log has what the answer left out, under the same reference
    const ref = /reference (\S+) in/.exec(body.error.message)![1];
    expect(logged.map((a) => a.map(String).join(" ")).join("\n")).toContain(ref);
    expect(logged.flat().some((x) => x instanceof Error && x.message.includes("/var/lib"))).toBe(true);
  });

  it("an ApiError keeps its plain sentence and status", async () => {
    const res = await route(async () => {
      throw new ApiError("not_found", "no bundle b1");
    })();
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "no bundle b1" } });
  });
});
