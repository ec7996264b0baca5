/**
 * A list of findings grouped by detector on each node boot (lib/view/finding-groups.ts): the
 * first few of a group shown, the rest folded under a summary that counts them (`<details>`, so
 * it works without script and on server-rendered pages). A group opens by itself when it folds a
 * finding `open` picks (the selected one). `item` renders one finding (a `FindingItem`).
 */
import { Fragment, type ReactNode } from "react";
import type { TFindingView } from "@/lib/incidents/get-incident";
import { groupFindings } from "@/lib/view/finding-groups";
import { fmtBootKey } from "@/lib/view/format";

/**
 * `findings` (in the order to show them) as one list: `item` renders a finding, `open` says which
 * folded finding opens its group (the selected one), `showNode` names node and boot in a fold's
 * summary (the incident page; a timeline page shows one boot).
 */
export function FindingList(p: { findings: TFindingView[]; item: (f: TFindingView) => ReactNode; open?: (f: TFindingView) => boolean; showNode?: boolean }) {
  return (
    <ul className="findings">
      {groupFindings(p.findings).map((g) => (
        <Fragment key={g.key}>
          {g.shown.map((f) => (
            <Fragment key={f.id}>{p.item(f)}</Fragment>
          ))}
          {g.folded.length > 0 && (
            <li className="finding-fold">
              <details open={g.folded.some((f) => p.open?.(f) ?? false)} data-testid="finding-fold">
                <summary>
                  {g.folded.length} more <span className="mono">{g.detector}</span> finding{g.folded.length === 1 ? "" : "s"}
                  {p.showNode ? ` on ${g.nodeName} · boot ${fmtBootKey(g.bootKey)}` : ""}
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
