import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { FindingItem } from "@/components/findings/finding-item";
import { FindingFilter } from "@/components/findings/finding-filter";
import { FindingList } from "@/components/findings/finding-list";
import { HealthyBoots } from "@/components/findings/healthy-boots";
import { BundleFiles } from "@/components/incidents/bundle-files";
import { DeleteIncidentButton } from "@/components/incidents/delete-incident-button";
import { CompareForm } from "@/components/incidents/compare-form";
import { NodesBoots } from "@/components/incidents/nodes-boots";
import { NewInBoots } from "@/components/incidents/new-in-boots";
import { newInBootsSummary } from "@/lib/incidents/boot-patterns";
import { IncidentSearch } from "@/components/search/incident-search";
import { ApiError } from "@/lib/http/errors";
import { plural } from "@/lib/detect/numbers";
import { getDb } from "@/lib/db/connection";
import { getBootChecks } from "@/lib/incidents/boot-checks";
import { bundleWarnings } from "@/lib/incidents/bundle-warnings";
import { getIncident, type TBundleView, type TFindingView, type TNodeSummary } from "@/lib/incidents/get-incident";
import { windowAttempts } from "@/lib/view/boot-sort";
import { filterFindings, findingFilterOptions, foldedCounts, parseFindingFilter } from "@/lib/view/finding-groups";
import { FINDING_SEVERITIES } from "@/lib/view/lanes";
import { fmtUtc } from "@/lib/view/format";
import { bootPath, findingView } from "@/lib/view/view-state";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Params = Promise<{ incidentId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const load = cache(async (incidentId: string) => {
  try {
    return await getIncident({ incidentId });
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") notFound();
    throw e;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const inc = await load((await params).incidentId);
  return { title: `${inc.title} · bootline` };
}

/** Incident page: nodes and boots, findings by severity, bundles and their files. */
export default async function IncidentPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const inc = await load((await params).incidentId);
  const sp = await searchParams;
  const filter = parseFindingFilter({ det: sp.det, sev: sp.sev });
  const shown = filterFindings(inc.findings, filter);
  const options = findingFilterOptions(inc.findings, filter, FINDING_SEVERITIES);
  const parsing = inc.bundles.some((b) => b.status !== "ready" && b.status !== "failed");
  const checks = parsing ? new Map() : await getBootChecks(await getDb(), inc.id);
  const fresh = parsing ? new Map() : await newInBootsSummary(await getDb(), inc.id);
  return (
    <>
      <header className="page-head">
        <nav className="crumbs" aria-label="breadcrumbs">
          <Link href="/">bootline</Link>
          <span>/</span>
          <span>incident</span>
        </nav>
        <h1 data-testid="incident-title">{inc.title}</h1>
        <div className="boot-facts muted">
          <span>created {fmtUtc(inc.createdAt, { ms: false })} UTC</span>
          <span>
            id <span className="mono">{inc.id}</span>
          </span>
          <span>
            {inc.nodes.length} node{inc.nodes.length === 1 ? "" : "s"} · {inc.bundles.length} bundle{inc.bundles.length === 1 ? "" : "s"} ·{" "}
            {inc.findings.length} finding{inc.findings.length === 1 ? "" : "s"}
          </span>
          <Link className="btn small" href={`/?incident=${encodeURIComponent(inc.id)}#upload`}>
            add logs to this incident
          </Link>
          <a
            className="btn small"
            href={`/api/incidents/${encodeURIComponent(inc.id)}/export.md?download=1`}
            download
            data-testid="export-md"
            title="postmortem summary: nodes, boots, findings with permalinks, notes"
          >
            export Markdown
          </a>
          <Link
            className="btn small"
            href={`/i/${encodeURIComponent(inc.id)}/sql`}
            data-testid="sql-link"
            title="read-only SQL over this incident's events, boots, findings and patterns"
          >
            ask the data (SQL)
          </Link>
          <DeleteIncidentButton incidentId={inc.id} title={inc.title} />
        </div>
        {inc.notes && <p>{inc.notes}</p>}
        <BundleWarningsNotice bundles={inc.bundles} />
      </header>

      <section className="panel" aria-labelledby="search-h">
        <h2 id="search-h">Search</h2>
        <IncidentSearch incidentId={inc.id} />
      </section>

      <section className="panel" aria-labelledby="nodes-h">
        <h2 id="nodes-h">Nodes and boots</h2>
        <NodesBoots
          incidentId={inc.id}
          nodes={inc.nodes}
          folded={foldedByBoot(inc)}
          attempts={attemptsByBoot(inc)}
          running={inc.bundles.filter((b) => b.status !== "ready" && b.status !== "failed").map((b) => b.id)}
        />
        {inc.nodes.reduce((n, x) => n + x.boots.length, 0) >= 2 && (
          <CompareForm incidentId={inc.id} allBootIds={inc.nodes.flatMap((n) => n.boots.map((b) => b.id)).slice(0, 8)} />
        )}
      </section>

      {fresh.size > 0 && (
        <section className="panel" aria-labelledby="new-h">
          <h2 id="new-h">New in this boot</h2>
          <NewInBoots incidentId={inc.id} nodes={inc.nodes} summary={fresh} />
        </section>
      )}

      <section className="panel" aria-labelledby="findings-h">
        <h2 id="findings-h">Findings</h2>
        {inc.findings.length === 0 ? (
          <p className="muted">{parsing ? "No findings yet: still parsing." : "No findings."}</p>
        ) : (
          <FindingFilter detectors={options.detectors} severities={options.severities} shown={shown.length} total={inc.findings.length}>
            {shown.length > 0 && (
              <FindingList
                findings={shown}
                showNode
                item={(f) => (
                  <FindingItem
                    f={f}
                    showNode
                    incidentId={inc.id}
                    actions={
                      <Link className="btn small" href={bootPath(inc.id, f.nodeName, f.bootKey, findingView(f))}>
                        open in timeline →
                      </Link>
                    }
                  />
                )}
              />
            )}
          </FindingFilter>
        )}
        {!parsing && <HealthyBoots incidentId={inc.id} nodes={inc.nodes} checks={checks} showNode={inc.nodes.length > 1} />}
      </section>

      <section aria-labelledby="bundles-h">
        <h2 id="bundles-h">Bundles</h2>
        {inc.bundles.length === 0 && <p className="muted">No bundles.</p>}
        {inc.bundles.map((b) => (
          <BundleFiles key={b.id} b={b} />
        ))}
      </section>
    </>
  );
}

/** Per boot id, its folded findings counted with their parts ("1 storm, 550 pods"). */
function foldedByBoot(inc: { nodes: TNodeSummary[]; findings: TFindingView[] }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of inc.nodes)
    for (const b of n.boots) {
      const text = foldedCounts(inc.findings.filter((f) => f.nodeName === n.name && f.bootKey === b.bootKey));
      if (text) out[b.id] = text;
    }
  return out;
}

/** Per boot id, failed sandbox attempts in its failure windows (boots without any left out). */
function attemptsByBoot(inc: { nodes: TNodeSummary[]; findings: TFindingView[] }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of inc.nodes)
    for (const b of n.boots) {
      const a = windowAttempts(inc.findings.filter((f) => f.nodeName === n.name && f.bootKey === b.bootKey));
      if (a) out[b.id] = a;
    }
  return out;
}

/** Near the top of the page: which bundles were stored with warnings (the details are in each bundle, below). */
function BundleWarningsNotice({ bundles }: { bundles: TBundleView[] }) {
  const warned = bundles.map((b) => ({ b, n: bundleWarnings(b).length })).filter((x) => x.n > 0);
  if (!warned.length) return null;
  return (
    <p className="warn-box" data-testid="incident-warnings">
      Stored with warnings (log files lost or read in part, log lines not parsed, events on no node):{" "}
      {warned.map(({ b, n }, i) => (
        <span key={b.id}>
          {i > 0 && ", "}
          <a href={`#bundle-${b.id}`} className="mono">
            {b.fileName}
          </a>{" "}
          ({plural(n, "warning")})
        </span>
      ))}
    </p>
  );
}
