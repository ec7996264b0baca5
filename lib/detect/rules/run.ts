/**
 * The rule runner: every compiled rule (compile.ts) on one node boot's events, after they are
 * classified, beside the coded detectors (lib/detect/index.ts) and with the same isolation: a
 * rule that throws or gives an invalid finding is reported and its finding dropped. Pure.
 *
 * A rule gives at most one finding per boot, however often it fires: its matches counted
 * (`matches`), listed as evidence, their named groups' values with their counts
 * (`matchedValues`), and its thresholds in `metrics` (`minCount`, `withinS`, `sinceBootS`,
 * `afterMilestone`). It fires when `minCount` matches lie within `withinS` seconds (anywhere in
 * the boot without `withinS`). Matches without a time count only for a rule with no time
 * condition. A line two files hold (the journal and dmesg) counts once (`SAME_LINE_MS`). The finding spans the first match to the clearing event after the last match
 * (`clear`), to the end of the data for a `lasting` rule never cleared (`end` null), else to the
 * last match.
 */
import { ZFinding } from "../index";
import { fmtT, plural, sec } from "../numbers";
import type { BootEvent, BootInfo, Finding } from "../types";
import { type CompiledMatch, type CompiledRule, passes, type RuleBook, valueName } from "./compile";

/** A rule that threw or gave an invalid finding on one boot. */
export interface RuleError {
  detector: string;
  message: string;
}

/** Evidence ids kept per finding (the count is in `matches`). */
export const MAX_EVIDENCE = 1000;
/**
 * Two events of different files with the same message this close are one line logged twice, ms
 * (the journal's whole seconds against dmesg's kernel clock; dmesg -T drifts further only after a
 * suspend). A copy without a time (plain dmesg on a boot with no anchor) is the same line as
 * any copy of its text in another file.
 */
export const SAME_LINE_MS = 2000;
/** Distinct values of one group listed in words before "and N more". */
const WORDS_VALUES = 5;

interface Hit {
  e: BootEvent;
  groups: Record<string, string> | null;
}

/** The named groups when `m` takes `e` (an empty record when it has no pattern), else null. */
export function matchEvent(m: CompiledMatch, e: BootEvent): Record<string, string> | null {
  if (!m.kinds.has(e.kind)) return null;
  if (m.lanes && !m.lanes.has(e.lane)) return null;
  if (m.components && !m.components.has(e.component.toLowerCase())) return null;
  if (m.reasons && !(e.k8s && m.reasons.has(e.k8s.reason))) return null;
  const msg = e.message;
  if (m.text) {
    const hay = m.ignoreCase ? msg.toLowerCase() : msg;
    let any = false;
    for (const t of m.text)
      if (hay.includes(t)) {
        any = true;
        break;
      }
    if (!any) return null;
  }
  if (!m.re) return {};
  const x = m.re.exec(msg);
  if (!x) return null;
  const groups: Record<string, string> = {};
  if (x.groups) for (const k in x.groups) if (x.groups[k] !== undefined) groups[valueName(k)] = x.groups[k];
  for (const [g, b] of m.numbers) {
    if (groups[g] === undefined) continue;
    const v = Number.parseFloat(groups[g]);
    if (!Number.isFinite(v)) continue; // the group took no part in this match
    if (b.atLeast !== undefined && v < b.atLeast) return null;
    if (b.absAtLeast !== undefined && Math.abs(v) < b.absAtLeast) return null;
  }
  return groups;
}

/** Most matches in any `withinS` span (a sliding window over the sorted times). */
function peakWithin(times: readonly number[], withinS: number): number {
  let best = 0;
  let a = 0;
  for (let b = 0; b < times.length; b++) {
    while (times[b] - times[a] > withinS * 1000) a++;
    best = Math.max(best, b - a + 1);
  }
  return best;
}

/** `a, b and 3 more` for the distinct values of one group. */
function inWords(values: readonly string[]): string {
  if (values.length <= WORDS_VALUES) return values.join(", ");
  return `${values.slice(0, WORDS_VALUES).join(", ")} and ${values.length - WORDS_VALUES} more`;
}

/** One rule's finding on one boot, or null when it does not fire. `hits` and `clears` sorted like the events. */
function ruleFinding(rule: CompiledRule, boot: BootInfo, hits: Hit[], clears: BootEvent[], milestoneMs: number | null): Finding | null {
  const w = rule.spec.when;
  const timed = w.withinS !== undefined || w.sinceBootS !== undefined || w.afterMilestone !== undefined;
  if (w.afterMilestone !== undefined && milestoneMs === null) return null;
  const counted = hits.filter(({ e }) => {
    if (e.ts === null) return !timed;
    if (w.sinceBootS !== undefined && e.ts > boot.start + w.sinceBootS * 1000) return false;
    if (milestoneMs !== null && e.ts < milestoneMs) return false;
    return true;
  });
  const times = counted.flatMap(({ e }) => (e.ts === null ? [] : [e.ts]));
  const peak = w.withinS !== undefined ? peakWithin(times, w.withinS) : counted.length;
  if (peak < w.minCount) return null;

  // episodes: a match opens the problem, the next clearing event after it closes it
  let end: number | null = null;
  let clearedBy: BootEvent | null = null;
  if (rule.clear) {
    const lastMatch = times.length ? times[times.length - 1] : null;
    clearedBy = lastMatch === null ? null : (clears.find((c) => c.ts !== null && c.ts > lastMatch) ?? null);
    end = clearedBy ? clearedBy.ts : null;
  } else if (!rule.spec.lasting) end = times.length ? times[times.length - 1] : null;
  const start = times.length ? times[0] : boot.start;
  if (end === null && !rule.spec.lasting && !rule.clear) end = start;

  const byGroup = new Map<string, Map<string, number>>();
  for (const { groups } of counted)
    for (const [g, v] of Object.entries(groups ?? {})) {
      let m = byGroup.get(g);
      if (!m) byGroup.set(g, (m = new Map()));
      m.set(v, (m.get(v) ?? 0) + 1);
    }
  const firstS = times.length ? sec(times[0] - boot.start) : null;
  const lastS = times.length ? sec(times[times.length - 1] - boot.start) : null;
  const fill: Record<string, string> = {
    matches: String(counted.length),
    first: firstS === null ? "an unknown time" : fmtT(firstS),
    last: lastS === null ? "an unknown time" : fmtT(lastS),
    span: firstS === null ? "at an unknown time" : firstS === lastS ? `at ${fmtT(firstS)}` : `from ${fmtT(firstS)} to ${fmtT(lastS!)}`,
    minCount: String(w.minCount),
    withinS: w.withinS === undefined ? "" : String(w.withinS),
    sinceBootS: w.sinceBootS === undefined ? "" : String(w.sinceBootS),
    afterMilestone: w.afterMilestone ?? "",
    peak: String(peak),
  };
  for (const [g, m] of byGroup) fill[g] = inWords([...m.keys()]);
  // `{matches:kill}` is "1 kill" / "2 kills", `{matches:process:processes}` names the plural
  const render = (t: string) =>
    t.replace(/\{([A-Za-z_][A-Za-z0-9_]*)(?::([^:{}]+)(?::([^:{}]+))?)?\}/g, (_m, k: string, one?: string, many?: string) =>
      one && k === "matches" ? plural(counted.length, one, many ?? `${one}s`) : (fill[k] ?? "(none)"),
    );

  const conditions = [
    `${plural(w.minCount, "match", "matches")}${w.withinS !== undefined ? ` within ${w.withinS} s` : ""}`,
    w.sinceBootS !== undefined ? `only in the first ${w.sinceBootS} s after T+0` : null,
    w.afterMilestone !== undefined ? `only after the boot's first ${w.afterMilestone}` : null,
  ].filter(Boolean);
  const seen =
    firstS === null
      ? `${plural(counted.length, "match", "matches")} without a time`
      : `${plural(counted.length, "match", "matches")} ${fill.span}${w.withinS !== undefined ? `, ${peak} in the busiest ${w.withinS} s` : ""}`;
  const closing = rule.clear
    ? clearedBy
      ? `; cleared at ${fmtT(sec(clearedBy.ts! - boot.start))}`
      : "; not cleared by the end of the data"
    : rule.spec.lasting
      ? "; it lasts until the node is fixed"
      : "";
  const explanation = `${render(rule.spec.explanation).trim()} Rule ${rule.spec.name} (rule set ${rule.set}) fires at ${conditions.join(", ")}: ${seen}${closing}. What to do: ${rule.spec.remedy.trim()}`;

  const evidence = counted.slice(0, MAX_EVIDENCE).map(({ e }) => e.id);
  if (clearedBy) evidence.push(clearedBy.id);
  const metrics: Record<string, unknown> = {
    matches: counted.length,
    minCount: w.minCount,
    withinS: w.withinS ?? null,
    peakMatches: w.withinS !== undefined ? peak : null,
    sinceBootS: w.sinceBootS ?? null,
    afterMilestone: w.afterMilestone ?? null,
    firstAfterBootS: firstS,
    lastAfterBootS: lastS,
    matchedValues: [...byGroup].flatMap(([g, m]) => [...m].map(([v, n]) => `${g}=${v} (${n})`)),
    ruleSet: rule.set,
  };
  if (rule.clear) metrics.clearedAfterBootS = clearedBy ? sec(clearedBy.ts! - boot.start) : null;
  return { detector: rule.detector, severity: rule.spec.severity, start, end, title: render(rule.spec.title), explanation, metrics, evidence };
}

/**
 * Runs every rule of `book` on one boot.
 * @param events the boot's events sorted by (ts ?? +inf, fileId, line), `log` events among them
 *   (those `book.wants` keeps suffice)
 * @returns findings in the book's order and one error per rule that threw or gave an invalid finding
 */
export function runRules(boot: BootInfo, events: readonly BootEvent[], book: RuleBook): { findings: Finding[]; errors: RuleError[] } {
  const rules = book.rules;
  const hits: Hit[][] = rules.map(() => []);
  const clears: BootEvent[][] = rules.map(() => []);
  const milestoneKinds = book.milestoneKinds;
  const milestones = new Map<string, number>();
  const errors: RuleError[] = [];
  const broken = new Set<number>();
  // the same line in two files (the journal, kern.log, dmesg): counted once
  const seen = new Map<string, Array<{ fileId: number; ts: number | null }>>();
  const copyOfSeen = (e: BootEvent): boolean => {
    const copies = seen.get(e.message);
    if (copies?.some((c) => c.fileId !== e.fileId && (c.ts === null || e.ts === null || Math.abs(c.ts - e.ts) <= SAME_LINE_MS))) return true;
    if (copies) copies.push({ fileId: e.fileId, ts: e.ts });
    else seen.set(e.message, [{ fileId: e.fileId, ts: e.ts }]);
    return false;
  };
  for (const e of events) {
    if (e.ts !== null && milestoneKinds.has(e.kind) && !milestones.has(e.kind)) milestones.set(e.kind, e.ts);
    const cand = book.candidates(e.lane, e.kind);
    if (!passes(cand, e.message)) continue;
    let copy: boolean | null = null;
    for (const i of cand.rules) {
      if (broken.has(i)) continue;
      const r = rules[i];
      try {
        const g = matchEvent(r.match, e);
        const isClear = !g && r.clear !== null && matchEvent(r.clear, e) !== null;
        if (!g && !isClear) continue;
        copy ??= copyOfSeen(e);
        if (copy) break;
        if (g) hits[i].push({ e, groups: g });
        else clears[i].push(e);
      } catch (err) {
        broken.add(i);
        errors.push({ detector: r.detector, message: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  const findings: Finding[] = [];
  rules.forEach((r, i) => {
    if (broken.has(i) || hits[i].length === 0) return;
    try {
      const f = ruleFinding(r, boot, hits[i], clears[i], r.spec.when.afterMilestone ? (milestones.get(r.spec.when.afterMilestone) ?? null) : null);
      if (!f) return;
      const ok = ZFinding.safeParse(f);
      if (!ok.success) {
        errors.push({ detector: r.detector, message: `invalid finding: ${ok.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}` });
        return;
      }
      findings.push(f);
    } catch (err) {
      errors.push({ detector: r.detector, message: err instanceof Error ? err.message : String(err) });
    }
  });
  return { findings, errors };
}
