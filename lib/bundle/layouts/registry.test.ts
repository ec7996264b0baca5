/**
 * The layout registry check, as the format registry's: every collector layout has a module of its
 * own named after it, is registered once, and its sample archives are claimed by it (no layout
 * earlier in the priority order takes them) with the nodes, skips and collection time they state.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeBundle } from "../collectors";
import type { UnpackedFile } from "../unpack";
import { COLLECTORS } from "./registry";
import type { LayoutSample } from "./types";

/** The sample's members as unpack.ts lists an uploaded archive's files. */
function unpacked(s: LayoutSample): UnpackedFile[] {
  return Object.entries(s.members).map(([member, text]) => ({
    path: member,
    member,
    archive: s.archive,
    upload: s.archive,
    status: "read",
    data: Buffer.from(text),
  }));
}

/** Modules of this folder that are not layouts. */
const SUPPORT = new Set(["helpers.ts", "registry.ts", "types.ts"]);

describe("collector layout registry", () => {
  it("has one module per layout, named after it, each registered once, each with samples", () => {
    const modules = readdirSync(import.meta.dirname)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !SUPPORT.has(f))
      .map((f) => path.basename(f, ".ts"))
      .sort();
    expect(COLLECTORS.map((c) => c.name).sort()).toEqual(modules);
    expect(new Set(COLLECTORS.map((c) => c.name)).size).toBe(COLLECTORS.length);
    for (const c of COLLECTORS) {
      expect(c.name, c.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(c.samples.length, `${c.name} samples`).toBeGreaterThan(0);
      for (const s of c.samples)
        expect(
          Object.keys(s.expect.nodes).every((m) => m in s.members),
          `${c.name}: expected nodes name members of ${s.archive}`,
        ).toBe(true);
    }
  });

  it("claims no plain upload (files of no archive)", () => {
    const plain: UnpackedFile[] = [
      { path: "kubelet.log", member: "kubelet.log", upload: "kubelet.log", status: "read", data: Buffer.from("May 19 04:20:07 h kubelet[1]: x\n") },
    ];
    expect(describeBundle(plain).collectors).toEqual([]);
  });

  for (const c of COLLECTORS) {
    describe(c.name, () => {
      c.samples.forEach((s, i) => {
        it(`sample ${i + 1} (${s.archive}) is this layout's, with its nodes, skips and collection time`, () => {
          const files = unpacked(s);
          const layout = describeBundle(files);
          expect(layout.collectors).toEqual([c.name]);
          const byMember = new Map(files.map((f, k) => [f.member, layout.files[k]]));
          for (const [member, node] of Object.entries(s.expect.nodes)) expect(byMember.get(member)?.node, member).toBe(node);
          for (const [member, reason] of Object.entries(s.expect.skipped ?? {})) expect(byMember.get(member)?.skipReason, member).toBe(reason);
          if (s.expect.collected !== undefined) {
            const ms = layout.files[0].collectedMs;
            expect(ms == null ? null : new Date(ms).toISOString()).toBe(s.expect.collected);
          }
        });
      });
    });
  }
});
