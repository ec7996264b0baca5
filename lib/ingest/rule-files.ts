/**
 * The rule-set files (`rules/*.yaml` in the repository, or `BOOTLINE_RULES_DIR`): read once per
 * process (each ingest thread reads them itself), parsed with the `yaml` package, checked and
 * compiled (lib/detect/rules/compile.ts). A file that does not load is left out and its problem
 * kept (`ruleProblems`, printed once on standard error), so one bad file never stops an ingest;
 * lib/ingest/rule-files.test.ts fails on any problem. Adding a rule = dropping one file here.
 *
 * `detectorWants` is the one test of which events the detect step needs: every event of a
 * kind other than `log`, and the `log` events some rule's prefilter takes.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { type CompiledRule, compileRuleSet, type RuleBook, ruleBook } from "../detect/rules/compile";
import { reachesDetectors } from "../model/event-kinds";

/** The folder the rule sets are read from. */
export function rulesDir(): string {
  return path.resolve(process.env.BOOTLINE_RULES_DIR ?? path.join(process.cwd(), "rules"));
}

/** A folder's rule sets: the book of every file that loads, and one problem per file that does not. */
export function loadRuleDir(dir: string): { book: RuleBook; problems: string[]; files: string[] } {
  const problems: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort();
  } catch (err) {
    problems.push(`${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const rules: CompiledRule[] = [];
  const files: string[] = [];
  for (const f of names) {
    try {
      const compiled = compileRuleSet(parse(readFileSync(path.join(dir, f), "utf8")), f);
      // a second file naming a rule again is refused whole (the book checks across files)
      ruleBook([...rules, ...compiled]);
      rules.push(...compiled);
      files.push(f);
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { book: ruleBook(rules), problems, files };
}

let loaded: ReturnType<typeof loadRuleDir> | null = null;

/** The process's rule book (loaded from `rulesDir()` on first use). */
export function rules(): RuleBook {
  if (!loaded) {
    loaded = loadRuleDir(rulesDir());
    for (const p of loaded.problems) console.error(`bootline: rule set left out: ${p}`);
  }
  return loaded.book;
}

/** Problems of the rule files this process loaded. */
export function ruleProblems(): string[] {
  rules();
  return loaded!.problems;
}

/** True when the detect step needs `e`: the kinds the coded detectors receive, and the other events a rule may take. */
export function detectorWants(e: { kind: string; lane: string; message: string }): boolean {
  return reachesDetectors(e.kind) || rules().wantsLog(e.lane, e.message);
}
