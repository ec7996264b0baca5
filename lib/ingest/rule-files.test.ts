/**
 * The rule registry check (as registry.test.ts checks the format specs): every file of rules/
 * loads, every rule's samples give their finding and its `none` lines give none, and a rule
 * whose samples are wrong, or a file that does not load, is caught.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileRuleSet, ruleBook } from "../detect/rules/compile";
import { loadRuleDir, rulesDir } from "./rule-files";
import { checkRuleSamples } from "./rule-samples";

const loaded = loadRuleDir(rulesDir());

const KILL =
  "Dec 02 08:15:40 node-a kernel: Out of memory: Killed process 1432 (containerd) total-vm:2458624kB, anon-rss:912344kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:2212kB oom_score_adj:-999\n";
const OTHER =
  "Dec 02 08:15:40 node-a kernel: Out of memory: Killed process 7781 (java) total-vm:8458624kB, anon-rss:6112344kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:12212kB oom_score_adj:988\n";

/** A one-rule set over the OOM line, with the samples given. */
function oomSet(samples: unknown[]): unknown {
  return {
    set: "t",
    source: "test",
    rules: [
      {
        name: "t-oom",
        title: "killed {process}",
        severity: "high",
        source: "test",
        match: { lanes: ["kernel"], text: "Killed process", pattern: "Killed process (?<pid>\\d+) \\((?<process>containerd)\\)" },
        explanation: "{process} was killed ({matches:kill}).",
        remedy: "Reserve memory.",
        samples,
      },
    ],
  };
}

describe("rule files", () => {
  it("all load, with unique rule names", () => {
    expect(loaded.problems).toEqual([]);
    expect(loaded.files.length).toBeGreaterThanOrEqual(6);
    expect(loaded.book.rules.length).toBeGreaterThanOrEqual(20);
  });

  for (const r of loaded.book.rules)
    it(`${r.set} ${r.spec.name}: its samples give what they state`, () => {
      expect(checkRuleSamples(ruleBook([r]))).toEqual([]);
    });

  it("fails a rule whose samples do not give its finding, or whose none lines give one", () => {
    const good = compileRuleSet(
      oomSet([
        { lines: KILL, give: { matches: 1, values: { process: ["containerd"] } } },
        { lines: OTHER, give: "none" },
      ]),
      "t.yaml",
    );
    expect(checkRuleSamples(ruleBook(good))).toEqual([]);
    const bad = compileRuleSet(
      oomSet([
        { lines: OTHER, give: { matches: 1 } },
        { lines: KILL, give: "none" },
        { lines: KILL + KILL.replace("08:15:40", "08:16:40"), give: { matches: 1, values: { process: ["crio"] } } },
      ]),
      "t.yaml",
    );
    expect(checkRuleSamples(ruleBook(bad))).toEqual([
      "t rule t-oom sample 1: must give one finding, gave 0",
      "t rule t-oom sample 2: must give none, gave 1 (killed containerd)",
      "t rule t-oom sample 3: must count 1 matches, counted 2",
      't rule t-oom sample 3: process must be ["crio"], was ["containerd"]',
    ]);
  });

  it("leaves out a file that does not load, with its problem, and keeps the others", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rules-"));
    try {
      const ok = oomSet([
        { lines: KILL, give: { matches: 1 } },
        { lines: OTHER, give: "none" },
      ]) as { set: string };
      writeFileSync(path.join(dir, "t.yaml"), JSON.stringify(ok));
      writeFileSync(path.join(dir, "u.yaml"), JSON.stringify({ ...ok, set: "u" }));
      writeFileSync(path.join(dir, "v.yaml"), "set: v\nsource: x\nrules: []\n");
      writeFileSync(path.join(dir, "w.yaml"), JSON.stringify({ ...ok, set: "other" }));
      const r = loadRuleDir(dir);
      expect(r.files).toEqual(["t.yaml"]);
      expect(r.problems).toEqual([
        "rule t-oom is defined in both t and u",
        expect.stringContaining("v.yaml: rules: "),
        'w.yaml: set "other" must be named like its file ("w")',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
