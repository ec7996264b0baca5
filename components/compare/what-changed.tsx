/**
 * The compare page's "what changed" between its first two boots: message templates, event
 * kinds, error classes and components present in one boot only or whose counts differ by more
 * than twice, with both counts and both first T+; each count links into that boot's timeline at
 * the row's first event (filtered to the template or kind). `WhatChangedLoader` reads the diff
 * on the server and streams it in; until then `WhatChangedLoading` says so (`what-changed-loading`,
 * `aria-busy`; the section itself carries `data-status="ready"`), so an empty table never
 * stands for "still loading". (A streamed section and its fallback stand side by side for a
 * moment, so they carry different test ids.)
 */
import Link from "next/link";
import { getBootDiff, type TBootDiff } from "@/lib/queries/get-boot-diff";
import { fmtCount } from "@/lib/view/format";

const DIM_LABELS = { pattern: "template", kind: "kind", errorClass: "error class", component: "component" } as const;
const CHANGE_LABELS = { "only-a": "only in A", "only-b": "only in B", "more-in-a": "more in A", "more-in-b": "more in B" } as const;
const fmtT = (s: number | null) => (s === null ? "–" : `T+${s.toFixed(1)}s`);

function Side({ s, href }: { s: { count: number; firstT: number | null }; href: string | null }) {
  const text = `${fmtCount(s.count)} · ${fmtT(s.firstT)}`;
  return <td className="mono">{href ? <Link href={href}>{text}</Link> : text}</td>;
}

/** The section while the diff is read: its heading and "loading…". */
export function WhatChangedLoading() {
  return (
    <section className="panel" aria-labelledby="changed-loading-h" data-testid="what-changed-loading" data-status="loading" aria-busy="true">
      <h2 id="changed-loading-h">What changed</h2>
      <p className="muted page-loading" role="status">
        loading…
      </p>
    </section>
  );
}

/** Reads the diff of boots `a` and `b` (ids) of incident `incidentId` and shows it, nothing when either is not its boot (server component, for a `Suspense`). */
export async function WhatChangedLoader(p: { incidentId: string; a: number; b: number }) {
  const diff = await getBootDiff({ incidentId: p.incidentId, a: p.a, b: p.b });
  return diff ? <WhatChanged diff={diff} /> : null;
}

export function WhatChanged({ diff }: { diff: TBootDiff }) {
  return (
    <section className="panel" aria-labelledby="changed-h" data-testid="what-changed" data-status="ready">
      <h2 id="changed-h">What changed</h2>
      <p className="muted small">
        A: {diff.a.node} boot {diff.a.bootKey.slice(0, 12)} · B: {diff.b.node} boot {diff.b.bootKey.slice(0, 12)}. Counts and the first event's T+ in each; a
        count opens that boot's timeline at its first event.
      </p>
      {diff.rows.length === 0 ? (
        <p className="muted">No template, kind, error class or component in one boot only, and no count more than twice the other.</p>
      ) : (
        <table className="pat-table small">
          <thead>
            <tr>
              <th>what</th>
              <th>change</th>
              <th>value</th>
              <th>A</th>
              <th>B</th>
            </tr>
          </thead>
          <tbody>
            {diff.rows.map((r) => (
              <tr key={`${r.dimension}\t${r.value}`} data-testid="changed-row" data-dimension={r.dimension}>
                <td>{DIM_LABELS[r.dimension]}</td>
                <td>{CHANGE_LABELS[r.change]}</td>
                <td className="mono pat-template">{r.value}</td>
                <Side s={r.a} href={r.hrefA} />
                <Side s={r.b} href={r.hrefB} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
