import { describe, expect, it } from "vitest";
import { assignBoot, assignBoots } from "./boot-assign";
import { detectBoots, type BootInputEvent } from "./boots";
import type { EventKind } from "../detect/types";

const T = Date.UTC(2026, 2, 14, 2, 10, 0);
const A = "6513a0c2d1e84f0bb2a7c3d4e5f60718";
const B = "a91e07c25d3f4b08b6e2f4c1d9a07e33";

let lineNo = 0;
function ev(fileId: number, tsS: number | null, kind: EventKind = "log", extra: Partial<BootInputEvent> = {}): BootInputEvent {
  return { ts: tsS === null ? null : T + tsS * 1000, kind, fileId, line: ++lineNo, bootSegment: 0, journalBootId: null, ...extra };
}

describe("detectBoots", () => {
  it("one boot from the earliest event when nothing marks a boot (approximate)", () => {
    const events = [ev(1, 5), ev(1, 7), ev(2, 3), ev(2, 400)];
    const boots = detectBoots(events);
    expect(boots).toEqual([
      { bootKey: "inferred-1", start: T + 3000, end: T + 400000, detectedBy: "first-event", startApprox: true, journalBootId: null, segments: [] },
    ]);
    expect(assignBoots(events, boots)).toEqual(Array(4).fill("inferred-1"));
  });

  it("journal separators: the segment before the first separator is an earlier boot of unknown id", () => {
    // kubelet.log (file 1) and containerd-log.txt (file 2): previous boot, `-- Boot A --`, this boot
    const prevK = [ev(1, -900), ev(1, -25)];
    const prevC = [ev(2, -1200), ev(2, -20), ev(2, 6)]; // last one: clock skew past the next boot's start
    const thisK = [ev(1, 7, "kubelet.started", { bootSegment: 1, journalBootId: A }), ev(1, 30, "log", { bootSegment: 1, journalBootId: A })];
    const thisC = [ev(2, 5.2, "runtime.started", { bootSegment: 1, journalBootId: A }), ev(2, 40, "log", { bootSegment: 1, journalBootId: A })];
    const loose = [ev(3, -600), ev(3, 12), ev(3, 50)]; // cni.log / events: by time
    const events = [...prevK, ...prevC, ...thisK, ...thisC, ...loose];
    const boots = detectBoots(events);
    expect(boots.map((b) => [b.bootKey, b.start - T, b.detectedBy, b.startApprox, b.end! - T])).toEqual([
      ["inferred-1", -1200000, "first-event", true, 6000],
      [A, 5200, "separator", false, 50000],
    ]);
    const keys = assignBoots(events, boots);
    expect(keys.slice(0, 5)).toEqual(Array(5).fill("inferred-1")); // incl. the skewed line at +6 s
    expect(keys.slice(5, 9)).toEqual(Array(4).fill(A));
    expect(keys.slice(9)).toEqual(["inferred-1", A, A]);
  });

  it("an unknown-id segment that overlaps a boot another file identifies (_BOOT_ID) is that boot", () => {
    const events = [
      ev(1, -900),
      ev(1, -30),
      ev(1, 8, "log", { bootSegment: 1, journalBootId: A }),
      ev(5, -1000, "log", { journalBootId: B }), // journal JSON export: every record has its _BOOT_ID
      ev(5, -20, "log", { journalBootId: B }),
      ev(5, 7, "log", { journalBootId: A }),
    ];
    const boots = detectBoots(events);
    expect(boots.map((b) => [b.bootKey, b.start - T, b.detectedBy])).toEqual([
      [B, -1000000, "boot-id"],
      [A, 7000, "separator"],
    ]);
    expect(assignBoots(events, boots)).toEqual([B, B, A, B, B, A]);
  });

  it("a kernel start shortly before the journal boot's first entry becomes T+0", () => {
    const events = [
      ev(1, -300),
      ev(1, 6, "kubelet.started", { bootSegment: 1, journalBootId: A }),
      ev(1, 9, "log", { bootSegment: 1, journalBootId: A }),
      ev(4, 0, "kernel.start"), // dmesg.human.current "Linux version"
      ev(4, 3),
    ];
    const boots = detectBoots(events);
    expect(boots.map((b) => [b.bootKey, b.start - T, b.startApprox])).toEqual([
      ["inferred-1", -300000, true],
      [A, 0, false],
    ]);
    expect(assignBoot({ ts: T + 1000, fileId: 4, bootSegment: 0 }, boots)).toBe(A);
  });

  it("a kernel start far from any journal boot starts its own boot", () => {
    const boots = detectBoots([ev(4, 0, "kernel.start"), ev(4, 2)]);
    expect(boots).toHaveLength(1);
    expect(boots[0]).toMatchObject({ bootKey: "inferred-1", start: T, detectedBy: "kernel-start", startApprox: false });
  });

  it("kubelet start after >= 60 s of node-wide silence starts a boot; a gap alone or a shorter one does not", () => {
    const events = [
      ev(1, 0, "kubelet.started"),
      ev(1, 10),
      // 59 s silence, kubelet restart: same boot
      ev(1, 69, "kubelet.started"),
      ev(1, 80),
      // 100 s silence without a start line: same boot
      ev(1, 180),
      // 120 s silence, then records and a kubelet start 5 s later: new boot from the first record after the silence
      ev(2, 300),
      ev(1, 305, "kubelet.started"),
      ev(1, 320),
    ];
    const boots = detectBoots(events);
    expect(boots.map((b) => [b.bootKey, b.start - T, b.detectedBy, b.startApprox])).toEqual([
      ["inferred-1", 0, "first-event", true],
      ["inferred-2", 300000, "kubelet-start", true],
    ]);
    expect(assignBoots(events, boots)).toEqual([
      "inferred-1",
      "inferred-1",
      "inferred-1",
      "inferred-1",
      "inferred-1",
      "inferred-2",
      "inferred-2",
      "inferred-2",
    ]);
    expect(detectBoots(events, { silenceS: 130 }).length).toBe(1);
  });

  it("a runtime start after silence inside a journal-identified boot does not split it", () => {
    const events = [
      ev(1, 0, "log", { bootSegment: 1, journalBootId: A }),
      ev(1, 200, "runtime.started", { bootSegment: 1, journalBootId: A }),
      ev(1, 210, "log", { bootSegment: 1, journalBootId: A }),
    ];
    expect(detectBoots(events).map((b) => b.bootKey)).toEqual([A]);
  });

  it("`-- Reboot --` separators without ids: segments of two files that overlap are one boot", () => {
    const events = [
      ev(1, -500),
      ev(1, -10),
      ev(1, 8, "log", { bootSegment: 1 }),
      ev(1, 60, "log", { bootSegment: 1 }),
      ev(2, -400),
      ev(2, 6, "log", { bootSegment: 1 }),
      ev(2, 50, "log", { bootSegment: 1 }),
    ];
    const boots = detectBoots(events);
    expect(boots.map((b) => [b.bootKey, b.start - T, b.detectedBy, b.startApprox])).toEqual([
      ["inferred-1", -500000, "first-event", true],
      ["inferred-2", 6000, "separator", false],
    ]);
  });

  it("a Rebooted event names the boot that started shortly before it", () => {
    const events = [ev(1, 0, "kubelet.started"), ev(1, 5), ev(3, 2, "k8s.event", { rebootBootId: B })];
    const boots = detectBoots(events);
    expect(boots.map((b) => [b.bootKey, b.journalBootId])).toEqual([[B, B]]);
  });

  it("records without a time take the boot of their file's neighbours", () => {
    const events = [
      ev(1, null),
      ev(1, -100),
      ev(1, null),
      ev(1, 10, "log", { bootSegment: 1, journalBootId: A }),
      ev(1, null, "log", { bootSegment: 1, journalBootId: A }),
      ev(5, null), // a file with no times at all (cilium logfmt): the only-boot rule does not apply with 2 boots
    ];
    const boots = detectBoots(events);
    expect(assignBoots(events, boots)).toEqual(["inferred-1", "inferred-1", "inferred-1", A, A, null]);
  });

  it("no timed records: no boots", () => {
    expect(detectBoots([ev(1, null), ev(1, null)])).toEqual([]);
  });
});
