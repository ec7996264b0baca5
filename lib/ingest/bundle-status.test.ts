/**
 * The reasons a failed bundle shows its users (bundle-status.ts `plainReason`): one sentence, no
 * stack, no server path; database and system failures in words.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plainReason } from "./bundle-status";

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("plainReason", () => {
  it("says database failures in words, by SQLSTATE", () => {
    expect(plainReason(coded("terminating connection due to administrator command", "57P01"))).toBe(
      "the database server terminated the connection while the bundle was being stored",
    );
    expect(plainReason(coded("canceling statement due to user request", "57014"))).toBe("the database cancelled a statement while the bundle was being stored");
    expect(plainReason(coded("could not extend file: No space left on device", "53100"))).toBe(
      "the database ran out of disk space while the bundle was being stored",
    );
    expect(plainReason(new Error("Connection terminated unexpectedly"))).toBe("the database connection was lost while the bundle was being stored");
  });

  it("says system failures in words, without the path or stack they carry", () => {
    const e = coded(`ENOSPC: no space left on device, write '${path.join(process.cwd(), ".data/uploads/x/.work/spill/0-a.ev")}'`, "ENOSPC");
    e.stack = `${e.message}\n    at file:///srv/bootline/node_modules/.cache/bootline/ingest-tasks.mjs:8270:5`;
    expect(plainReason(e)).toBe("the server ran out of disk space while processing the bundle");
    expect(plainReason(new RangeError("Invalid string length"))).toBe("a file of the bundle is too large to process");
    expect(plainReason(coded("Cannot create a string longer than 0x1fffffe8 characters", "ERR_STRING_TOO_LONG"))).toBe(
      "a file of the bundle is too large to process",
    );
    expect(plainReason(coded("Worker terminated due to reaching memory limit: JS heap out of memory", "ERR_WORKER_OUT_OF_MEMORY"))).toBe(
      "processing the bundle ran out of memory",
    );
  });

  it("keeps a message's first line, with server paths taken out and the bundle's own paths kept", () => {
    const msg = `could not read ${path.join(process.cwd(), "lib/x.ts")} for var/log/pods/a.log\n    at f (file:///srv/app/lib/x.ts:1:2)`;
    expect(plainReason(new Error(msg))).toBe("could not read for var/log/pods/a.log");
    expect(plainReason(new Error("nothing in this bundle could be read (2 files binary)"))).toBe("nothing in this bundle could be read (2 files binary)");
    expect(plainReason(new Error(""))).toBe("the bundle could not be processed");
    expect(plainReason("x".repeat(400))).toHaveLength(300);
  });
});
