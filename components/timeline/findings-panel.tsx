"use client";
/**
 * The node boot page's findings: each with "Explain window" and "zoom to" (its window, its
 * evidence highlighted) or "clear evidence" when it is the one selected; with none, what was
 * checked and found fine (`healthy`).
 */
import type { ReactNode } from "react";
import { FindingItem } from "@/components/findings/finding-item";
import { FindingList } from "@/components/findings/finding-list";
import type { TFindingView } from "@/lib/incidents/get-incident";
import { fmtCount } from "@/lib/view/format";

type TFinding = TFindingView;

export function FindingsPanel(p: {
  incidentId: string;
  findings: TFinding[];
  /** the finding selected in the URL, and the part (pod) selected */
  selectedFindingId: number | null;
  selectedPart: string | null;
  healthy?: ReactNode;
  onExplain(f: TFinding): void;
  /** select it: zoom to its window and highlight its evidence */
  onSelect(f: TFinding): void;
  onClear(): void;
}) {
  return (
    <>
      {p.findings.length > 0 && (
        <section className="panel" aria-label="findings of this boot">
          <h2>Findings</h2>
          <FindingList
            findings={p.findings}
            open={(f) => f.id === p.selectedFindingId}
            item={(f) => (
              <FindingItem
                f={f}
                incidentId={p.incidentId}
                selectedPart={p.selectedPart}
                selected={f.id === p.selectedFindingId}
                actions={
                  <>
                    <button
                      type="button"
                      className="btn small"
                      data-testid="explain-window"
                      onClick={() => p.onExplain(f)}
                      title="what is more frequent in the finding's window than before it (or in the rest of the boot)"
                    >
                      Explain window
                    </button>{" "}
                    {f.id === p.selectedFindingId ? (
                      <button type="button" className="btn small" onClick={p.onClear}>
                        clear evidence
                      </button>
                    ) : (
                      <button type="button" className="btn small" onClick={() => p.onSelect(f)} title="zoom to its window and highlight its evidence events">
                        {f.evidenceCount ? `zoom to · ${fmtCount(f.evidenceCount)} evidence` : "zoom to"}
                      </button>
                    )}
                  </>
                }
              />
            )}
          />
        </section>
      )}
      {p.findings.length === 0 && p.healthy && (
        <section className="panel" aria-label="findings of this boot" data-testid="boot-healthy">
          <h2>Findings</h2>
          {p.healthy}
        </section>
      )}
    </>
  );
}
