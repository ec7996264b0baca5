import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/test-db";
import { loadSampleIncident } from "../sample/load-sample";
import { bootCheckPhrases, getBootChecks, type TBootCheck } from "./boot-checks";

let db: TestDb;
let incidentId: string;
let boots: Array<{ id: number; bootKey: string; start: Date }>;
beforeAll(async () => {
  db = await createTestDb();
  incidentId = await loadSampleIncident(db);
  boots = await db.sql.query(`SELECT id, "bootKey", start FROM "Boot" WHERE "incidentId" = $1 ORDER BY start`, [incidentId]);
}, 120_000);
afterAll(async () => {
  await db?.drop();
});

describe("boot checks", () => {
  it("counts each boot's failure lines and lists the milestones it saw, in time order", async () => {
    const checks = await getBootChecks(db, incidentId);
    const [before, storm] = boots.map((b) => checks.get(b.id));
    // the sample's storm boot: every failed sandbox creation counted, the boot's milestones in order
    const failed = await db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Event" WHERE "bootId" = $1 AND kind = 'sandbox.create.failed'`, [
      boots[1].id,
    ]);
    expect(storm!.failedCreations).toBe(Number(failed[0].n));
    expect(storm!.failedCreations).toBeGreaterThan(0);
    expect(storm!.milestones.map((m) => m.label).sort()).toEqual([
      "CNI config written",
      "CNI ready",
      "first sandbox",
      "kernel start",
      "kubelet up",
      "runtime up",
    ]);
    expect(storm!.milestones.map((m) => m.ts)).toEqual(storm!.milestones.map((m) => m.ts).sort((a, b) => a - b));
    expect(storm!.milestones[0]).toEqual({ label: "kernel start", ts: boots[1].start.getTime() });
    // the boot before the reboot: no failure at all
    expect(before?.failedCreations ?? 0).toBe(0);
  });

  it("says what a healthy boot was checked for and found", () => {
    const c: TBootCheck = {
      bootId: 1,
      failedCreations: 0,
      otherFailures: 0,
      milestones: [
        { label: "kernel start", ts: 1000 },
        { label: "first sandbox", ts: 13_250 },
      ],
    };
    expect(bootCheckPhrases(c, 1000)).toEqual({
      facts: ["sandbox failure window: none", "failed sandbox attempts: 0"],
      milestones: ["kernel start T+0.000 s", "first sandbox T+12.250 s"],
    });
    expect(bootCheckPhrases({ ...c, otherFailures: 3 }, 1000).facts).toContain("other failure lines: 3");
    expect(bootCheckPhrases(undefined, 0)).toEqual({ facts: ["sandbox failure window: none", "failed sandbox attempts: 0"], milestones: [] });
  });
});
