/**
 * The import rules of `.dependency-cruiser.cjs`, checked by dependency-cruiser over every folder of
 * source code: no import cycle (type-only imports count), a pure core (lib/parse, lib/detect,
 * lib/model, lib/normalise, lib/view import no database, file, network, query or pipeline module),
 * lib/ below the pages. A cycle is
 * reported as its chain of modules, `a.ts → b.ts → a.ts`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const CLI = path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const SOURCE_FOLDERS = ["lib", "app", "components", "scripts", "tests", "e2e"];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: Array<{ name: string }>;
}

/** The rule violations dependency-cruiser reports for `folders` (paths relative to `cwd`). */
function violations(folders: string[], cwd = root): Violation[] {
  const r = spawnSync(process.execPath, [CLI, "--config", path.join(root, ".dependency-cruiser.cjs"), "--output-type", "json", ...folders], {
    cwd,
    encoding: "utf8",
    maxBuffer: 256 << 20,
  });
  if (!r.stdout) throw new Error(`dependency-cruiser gave no report: ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

/** `a → b → a` for a cycle violation. */
const chain = (v: Violation) => [v.from, ...(v.cycle ?? []).map((c) => c.name)].join(" → ");

const fixture = path.join(root, ".tmp", `import-cycle-fixture-${process.pid}`);
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe("import rules", () => {
  it("the rule reports a cycle of two modules, type-only imports included", () => {
    mkdirSync(fixture, { recursive: true });
    writeFileSync(path.join(fixture, "a.ts"), 'import { b } from "./b";\nexport interface A { n: number }\nexport const a = () => b;\n');
    writeFileSync(path.join(fixture, "b.ts"), 'import type { A } from "./a";\nexport const b = (x: A) => x.n;\n');
    const dir = path.relative(root, fixture);
    const found = violations([dir]).filter((v) => v.rule.name === "no-circular");
    expect(found.map(chain)).toEqual([`${dir}/a.ts → ${dir}/b.ts → ${dir}/a.ts`]);
  });

  it(`no cycle and no broken layer in ${SOURCE_FOLDERS.join(", ")}`, () => {
    expect(violations(SOURCE_FOLDERS).map((v) => `${v.rule.name}: ${chain(v)}`)).toEqual([]);
  });
});
