/**
 * Boots stated by lists (lib/normalise/boots.ts step 2b/5b): `journalctl --list-boots` rows and
 * `last reboot` rows, with the other rules (separators, `-- Reboot --`, Rebooted events,
 * segments that end at the same separator). Times are seconds from T.
 */
import { describe, expect, it } from "vitest";
import type { EventKind } from "../detect/types";
import { assignBoots } from "./boot-assign";
import { detectBoots, type BootInputEvent } from "./boots";

const T = Date.UTC(2025, 4, 19, 4, 19, 0);
const P = "6c0f2ea14b7d4e1a9c3358b0f2d7e611";
const C = "a91e07c25d3f4b08b6e2f4c1d9a07e33";
const O = "0b1c2d3e4f5a4b6c8d9e0f1a2b3c4d5e";

let lineNo = 0;
function ev(fileId: number, tsS: number | null, kind: EventKind = "log", extra: Partial<BootInputEvent> = {}): BootInputEvent {
  return { ts: tsS === null ? null : T + tsS * 1000, kind, fileId, line: ++lineNo, bootSegment: 0, journalBootId: null, ...extra };
}
const listRow = (fileId: number, id: string, firstS: number, lastS: number) =>
  ev(fileId, firstS, "log", { journalBootId: id, bootDecl: { id, lastMs: T + lastS * 1000, source: "list-boots" } });
const wtmpRow = (fileId: number, atS: number) => ev(fileId, atS, "log", { bootDecl: { id: null, lastMs: null, source: "last-reboot" } });
const view = (bs: ReturnType<typeof detectBoots>) => bs.map((b) => [b.bootKey, (b.start - T) / 1000, b.detectedBy, b.startApprox]);

describe("boots stated by list-boots", () => {
  it("names the id-less boots of an AL2 journal (`-- Reboot --`) and gives T+0 = FIRST ENTRY", () => {
    const journal = [ev(1, -500), ev(1, -60), ev(1, 40, "kubelet.started", { bootSegment: 1 }), ev(1, 90, "log", { bootSegment: 1 })];
    const list = [listRow(2, P, -7000, -55), listRow(2, C, 31, 700)];
    const boots = detectBoots([...journal, ...list]);
    expect(view(boots)).toEqual([
      [P, -7000, "first-event", false],
      [C, 31, "separator", false],
    ]);
    expect(assignBoots([...journal, ...list], boots)).toEqual([P, P, C, C, P, C]);
  });

  it("adds the boots the other files do not show, but only the last two of a long list when nothing else falls in them", () => {
    const loose = [ev(1, 100), ev(1, 200)];
    const list = [listRow(2, O, -900_000, -800_000), listRow(2, P, -7000, -55), listRow(2, C, 31, 700)];
    const boots = detectBoots([...loose, ...list]);
    expect(view(boots)).toEqual([
      [P, -7000, "list-boots", false],
      [C, 31, "list-boots", false],
    ]);
    expect(boots[1].end).toBe(T + 200_000);
  });

  it("joins the journal's boot of the same id: T+0 is the earlier of FIRST ENTRY and the first entry after the separator", () => {
    const events = [ev(1, -100), ev(1, 45, "log", { bootSegment: 1, journalBootId: C }), listRow(2, C, 31, 700)];
    expect(view(detectBoots(events))).toEqual([
      ["inferred-1", -100, "first-event", true],
      [C, 31, "separator", false],
    ]);
  });
});

describe("boots stated by last reboot", () => {
  it("moves a first-event boot's start back to its reboot row; a row at a known boot start adds nothing", () => {
    const events = [ev(1, -500), ev(1, -60), ev(1, 40, "log", { bootSegment: 1, journalBootId: C }), wtmpRow(2, -86_400), wtmpRow(2, 0)];
    expect(view(detectBoots(events))).toEqual([
      ["inferred-1", -86_400, "last-reboot", true], // minute precision: approximate
      [C, 40, "separator", false],
    ]);
  });

  it("starts a boot where loose logs restart after it (no journal covers it)", () => {
    const events = [ev(1, -300), ev(1, -200), ev(1, 300), ev(1, 320), wtmpRow(2, 240)];
    const boots = detectBoots(events);
    expect(view(boots)).toEqual([
      ["inferred-1", -300, "first-event", true],
      ["inferred-2", 240, "last-reboot", true],
    ]);
    expect(assignBoots(events, boots)).toEqual(["inferred-1", "inferred-1", "inferred-2", "inferred-2", "inferred-2"]);
  });

  it("does not split a boot the journal describes", () => {
    const events = [ev(1, -300, "log", { journalBootId: P }), ev(1, 300, "log", { journalBootId: P }), wtmpRow(2, 0)];
    expect(view(detectBoots(events))).toEqual([[P, -300, "boot-id", false]]);
  });
});

describe("segments ending at the same separator", () => {
  it("are one boot even when their times do not overlap", () => {
    // kubelet.log and containerd-log.txt: the previous boot's entries, then `-- Boot C --`
    const events = [
      ev(1, -540),
      ev(1, -10),
      ev(1, 40, "log", { bootSegment: 1, journalBootId: C }),
      ev(2, -545),
      ev(2, 35, "runtime.started", { bootSegment: 1, journalBootId: C }),
    ];
    expect(view(detectBoots(events))).toEqual([
      ["inferred-1", -545, "first-event", true],
      [C, 35, "separator", false],
    ]);
  });
});
