/**
 * Hostile and broken bundles through the whole pipeline on PostgreSQL, each built on
 * the fly: every problem file is named in the report with a clear reason (and line), the rest
 * lands; redaction reaches the stored messages and the stored source text and is counted per
 * file; an error or a dropped connection mid-store leaves nothing of the bundle and marks it
 * failed; the same upload twice is recorded once; five concurrent ingests all land; an incident
 * deletes with all its data.
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHostileZip } from "../lib/bundle/hostile-zip";
import { Header } from "tar";
import { buildTar, buildTarGz } from "../lib/bundle/tar-build";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { deleteIncident } from "../lib/incidents/delete-incident";
import { getIncidentReport } from "../lib/incidents/get-incident-report";
import { enqueueBundle, type UploadedFile } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { uploadsDir } from "../lib/ingest/uploads";
import { decodeSourceBlock } from "../lib/db/source-block-codec";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `hostile-${process.pid}`);
});
afterAll(async () => {
  await db?.drop();
});

/** Journal-short kubelet lines of `node`, one a second from Mar 14 02:10:00 (the year comes from the upload options). */
function kubelet(node: string, n: number, from = 0, msg = (i: number) => `"sync loop ${i}"`): string[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const t = new Date(Date.UTC(2026, 2, 14, 2, 10, i)).toISOString().slice(11, 19);
    return `Mar 14 ${t} ${node} kubelet[1234]: I0314 ${t}.123456    1234 kubelet.go:2321] ${msg(i)}`;
  });
}
const text = (lines: string[], eol = "\n") => lines.join(eol) + eol;

async function ingest(files: UploadedFile[], incident?: string) {
  const e = await enqueueBundle(db, { incident, title: "hostile", files, options: { year: 2026 } });
  const result = await processBundle(db, e.bundleId);
  return { ...e, result, report: await getIncidentReport(db, e.incidentId) };
}

async function count(sql: string, params: Array<string | number> = []): Promise<number> {
  const [r] = await db.sql.query<{ n: string }>(sql, params);
  return Number(r.n);
}

describe("a bundle full of broken files", () => {
  it("names every problem file with a clear reason (and line), accounts for every line, and lands the rest", async () => {
    const good = text(kubelet("node-a", 20));
    const long = text([...kubelet("node-a", 1, 20), ...kubelet("node-a", 1, 21, () => `"${"x".repeat(70_000)}"`), ...kubelet("node-a", 1, 22)]);
    const latin1 = Buffer.concat([
      Buffer.from(text(kubelet("node-a", 2, 30))),
      Buffer.from(`${kubelet("node-a", 1, 32, () => '"caf\xe9 au lait"')[0]}\n`, "latin1"),
    ]);
    const rotated = gzipSync(text(kubelet("node-a", 2000, 100)));
    const zip = buildHostileZip([
      { name: "zip/ok.log", data: text(kubelet("node-a", 3, 40)) },
      { name: "zip/locked.log", data: "secret\n", encrypted: true, method: 0 },
    ]);
    const tgz = buildTarGz([
      { path: "node-a/kubelet.log", content: good },
      { path: "node-a/kubelet-crlf.log", content: text(kubelet("node-a", 5, 50), "\r\n") },
      { path: "node-a/empty.log", content: "" },
      { path: "node-a/core.bin", content: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 10, 3]) },
      { path: "node-a/latin1.log", content: latin1 },
      { path: "node-a/notes.txt", content: "hello\nthis is not a log\n" },
      { path: "node-a/fake.tar.gz", content: text(kubelet("node-a", 2, 60)) },
      { path: "node-a/long.log", content: long },
      { path: "node-a/rotated.log.gz", content: rotated.subarray(0, rotated.length >> 1) },
      { path: "node-a/upload.zip", content: zip },
    ]);
    const { result, report, bundleId } = await ingest([{ name: "node-a.tar.gz", data: tgz }]);
    expect(result.status).toBe("ready");
    const by = Object.fromEntries(report.files.map((f) => [f.path, f]));

    expect(by["node-a/kubelet.log"]).toMatchObject({ status: "read", records: 20, skipped: 0 });
    expect(by["node-a/kubelet.log"].reason).toBeUndefined();
    // CRLF: same records, no CR in what is stored
    expect(by["node-a/kubelet-crlf.log"]).toMatchObject({ status: "read", lines: 5, records: 5, skipped: 0 });
    expect(
      await count(
        `SELECT count(*) AS n FROM "Event" e JOIN "SourceFile" f ON f.id = e."fileId" WHERE f.path = 'node-a/kubelet-crlf.log' AND e.message LIKE '%' || chr(13) || '%'`,
      ),
    ).toBe(0);
    expect(by["node-a/empty.log"]).toMatchObject({ status: "read", lines: 0, records: 0, reason: "empty: the file has no bytes, nothing to parse" });
    expect(by["node-a/core.bin"].reason).toBe("binary: not a text log (NUL bytes in its first 8 KiB); not parsed");
    expect(by["node-a/core.bin"].status).toBe("skipped");
    expect(by["node-a/latin1.log"]).toMatchObject({ status: "read", records: 3 });
    expect(by["node-a/latin1.log"].reason).toBe("not valid UTF-8: 1 byte sequence shown as \uFFFD (first on line 3)");
    expect(by["node-a/notes.txt"]).toMatchObject({ status: "read", records: 0, skipped: 2 });
    // and what its lines look like (lib/parse/explain-unknown.ts)
    expect(by["node-a/notes.txt"].reason).toBe("unknown-format: No line looks like a log record bootline knows (first line: `hello`).");
    expect(by["node-a/fake.tar.gz"]).toMatchObject({ status: "read", records: 2, reason: "named .tar.gz but holds no tar.gz data: read as a plain file" });
    // a long line is kept, cut, with a marker; the report names the line
    expect(by["node-a/long.log"]).toMatchObject({ status: "read", records: 3 });
    expect(by["node-a/long.log"].reason).toMatch(/^line 2: line longer than 65536 bytes: [\d,]+ bytes cut$/);
    const [longEv] = await db.sql.query<{ message: string }>(
      `SELECT e.message FROM "Event" e JOIN "SourceFile" f ON f.id = e."fileId" WHERE f.path = 'node-a/long.log' AND e.line = 2`,
    );
    expect(longEv.message).toMatch(/…\[truncated \d+ bytes\]$/);
    expect(Buffer.byteLength(longEv.message)).toBeLessThan(66_000);
    // a cut .gz member keeps its complete lines and says which line may be cut
    expect(by["node-a/rotated.log"].status).toBe("read");
    expect(by["node-a/rotated.log"].records).toBeGreaterThan(100);
    expect(by["node-a/rotated.log"].reason).toMatch(
      /^gzip stream broken \(unexpected end of file\) after \d+ compressed bytes: kept the first \d+ bytes; the last line \(line [\d,]+\) may be incomplete$/,
    );
    // the zip inside: the readable entry lands, the encrypted one is named
    expect(by["node-a/upload.zip/zip/ok.log"]).toMatchObject({ status: "read", records: 3 });
    expect(by["node-a/upload.zip/zip/locked.log"]).toMatchObject({ status: "skipped" });
    expect(by["node-a/upload.zip/zip/locked.log"].reason).toBe(
      "encrypted: an encrypted (password-protected) zip entry: bootline cannot read it; upload it unencrypted",
    );

    // every line accounted for; the store holds exactly the records
    for (const f of report.files) expect(f.parsed + f.blank + f.skipped, f.path).toBe(f.lines);
    const records = report.files.reduce((s, f) => s + f.records, 0);
    expect(await count(`SELECT count(*) AS n FROM "Event" WHERE "bundleId" = $1`, [bundleId])).toBe(records);
    expect(records).toBe(20 + 5 + 3 + 2 + 3 + by["node-a/rotated.log"].records + 3);
  });

  it("fails a bundle whose only file has no parseable line, with the file and the reason in the message", async () => {
    const { result, bundleId } = await ingest([{ name: "notes.txt", data: Buffer.from("just words\nmore words\n") }]);
    expect(result.status).toBe("failed");
    expect(result.error).toBe(
      "nothing in this bundle could be read (notes.txt: unknown-format: No line looks like a log record bootline knows (first line: `just words`).)",
    );
    expect(await count(`SELECT count(*) AS n FROM "SourceFile" WHERE "bundleId" = $1`, [bundleId])).toBe(0);
  });

  it("keeps what a truncated .tar.gz held and lands it", async () => {
    const tgz = buildTarGz([
      { path: "node-b/first.log", content: text(kubelet("node-b", 10)) },
      { path: "node-b/second.log", content: text(kubelet("node-b", 3000, 10)) },
    ]);
    const { result, report, bundleId } = await ingest([{ name: "cut.tgz", data: tgz.subarray(0, Math.floor(tgz.length * 0.5)) }]);
    expect(result.status).toBe("ready");
    expect(report.files[0]).toMatchObject({ path: "node-b/first.log", status: "read", records: 10 });
    expect(report.files[1].path).toBe("node-b/second.log");
    expect(report.files[1].reason).toMatch(
      /^cut short: the archive ends inside this file after [\d,]+ of its [\d,]+ bytes \(archive cut\.tgz broke: gzip stream broken/,
    );
    expect(report.files[1].reason).toMatch(/the last line \(line [\d,]+\) may be incomplete$/);
    expect(await count(`SELECT count(*) AS n FROM "Event" WHERE "bundleId" = $1`, [bundleId])).toBe(report.files[0].records + report.files[1].records);
  });

  it("stops an archive bomb and still lands the files beside it", async () => {
    const tgz = buildTarGz([
      { path: "node-c/kubelet.log", content: text(kubelet("node-c", 5)) },
      { path: "node-c/huge.log.gz", content: gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20)) },
    ]);
    const { result, report } = await ingest([{ name: "bomb.tgz", data: tgz }]);
    expect(result.status).toBe("ready");
    expect(report.files.map((f) => [f.path, f.status])).toEqual([
      ["node-c/kubelet.log", "read"],
      ["node-c/huge.log.gz", "skipped"],
    ]);
    expect(report.files[1].reason).toMatch(/^ratio-limit: unpacks to more than 200 times the upload's size .*archive bomb/);
  });
});

describe("refused members, empty archives and encrypted entries, then the next upload", () => {
  /** A ustar header block for a regular file of `size` bytes (its bytes follow). */
  const header = (name: string, size: number) => {
    const h = Buffer.alloc(512);
    new Header({ path: name, mode: 0o644, size, mtime: new Date(0), type: "File", uid: 0, gid: 0 }).encode(h, 0);
    return h;
  };

  it("a .tar.gz with a 3 GiB member after a good one: the good one lands, the refused one is listed with its reason", async () => {
    const good = Buffer.from(text(kubelet("node-h1", 40)));
    const pad = Buffer.alloc((512 - (good.length % 512)) % 512);
    // a gzip stream of several members (RFC 1952 section 2.2): the headers, then 48 x 64 MiB of zeros
    const zeros = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const tgz = Buffer.concat([
      gzipSync(Buffer.concat([header("node-h1/kubelet.log", good.length), good, pad, header("node-h1/huge.log", 3 * 1024 ** 3)])),
      ...Array.from({ length: 48 }, () => zeros),
      gzipSync(Buffer.alloc(1024)),
    ]);
    const { result, report, bundleId } = await ingest([{ name: "bomb-after-good.tar.gz", data: tgz }]);
    expect(result).toMatchObject({ status: "ready", events: 40 });
    expect(report.files.map((f) => [f.path, f.status, f.records])).toEqual([
      ["node-h1/kubelet.log", "read", 40],
      ["node-h1/huge.log", "skipped", 0],
    ]);
    expect(report.files[1].reason).toMatch(
      /^too-large: larger than 512 MiB unpacked \(BOOTLINE_MAX_FILE_BYTES\); not read; the archive was not read past it: unpacks to more than 200 times/,
    );
    expect(await count(`SELECT count(*) AS n FROM "Event" WHERE "bundleId" = $1`, [bundleId])).toBe(40);
    const next = await ingest([{ name: "next.tgz", data: buildTarGz([{ path: "node-h2/kubelet.log", content: text(kubelet("node-h2", 7)) }]) }]);
    expect(next.result).toMatchObject({ status: "ready", events: 7 });
  });

  it("an empty tar is an empty archive (not binary); an encryption-flagged zip entry is listed as encrypted beside the good one", async () => {
    const empty = await ingest([{ name: "empty.tar", data: buildTar([]) }]);
    expect(empty.result.status).toBe("failed");
    expect(empty.result.error).toBe(
      "nothing in this bundle could be read (empty.tar: empty-archive: an empty tar archive (only its end-of-archive blocks): it holds no files)",
    );

    const zip = buildHostileZip([
      { name: "node-z/kubelet.log", data: text(kubelet("node-z", 6)), method: 0 },
      { name: "node-z/locked.log", data: text(kubelet("node-z", 6)), method: 0 },
    ]);
    // the encryption flag (bit 0) on the second entry's local and central headers, its sizes left as stored
    zip[zip.indexOf(Buffer.from([0x50, 0x4b, 3, 4]), 1) + 6] |= 1;
    zip[zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]), zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2])) + 1) + 8] |= 1;
    const z = await ingest([{ name: "flagged.zip", data: zip }]);
    expect(z.result).toMatchObject({ status: "ready", events: 6 });
    expect(z.report.files.map((f) => [f.path, f.status, f.reason ?? null])).toEqual([
      ["node-z/kubelet.log", "read", null],
      ["node-z/locked.log", "skipped", "encrypted: an encrypted (password-protected) zip entry: bootline cannot read it; upload it unencrypted"],
    ]);
  });
});

describe("redaction on ingest", () => {
  const JWT = "eyJhbGciOiJSUzI1NiIsImtpZCI6IkRIZ2MifQ.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50In0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU";
  const secrets = [
    "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    JWT,
    "s3cr3t-pw",
    "AKIAIOSFODNN7EXAMPLE",
    "MIIEowIBAAKCAQEA1x3Yp9qg3R9kYV1eT0sJ8m3dC2K0f8mAq2yQv6rV2yOe7bq4",
  ];

  it("replaces secrets before storage: messages, fields and source text hold markers; counts per file in the report", async () => {
    const lines = [
      ...kubelet("node-r", 1, 0, () => `"GET /api" headers="Authorization: Bearer ${secrets[0]}"`),
      ...kubelet("node-r", 1, 1, () => `"token review" user=x jwt=${JWT}`),
      ...kubelet("node-r", 1, 2, () => `"dial failed" url=postgres://bootline:${secrets[2]}@db:5432/x`),
      ...kubelet("node-r", 1, 3, () => `"creds" key=${secrets[3]}`),
      ...kubelet("node-r", 1, 4, () => `"audit" other=${JWT}`),
      "-----BEGIN RSA PRIVATE KEY-----",
      secrets[4],
      "-----END RSA PRIVATE KEY-----",
      ...kubelet("node-r", 1, 5),
    ];
    const { result, report, bundleId } = await ingest([{ name: "node-r.log", data: Buffer.from(text(lines)) }]);
    expect(result.status).toBe("ready");
    expect(report.files[0].redacted).toEqual({ bearer: 1, jwt: 2, "url-password": 1, "aws-access-key": 1, "private-key": 1 });
    // line numbers unchanged: the key block still spans lines 6-8
    expect(report.files[0]).toMatchObject({ lines: 9, records: 6 });
    const events = await db.sql.query<{ message: string; fields: string | null }>(`SELECT message, fields FROM "Event" WHERE "bundleId" = $1`, [bundleId]);
    const blocks = await db.sql.query<{ data: Buffer }>(`SELECT b.data FROM "SourceBlock" b JOIN "SourceFile" f ON f.id = b."fileId" WHERE f."bundleId" = $1`, [
      bundleId,
    ]);
    const stored = [...events.map((e) => `${e.message}\n${e.fields ?? ""}`), ...blocks.map((b) => decodeSourceBlock(b.data))].join("\n");
    for (const s of secrets) expect(stored).not.toContain(s);
    expect(stored).toContain("Authorization: Bearer [REDACTED:bearer]");
    expect(stored).toContain("jwt=[REDACTED:jwt]");
    expect(stored).toContain("postgres://bootline:[REDACTED:url-password]@db:5432/x");
    expect(stored).toContain("[REDACTED:private-key]\n[REDACTED:private-key]\n[REDACTED:private-key]");
    const [row] = await db.sql.query<{ redacted: Record<string, number> }>(`SELECT redacted FROM "SourceFile" WHERE "bundleId" = $1`, [bundleId]);
    expect(row.redacted).toEqual(report.files[0].redacted);
  });

  it("reports {} for a file without secrets", async () => {
    const { report } = await ingest([{ name: "clean.log", data: Buffer.from(text(kubelet("node-s", 3))) }]);
    expect(report.files[0].redacted).toEqual({});
  });
});

describe("nothing half-stored", () => {
  const tableCounts = async (incidentId: string, bundleId: string) => ({
    events: await count(`SELECT count(*) AS n FROM "Event" WHERE "bundleId" = $1`, [bundleId]),
    files: await count(`SELECT count(*) AS n FROM "SourceFile" WHERE "bundleId" = $1`, [bundleId]),
    blocks: await count(`SELECT count(*) AS n FROM "SourceBlock" b JOIN "SourceFile" f ON f.id = b."fileId" WHERE f."bundleId" = $1`, [bundleId]),
    nodes: await count(`SELECT count(*) AS n FROM "Node" WHERE "incidentId" = $1`, [incidentId]),
    boots: await count(`SELECT count(*) AS n FROM "Boot" WHERE "incidentId" = $1`, [incidentId]),
    findings: await count(`SELECT count(*) AS n FROM "Finding" WHERE "incidentId" = $1`, [incidentId]),
  });
  const none = { events: 0, files: 0, blocks: 0, nodes: 0, boots: 0, findings: 0 };
  const bundle = () => [{ name: "node-f.log", data: Buffer.from(text(kubelet("node-f", 3000))) }];

  it("an error in the middle of COPY leaves none of the bundle's rows and marks it failed with the reason", async () => {
    await db.sql.exec(`
      CREATE FUNCTION bootline_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.line = 2500 THEN RAISE EXCEPTION 'injected failure at line %', NEW.line; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER bootline_test_fail BEFORE INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION bootline_test_fail();`);
    try {
      const { result, incidentId, bundleId } = await ingest(bundle());
      expect(result).toMatchObject({ status: "failed", events: 0 });
      expect(result.error).toMatch(/injected failure at line 2500/);
      const [b] = await db.sql.query<{ status: string; error: string }>(`SELECT status, error FROM "Bundle" WHERE id = $1`, [bundleId]);
      expect(b.status).toBe("failed");
      expect(b.error).toMatch(/injected failure at line 2500/);
      expect(await tableCounts(incidentId, bundleId)).toEqual(none);
    } finally {
      await db.sql.exec(`DROP TRIGGER bootline_test_fail ON "Event"; DROP FUNCTION bootline_test_fail();`);
    }
  });

  it("a connection that dies in the middle of the store (a crash of the database session) leaves nothing either", async () => {
    await db.sql.exec(`
      CREATE FUNCTION bootline_test_crash() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.line = 1500 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER bootline_test_crash BEFORE INSERT ON "Event" FOR EACH ROW EXECUTE FUNCTION bootline_test_crash();`);
    let ids: { incidentId: string; bundleId: string };
    try {
      const r = await ingest(bundle());
      ids = r;
      expect(r.result.status).toBe("failed");
      expect(r.result.error).toMatch(/terminat/i);
    } finally {
      await db.sql.exec(`DROP TRIGGER bootline_test_crash ON "Event"; DROP FUNCTION bootline_test_crash();`);
    }
    expect(await tableCounts(ids.incidentId, ids.bundleId)).toEqual(none);
    // the pool is healthy afterwards: the same bundle ingests cleanly
    const again = await ingest(bundle());
    expect(again.result.status).toBe("ready");
    expect(again.result.events).toBe(3000);
  });
});

describe("the same bundle twice", () => {
  it("is recorded, not ingested again, in the same incident; another incident gets its own copy", async () => {
    const data = Buffer.from(text(kubelet("node-d", 7)));
    const first = await ingest([{ name: "node-d.log", data }]);
    expect(first.result.status).toBe("ready");
    const second = await ingest([{ name: "again.log", data }], first.incidentId);
    expect(second.duplicateOf).toBe(first.bundleId);
    expect(second.result).toMatchObject({ status: "ready", events: 0 });
    expect(existsSync(uploadsDir(second.bundleId))).toBe(false);
    expect(await count(`SELECT count(*) AS n FROM "Event" WHERE "incidentId" = $1`, [first.incidentId])).toBe(7);
    expect(second.report.bundles).toEqual([
      expect.objectContaining({ id: first.bundleId, status: "ready" }),
      expect.objectContaining({ id: second.bundleId, status: "ready", duplicateOf: first.bundleId }),
    ]);
    expect(second.report.files).toHaveLength(1);
    // three at once into one incident: all wait in the queue, one is ingested, the others are its repeats
    const inc = (await enqueueBundle(db, { title: "race", files: [{ name: "x.log", data: Buffer.from(text(kubelet("node-e", 2))) }] })).incidentId;
    const other = Buffer.from(text(kubelet("node-e", 4, 10)));
    const racing = await Promise.all([1, 2, 3].map(() => enqueueBundle(db, { incident: inc, files: [{ name: "y.log", data: other }] })));
    expect(racing.map((r) => r.duplicateOf)).toEqual([null, null, null]);
    const runs = [];
    for (const r of racing) runs.push(await processBundle(db, r.bundleId));
    expect(runs.map((r) => r.events)).toEqual([4, 0, 0]);
    const rows = await db.sql.query<{ id: string; status: string; duplicateOf: string | null }>(
      `SELECT id, status, "duplicateOf" FROM "Bundle" WHERE id = ANY($1::text[])`,
      [racing.map((r) => r.bundleId)],
    );
    const of = new Map(rows.map((r) => [r.id, r]));
    expect(racing.map((r) => of.get(r.bundleId))).toEqual([
      { id: racing[0].bundleId, status: "ready", duplicateOf: null },
      { id: racing[1].bundleId, status: "ready", duplicateOf: racing[0].bundleId },
      { id: racing[2].bundleId, status: "ready", duplicateOf: racing[0].bundleId },
    ]);
    expect(racing.map((r) => existsSync(uploadsDir(r.bundleId)))).toEqual([false, false, false]);
    expect(await count(`SELECT count(*) AS n FROM "Event" WHERE "incidentId" = $1`, [inc])).toBe(4);
    // a new incident is its own world: ingested again
    const elsewhere = await ingest([{ name: "node-d.log", data }]);
    expect(elsewhere.duplicateOf).toBeNull();
    expect(elsewhere.result.events).toBe(7);
  });
});

describe("a repeat queued behind its original", () => {
  it("is ingested when the original fails, so the upload is not lost", async () => {
    const data = Buffer.from(text(kubelet("node-f", 5)));
    const first = await enqueueBundle(db, { title: "lost?", files: [{ name: "node-f.log", data }], options: { year: 2026 } });
    const again = await enqueueBundle(db, { incident: first.incidentId, files: [{ name: "node-f-again.log", data }], options: { year: 2026 } });
    expect(again.duplicateOf).toBeNull();
    // the original's stored upload is gone before its turn: it fails
    rmSync(uploadsDir(first.bundleId), { recursive: true, force: true });
    expect((await processBundle(db, first.bundleId)).status).toBe("failed");
    const r = await processBundle(db, again.bundleId);
    expect(r).toMatchObject({ status: "ready", events: 5 });
    const [row] = await db.sql.query<{ duplicateOf: string | null }>(`SELECT "duplicateOf" FROM "Bundle" WHERE id = $1`, [again.bundleId]);
    expect(row.duplicateOf).toBeNull();
  });
});

describe("five uploads at once", () => {
  it("all land, on one PostgreSQL, into one incident, with nothing mixed up", async () => {
    const inc = (await enqueueBundle(db, { title: "five", files: [{ name: "seed.log", data: Buffer.from(text(kubelet("node-p0", 1))) }] })).incidentId;
    const uploads = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        enqueueBundle(db, {
          incident: inc,
          files: [
            { name: `node-${i}.tgz`, data: buildTarGz([{ path: `node-p${i % 3}/kubelet.log`, content: text(kubelet(`node-p${i % 3}`, 500 * i, i * 1000)) }]) },
          ],
          options: { year: 2026 },
        }),
      ),
    );
    const results = await Promise.all(uploads.map((u) => processBundle(db, u.bundleId)));
    expect(results.map((r) => r.error)).toEqual([null, null, null, null, null]);
    expect(results.map((r) => r.status)).toEqual(["ready", "ready", "ready", "ready", "ready"]);
    expect(results.map((r) => r.events)).toEqual([500, 1000, 1500, 2000, 2500]);
    for (const [i, u] of uploads.entries()) expect(await count(`SELECT count(*) AS n FROM "Event" WHERE "bundleId" = $1`, [u.bundleId])).toBe(500 * (i + 1));
    expect(await count(`SELECT count(*) AS n FROM "Node" WHERE "incidentId" = $1`, [inc])).toBe(3);
    expect(await count(`SELECT count(*) AS n FROM (SELECT id FROM "Event" GROUP BY id HAVING count(*) > 1) d`)).toBe(0);
  });
});

describe("deleting an incident", () => {
  it("removes it with all its data and leaves other incidents alone", async () => {
    const keep = await ingest([{ name: "keep.log", data: Buffer.from(text(kubelet("node-k", 4))) }]);
    const gone = await ingest([{ name: "gone.tgz", data: buildTarGz([{ path: "node-g/kubelet.log", content: text(kubelet("node-g", 9)) }]) }]);
    const queued = await enqueueBundle(db, { incident: gone.incidentId, files: [{ name: "later.log", data: Buffer.from(text(kubelet("node-g", 2, 50))) }] });
    expect(existsSync(uploadsDir(queued.bundleId))).toBe(true);
    const r = await deleteIncident(db, { incidentId: gone.incidentId });
    expect(r).toEqual({ incidentId: gone.incidentId, bundles: 2, events: 9 });
    for (const table of ["Bundle", "SourceFile", "Node", "Boot", "Finding", "Event", "EventDensity"])
      expect(
        await count(
          `SELECT count(*) AS n FROM "${table}" WHERE "${table === "EventDensity" ? "bundleId" : "incidentId"}" ${table === "EventDensity" ? "= ANY($1::text[])" : "= $1"}`,
          [table === "EventDensity" ? `{${gone.bundleId},${queued.bundleId}}` : gone.incidentId],
        ),
        table,
      ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM "Incident" WHERE id = $1`, [gone.incidentId])).toBe(0);
    expect(existsSync(uploadsDir(queued.bundleId))).toBe(false);
    expect(await count(`SELECT count(*) AS n FROM "Event" WHERE "incidentId" = $1`, [keep.incidentId])).toBe(4);
    await expect(deleteIncident(db, { incidentId: gone.incidentId })).rejects.toMatchObject({ code: "not_found" });
  });
});
