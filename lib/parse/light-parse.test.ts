/**
 * `parseFileLight` gives what `parseFile` gives: on every real-format file the tests keep
 * (tests/cases, tests/detector-inputs, tests/rule-inputs) and on inputs with what the first read
 * changes after a record's lines (klog blocks, cut lines, monotonic resets, newest-first order),
 * the whole records `replay` hands over equal `parseFile`'s, in order, and the light ones keep
 * each record's line range and time; records are made light as early as every line.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FileRecord, ParsedFile } from "./file-types";
import { parseFileLight } from "./light-parse";
import { parseFile } from "./parse-file";

const ROOT = path.join(__dirname, "../../tests");
const DIRS = ["cases", "detector-inputs", "rule-inputs"];
const OPTS = { collectedMs: Date.UTC(2026, 2, 20), uploadMs: Date.UTC(2026, 2, 21) };

function compare(name: string, text: string, every: number): { light: ParsedFile; whole: ParsedFile; replayed: FileRecord[] } {
  const whole = parseFile(name, text, OPTS);
  const light = parseFileLight(name, text, OPTS, every);
  const shape = (r: FileRecord) => [r.line, r.endLine, r.ts, r.host, r.component];
  const lightRecords = [...light.records];
  expect(lightRecords.map(shape), name).toEqual(whole.records.map(shape));
  const replayed: FileRecord[] = [];
  light.replay((batch) => replayed.push(...batch));
  const { replay: _replay, records: _records, ...rest } = light;
  const { records: wholeRecords, ...wholeRest } = whole;
  expect(rest, name).toEqual(wholeRest);
  expect(replayed, name).toEqual(wholeRecords);
  return { light: { ...light, records: lightRecords }, whole, replayed };
}

/** A journal in journalctl's short mode, `n` kubelet klog lines a second apart, year-less. */
function journal(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = String(i % 60).padStart(2, "0");
    const m = String(Math.floor(i / 60) % 60).padStart(2, "0");
    out.push(
      `Mar 14 02:${m}:${s} ip-10-0-0-7 kubelet[2099]: E0314 02:${m}:${s}.000100    2099 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="plugin type=\\"calico\\" failed (add)" pod="kube-system/app-${i % 7}"`,
    );
  }
  return `${out.join("\n")}\n`;
}

describe("parseFileLight", () => {
  const files = DIRS.flatMap((d) =>
    readdirSync(path.join(ROOT, d))
      .filter((f) => f.endsWith(".log"))
      .map((f) => path.join(d, f)),
  );

  it("equals parseFile on every real-format file the tests keep, records made light at every line and every 4", () => {
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) {
      const text = readFileSync(path.join(ROOT, f), "utf8");
      compare(f, text, 1);
      compare(f, text, 4);
    }
  });

  it("keeps records light between the reads: a year-less journal walks back from the collection time", () => {
    const { light, replayed } = compare("journal.log", journal(300), 1);
    expect(light.yearSource).toBe("collected");
    expect(light.records.slice(0, 298).every((r) => r.message === "" && r.raw === "" && r.fields === undefined)).toBe(true);
    expect(replayed[0].fields?.pod).toBe("kube-system/app-0");
    expect(new Date(replayed[0].ts ?? 0).toISOString()).toBe("2026-03-14T02:00:00.000Z");
  });

  it("keeps whole the records changed after their lines: a klog block, a cut line", () => {
    const withBlock = journal(40).replace('pod="kube-system/app-5"', 'pod="kube-system/app-5" err=<\n\tfirst line of the value\n\tsecond line\n >');
    const { replayed } = compare("journal.log", withBlock, 1);
    expect(replayed[5].fields?.err).toBe("first line of the value\nsecond line");
    const long = journal(20).replace('pod="kube-system/app-3"', `pod="kube-system/app-3" note="${"x".repeat(70_000)}"`);
    const cut = compare("journal.log", long, 1);
    expect(cut.replayed[3].message).toContain("[truncated");
  });

  it("parses a newest-first journal whole again on replay, with the same records", () => {
    const lines = journal(200).trimEnd().split("\n").reverse();
    const { light, replayed } = compare("journal.log", `${lines.join("\n")}\n`, 1);
    expect(light.errors.map((e) => e.message)).toContain("newest-first file: records reversed into time order");
    expect(replayed).toHaveLength(200);
  });

  it("counts monotonic stamps of light records (dmesg with resets)", () => {
    const dmesg = [0, 1, 2, 0.5, 1.5].map((s, i) => `[    ${s.toFixed(6)}] line ${i} of the kernel`).join("\n");
    const { light } = compare("dmesg.log", `${dmesg}\n`, 1);
    expect(light.counts.sinceBoot).toBe(5);
  });
});
