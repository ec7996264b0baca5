/**
 * The parsing threads (lib/ingest/ingest-pool.ts) are started once per process: calls made while
 * they start share that start (the ingest worker warms the pool at its start while a bundle may
 * ask for it too), and later calls get the same threads back.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ingestExecutors } from "../lib/ingest/ingest-pool";

afterAll(() => {
  delete process.env.BOOTLINE_INGEST_THREADS;
});

describe("ingestExecutors", () => {
  it("shares one start between concurrent calls and keeps the threads", async () => {
    process.env.BOOTLINE_INGEST_THREADS = "2";
    const [a, b] = await Promise.all([ingestExecutors(), ingestExecutors()]);
    expect(a).toBe(b);
    expect(a).toHaveLength(2);
    expect(a[0]).not.toBe(a[1]);
    // both answer a task
    expect(await Promise.all(a.map((x) => x.call("forgetBundle", "no-such-bundle")))).toEqual([undefined, undefined]);
    const later = await ingestExecutors();
    expect(later).toEqual(a);
    expect(later[0]).toBe(a[0]);
    expect(later[1]).toBe(a[1]);
  });
});
