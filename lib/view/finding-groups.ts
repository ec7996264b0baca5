/**
 * Findings in groups for the incident and timeline pages: one group per detector on one node
 * boot, in the order the list has them (most severe first), each showing its first `keep` and
 * folding the rest. A Calico storm on one boot gives a retry storm per pod (dozens of cards),
 * which would push the rest of the page (the events table) far down.
 *
 * Pure: findings in, groups out.
 */

/** What grouping reads of a finding (`TFindingView` has it). */
export interface GroupableFinding {
  id: number;
  detector: string;
  nodeName: string;
  bootKey: string;
}

/** One detector's findings on one node boot: the first shown, the rest folded. */
export interface FindingGroup<F extends GroupableFinding> {
  /** `detector`, node and boot key, tab-separated */
  key: string;
  detector: string;
  nodeName: string;
  bootKey: string;
  /** the first `keep` findings of the group, in list order */
  shown: F[];
  /** the rest, folded */
  folded: F[];
}

/** Groups `findings` (see the module comment); `keep` >= 1. Groups come in the order of their first finding. */
export function groupFindings<F extends GroupableFinding>(findings: readonly F[], keep = 3): Array<FindingGroup<F>> {
  const groups = new Map<string, FindingGroup<F>>();
  for (const f of findings) {
    const key = `${f.detector}\t${f.nodeName}\t${f.bootKey}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, detector: f.detector, nodeName: f.nodeName, bootKey: f.bootKey, shown: [], folded: [] }));
    (g.shown.length < Math.max(1, keep) ? g.shown : g.folded).push(f);
  }
  return [...groups.values()];
}

/** What one folded finding is called when counted, by `detector:scope` (then by detector). */
export const FOLDED_NOUNS: Record<string, [string, string]> = {
  "retry-storm:node": ["storm", "storms"],
  "retry-storm:pods": ["retry rhythm", "retry rhythms"],
};

/**
 * The folded findings of one boot counted with their parts, for the boot table:
 * `1 storm, 550 pods` (several kinds joined with ` · `); "" when none has parts.
 */
export function foldedCounts(findings: ReadonlyArray<{ detector: string; metrics: Record<string, unknown> }>): string {
  const by = new Map<string, { n: number; parts: number; word: string; noun: [string, string] }>();
  for (const f of findings) {
    const parts = Array.isArray(f.metrics.parts) ? f.metrics.parts.length : 0;
    if (!parts) continue;
    const key = `${f.detector}:${String(f.metrics.scope ?? "")}`;
    const noun = FOLDED_NOUNS[key] ?? FOLDED_NOUNS[f.detector] ?? [f.detector, f.detector];
    const word = typeof f.metrics.partsOf === "string" ? f.metrics.partsOf : "part";
    const g = by.get(key) ?? { n: 0, parts: 0, word, noun };
    g.n++;
    g.parts += parts;
    by.set(key, g);
  }
  return [...by.values()]
    .map((g) => `${g.n} ${g.n === 1 ? g.noun[0] : g.noun[1]}, ${g.parts.toLocaleString("en-US")} ${g.parts === 1 ? g.word : `${g.word}s`}`)
    .join(" · ");
}

/** The incident page's findings filter: detectors and severities to show (an empty list: every one). */
export interface TFindingFilter {
  detectors: string[];
  severities: string[];
}

/** One filter option with the findings it would show given the other list's choice. */
export interface TFilterOption {
  value: string;
  count: number;
  checked: boolean;
}

/**
 * The filter as the URL states it: `det=retry-storm,sandbox-failure-window&sev=critical`
 * (comma-separated; blanks and repeats dropped, order kept). A missing parameter is every one.
 */
export function parseFindingFilter(params: { det?: string | string[] | null; sev?: string | string[] | null }): TFindingFilter {
  const list = (v: string | string[] | null | undefined) => [
    ...new Set(
      (Array.isArray(v) ? v : [v ?? ""])
        .flatMap((x) => x.split(","))
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ];
  return { detectors: list(params.det), severities: list(params.sev) };
}

/** Whether `filter` holds anything back. */
export const filterActive = (filter: TFindingFilter) => filter.detectors.length > 0 || filter.severities.length > 0;

const passes = (list: string[], v: string) => list.length === 0 || list.includes(v);

/** The findings `filter` shows, in their order. */
export function filterFindings<F extends { detector: string; severity: string }>(findings: readonly F[], filter: TFindingFilter): F[] {
  return findings.filter((f) => passes(filter.detectors, f.detector) && passes(filter.severities, f.severity));
}

/**
 * The filter bar's options: every detector the findings have (by name) and every severity they
 * have (most severe first, in `severityOrder`), plus any the filter names that none has (so it
 * can be unchecked). Each counts the findings it shows together with the other list's choice
 * (a detector's count under the chosen severities, a severity's under the chosen detectors).
 */
export function findingFilterOptions(
  findings: ReadonlyArray<{ detector: string; severity: string }>,
  filter: TFindingFilter,
  severityOrder: readonly string[],
): { detectors: TFilterOption[]; severities: TFilterOption[] } {
  const count = (values: string[], key: "detector" | "severity", other: (f: { detector: string; severity: string }) => boolean) => {
    const n = new Map(values.map((v) => [v, 0]));
    for (const f of findings) if (other(f)) n.set(f[key], (n.get(f[key]) ?? 0) + 1);
    return n;
  };
  const dets = [...new Set([...findings.map((f) => f.detector), ...filter.detectors])].sort((a, b) => a.localeCompare(b));
  const rank = (s: string) => (severityOrder.includes(s) ? severityOrder.indexOf(s) : severityOrder.length);
  const sevs = [...new Set([...findings.map((f) => f.severity), ...filter.severities])].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const detN = count(dets, "detector", (f) => passes(filter.severities, f.severity));
  const sevN = count(sevs, "severity", (f) => passes(filter.detectors, f.detector));
  return {
    detectors: dets.map((value) => ({ value, count: detN.get(value) ?? 0, checked: filter.detectors.includes(value) })),
    severities: sevs.map((value) => ({ value, count: sevN.get(value) ?? 0, checked: filter.severities.includes(value) })),
  };
}
