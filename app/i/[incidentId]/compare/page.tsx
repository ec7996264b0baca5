import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache, Suspense } from "react";
import { CompareView } from "@/components/compare/compare-view";
import { ApiError } from "@/lib/http/errors";
import { parseCompareState } from "@/lib/view/compare-state";
import { getCompareView } from "@/lib/queries/get-compare-view";
import { WhatChangedLoader, WhatChangedLoading } from "@/components/compare/what-changed";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Params = Promise<{ incidentId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const load = cache(async (incidentId: string, bootIds: string) => {
  try {
    return await getCompareView({ incidentId, bootIds: bootIds ? bootIds.split(",").map(Number) : [] });
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") notFound();
    throw e;
  }
});

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const v = await load((await params).incidentId, parseCompareState(await searchParams).boots.join(","));
  return { title: `compare ${v.boots.length} boots · ${v.incident.title} · bootline` };
}

/** Compare: `/i/:incidentId/compare?boots=<id>,<id>,…[&from&to][&lanes]` (from/to in T+ seconds). */
export default async function ComparePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const incidentId = (await params).incidentId;
  const state = parseCompareState(await searchParams);
  const view = await load(incidentId, state.boots.join(","));
  return (
    <>
      <header className="page-head">
        <nav className="crumbs" aria-label="breadcrumbs">
          <Link href="/">bootline</Link>
          <span>/</span>
          <Link href={`/i/${encodeURIComponent(view.incident.id)}`} data-testid="crumb-incident">
            incident “{view.incident.title}”
          </Link>
          <span>/</span>
          <span>compare boots</span>
        </nav>
        <h1 data-testid="compare-title">
          {view.boots.length} boot{view.boots.length === 1 ? "" : "s"} compared, each from its own T+0
        </h1>
        {view.missing.length > 0 && (
          <p className="warn small" data-testid="compare-missing">
            not boots of this incident: {view.missing.join(", ")}
          </p>
        )}
        {view.boots.length < 2 && (
          <p className="muted">
            Pick two or more boots on the <Link href={`/i/${encodeURIComponent(view.incident.id)}`}>incident page</Link> to compare them.
          </p>
        )}
      </header>
      {view.boots.length > 0 && (
        <Suspense
          fallback={
            <p className="muted page-loading" role="status" aria-busy="true" data-testid="compare-loading">
              loading…
            </p>
          }
        >
          <CompareView view={view} />
        </Suspense>
      )}
      {view.boots.length >= 2 && (
        <Suspense fallback={<WhatChangedLoading />}>
          <WhatChangedLoader incidentId={view.incident.id} a={view.boots[0].id} b={view.boots[1].id} />
        </Suspense>
      )}
    </>
  );
}
