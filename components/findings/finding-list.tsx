/**
 * A list of findings grouped by detector on each node boot (lib/timeline/finding-groups.ts): the
 * first few of a group shown, the rest folded under a summary that counts them (`<details>`, so
 * it works without script and on server-rendered pages). A group opens by itself when it folds a
 * finding `open` picks (the selected one). `item` renders one finding (a `FindingItem`).
 */
import { Fragment, type ReactNode } from "react";
import type { TFindingView } from "@/lib/incidents/get-incident";
import { groupFindings } from "@/lib/timeline/finding-groups";

/** Findings of one group shown before the fold. */
const KEEP = 3;

export function FindingList(p: { findings: TFindingView[]; item: (f: TFindingView) => ReactNode; open?: (f: TFindingView) => boolean; showNode?: boolean }) {
  return (
    <ul className="findings">
      {groupFindings(p.findings, KEEP).map((g) => (
        <Fragment key={g.key}>
          {g.shown.map((f) => (
            <Fragment key={f.id}>{p.item(f)}</Fragment>
          ))}
          {g.folded.length > 0 && (
            <li className="finding-fold">
              <details open={g.folded.some((f) => p.open?.(f) ?? false)} data-testid="finding-fold">
                <summary>
                  {g.folded.length} more <span className="mono">{g.detector}</span> finding{g.folded.length === 1 ? "" : "s"}
                  {p.showNode ? ` on ${g.nodeName} · boot ${g.bootKey.length > 14 ? `${g.bootKey.slice(0, 12)}…` : g.bootKey}` : ""}
                </summary>
                <ul className="findings">
                  {g.folded.map((f) => (
                    <Fragment key={f.id}>{p.item(f)}</Fragment>
                  ))}
                </ul>
              </details>
            </li>
          )}
        </Fragment>
      ))}
    </ul>
  );
}
