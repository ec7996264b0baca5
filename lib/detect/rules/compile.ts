/**
 * Rule sets (schema.ts) compiled for the runner (run.ts): each match's regular expression, its
 * literal texts and its sets of lanes, kinds, components and reasons, and the book of every
 * rule with its cheap prefilter. Pure; throws `RuleSetError` naming the set and the rule for a
 * file that cannot be compiled (a bad pattern, a placeholder no value fills, a duplicate name).
 *
 * The prefilter (`RuleBook.candidates`, `RuleBook.wantsLog`): per lane and event kind, the rules
 * that may take such an event and one regular expression joining their literal texts (or a
 * pattern, its named groups made plain, where a match gives no text), so an event costs a map
 * lookup and at most one regex test before any rule's own test. The pipeline drops events of
 * kind `log` before the detectors unless this prefilter passes them (`wantsLog`).
 */
import { LANES } from "../../model/lanes";
import { type RuleMatchSpec, type RuleSetSpec, type RuleSpec, ZRuleSet } from "./schema";

/** A rule file that does not compile, with the set (file) and rule it concerns. */
export class RuleSetError extends Error {}

/** A `match` or `clear` ready to test events. */
export interface CompiledMatch {
  lanes: ReadonlySet<string> | null;
  /** the kinds it reads (`DEFAULT_KINDS` when the file names none) */
  kinds: ReadonlySet<string>;
  components: ReadonlySet<string> | null;
  reasons: ReadonlySet<string> | null;
  /** literal texts (lower case with `ignoreCase`) */
  text: readonly string[] | null;
  ignoreCase: boolean;
  re: RegExp | null;
  /** named groups of `re` */
  groups: readonly string[];
  numbers: ReadonlyArray<[group: string, bound: { atLeast?: number; absAtLeast?: number }]>;
  /** regex source standing for this match in the prefilter (null: it tests no text, so every event of its lanes and kinds is a candidate) */
  prefilter: string | null;
}

/** One compiled rule. */
export interface CompiledRule {
  /** the rule set (file) it comes from */
  set: string;
  /** `rule:<name>`, the findings' detector */
  detector: string;
  spec: RuleSpec;
  match: CompiledMatch;
  clear: CompiledMatch | null;
}

/** The rules that may take events of one lane and kind, and the test their messages must pass first. */
export interface Candidates {
  /** indexes into `RuleBook.rules` of the rules whose match or clear accepts the lane and kind */
  rules: readonly number[];
  /** one of these must match the message (null: some candidate tests no text, so none is skipped) */
  tests: readonly RegExp[] | null;
}

/** Every rule of the loaded sets, and the prefilter. */
export interface RuleBook {
  rules: readonly CompiledRule[];
  /** lanes where some rule reads `log` events */
  logLanes: ReadonlySet<string>;
  /** the candidates for events of `lane` and `kind` (computed once per pair) */
  candidates(lane: string, kind: string): Candidates;
  /** event kinds some rule's `afterMilestone` names */
  milestoneKinds: ReadonlySet<string>;
  /** true when the runner needs `e`: a rule may take it (cheap; false positives allowed), or it is a milestone a rule names */
  wants(e: { lane: string; kind: string; message: string }): boolean;
  /** `wants` for a `log` event of `lane` with this message */
  wantsLog(lane: string, message: string): boolean;
}

/** True when `c`'s prefilter passes `message` (a candidate that tests no text passes all). */
export function passes(c: Candidates, message: string): boolean {
  if (c.rules.length === 0) return false;
  if (!c.tests) return true;
  for (const re of c.tests) if (re.test(message)) return true;
  return false;
}

/** Placeholders every template may use besides the named groups. */
export const TEMPLATE_KEYS = ["matches", "first", "last", "span", "minCount", "withinS", "sinceBootS", "afterMilestone", "peak"] as const;

/** The kinds a match without `kinds` reads: the lines and Kubernetes events no classification rule names. */
export const DEFAULT_KINDS: readonly string[] = ["log", "k8s.event"];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * `source` with its named groups made non-capturing (`(?<x>` → `(?:`), for the joined
 * prefilter (two rules may name the same group). Throws on back references, which joining
 * would break.
 */
export function plainGroups(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const n = source[i + 1] ?? "";
      if (/[1-9k]/.test(n)) throw new RuleSetError(`back references (\\${n}) are not supported`);
      out += c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") inClass = true;
    if (c === "(" && source[i + 1] === "?" && source[i + 2] === "<" && /[A-Za-z_]/.test(source[i + 3] ?? "")) {
      const close = source.indexOf(">", i + 3);
      out += "(?:";
      i = close;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * Named groups of a regex source, in order, each once. A group named `<name>_<n>` (`image_1`,
 * `image_2`: JavaScript refuses one name twice in a pattern) gives values of `<name>`.
 */
export function groupNames(source: string): string[] {
  return [...new Set([...source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => valueName(m[1])))];
}

/** The value a named group gives: its name without a `_<n>` suffix. */
export const valueName = (group: string): string => group.replace(/_\d+$/, "");

function compileMatch(m: RuleMatchSpec, where: string): CompiledMatch {
  const ignoreCase = m.ignoreCase ?? false;
  let re: RegExp | null = null;
  if (m.pattern) {
    try {
      re = new RegExp(m.pattern, ignoreCase ? "i" : "");
    } catch (err) {
      throw new RuleSetError(`${where}: pattern does not compile: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const groups = m.pattern ? groupNames(m.pattern) : [];
  for (const g of Object.keys(m.numbers ?? {}))
    if (!groups.includes(g)) throw new RuleSetError(`${where}: numbers names group "${g}", which the pattern does not capture`);
  const kinds = m.kinds ?? DEFAULT_KINDS;
  const readsLog = kinds.includes("log");
  if (readsLog && !m.text && !m.pattern) throw new RuleSetError(`${where}: a match that reads log lines needs a text or a pattern`);
  let prefilter: string | null = null;
  if (m.text || m.pattern) {
    try {
      prefilter = m.text ? m.text.map(escapeRe).join("|") : plainGroups(m.pattern!);
    } catch (err) {
      throw new RuleSetError(`${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    lanes: m.lanes ? new Set(m.lanes) : null,
    kinds: new Set(kinds),
    components: m.components ? new Set(m.components.map((c) => c.toLowerCase())) : null,
    reasons: m.reasons ? new Set(m.reasons) : null,
    text: m.text ? (ignoreCase ? m.text.map((t) => t.toLowerCase()) : m.text) : null,
    ignoreCase,
    re,
    groups,
    numbers: Object.entries(m.numbers ?? {}),
    prefilter,
  };
}

/**
 * Placeholders of a template that neither a named group nor `TEMPLATE_KEYS` fills
 * (`{matches:kill}` and `{matches:process:processes}` write the count with its noun).
 */
export function unknownPlaceholders(template: string, groups: readonly string[]): string[] {
  const known = new Set<string>([...groups, ...TEMPLATE_KEYS]);
  return [...template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)(?::[^:{}]+(?::[^:{}]+)?)?\}/g)].map((m) => m[1]).filter((k) => !known.has(k));
}

/**
 * Checks a parsed rule-set file (any value: YAML or JSON as loaded) and compiles its rules.
 * @param data the file's content
 * @param file the file's name, for messages and the set-name check (`<set>.yaml`)
 * @throws RuleSetError with zod's issues or the first compile problem
 */
export function compileRuleSet(data: unknown, file: string): CompiledRule[] {
  const parsed = ZRuleSet.safeParse(data);
  if (!parsed.success) throw new RuleSetError(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const set: RuleSetSpec = parsed.data;
  const base = file.replace(/^.*\//, "").replace(/\.(?:ya?ml|json)$/, "");
  if (base !== set.set) throw new RuleSetError(`${file}: set "${set.set}" must be named like its file ("${base}")`);
  const names = new Set<string>();
  return set.rules.map((spec) => {
    const where = `${file} rule ${spec.name}`;
    if (names.has(spec.name)) throw new RuleSetError(`${where}: duplicate rule name`);
    names.add(spec.name);
    const match = compileMatch(spec.match, `${where} match`);
    const clear = spec.clear ? compileMatch(spec.clear, `${where} clear`) : null;
    for (const [label, t] of [
      ["title", spec.title],
      ["explanation", spec.explanation],
    ] as const) {
      const bad = unknownPlaceholders(t, match.groups);
      if (bad.length) throw new RuleSetError(`${where}: ${label} names {${bad.join("}, {")}}, which no group or count fills`);
    }
    return { set: set.set, detector: `rule:${spec.name}`, spec, match, clear };
  });
}

/**
 * The book of compiled rules with its prefilter per lane and kind.
 * @throws RuleSetError when two sets define one rule name
 */
export function ruleBook(rules: readonly CompiledRule[]): RuleBook {
  const seen = new Map<string, string>();
  for (const r of rules) {
    const other = seen.get(r.spec.name);
    if (other) throw new RuleSetError(`rule ${r.spec.name} is defined in both ${other} and ${r.set}`);
    seen.set(r.spec.name, r.set);
  }
  // lane -> kind -> candidates: no key string made per event
  const cache = new Map<string, Map<string, Candidates>>();
  const candidates = (lane: string, kind: string): Candidates => {
    let byKind = cache.get(lane);
    if (!byKind) cache.set(lane, (byKind = new Map()));
    let c = byKind.get(kind);
    if (c) return c;
    const idx: number[] = [];
    const cs: string[] = [];
    const ci: string[] = [];
    let untested = false;
    rules.forEach((r, i) => {
      let taken = false;
      for (const m of [r.match, r.clear]) {
        if (!m || (m.lanes && !m.lanes.has(lane)) || !m.kinds.has(kind)) continue;
        taken = true;
        if (m.prefilter === null) untested = true;
        else (m.ignoreCase ? ci : cs).push(`(?:${m.prefilter})`);
      }
      if (taken) idx.push(i);
    });
    const tests: RegExp[] = [];
    if (cs.length) tests.push(new RegExp(cs.join("|")));
    if (ci.length) tests.push(new RegExp(ci.join("|"), "i"));
    c = { rules: idx, tests: untested ? null : tests };
    byKind.set(kind, c);
    return c;
  };
  const logLanes = new Set(LANES.filter((l) => candidates(l, "log").rules.length > 0));
  const milestoneKinds = new Set<string>(rules.flatMap((r) => (r.spec.when.afterMilestone ? [r.spec.when.afterMilestone] : [])));
  return {
    rules,
    logLanes,
    candidates,
    milestoneKinds,
    wants: (e) => milestoneKinds.has(e.kind) || passes(candidates(e.lane, e.kind), e.message),
    wantsLog: (lane, message) => passes(candidates(lane, "log"), message),
  };
}
