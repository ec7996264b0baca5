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
