import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache, Suspense } from "react";
import { HealthyBoots } from "@/components/findings/healthy-boots";
import { BootHeader } from "@/components/timeline/boot-header";
import { TimelineView } from "@/components/timeline/timeline-view";
import { timelineOpenGraph } from "@/lib/export/open-graph";
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";
import { getBootChecks } from "@/lib/incidents/boot-checks";
import type { TNodeSummary } from "@/lib/incidents/get-incident";
import { publicOrigin } from "@/lib/http/public-origin";
import { getBootView, nodeNameByAlias, type TBootView } from "@/lib/queries/get-boot-view";
import { bootPath, parseViewState } from "@/lib/view/view-state";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Params = Promise<{ incidentId: string; node: string; bootKey: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Next may hand over path segments still percent-encoded; decode once, tolerating stray `%`. */
const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The boot view, or the node's current name when `node` is one of its old names or aliases. */
const load = cache(async (incidentId: string, node: string, bootKey: string) => {
  try {
    return { view: await getBootView({ incidentId, node: decode(node), bootKey: decode(bootKey) }) };
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") {
      const current = await nodeNameByAlias({ incidentId, alias: decode(node) }).catch(() => null);
      if (current) return { movedTo: current };
    }
    if (e instanceof ApiError && (e.code === "not_found" || e.code === "bad_request")) notFound();
    throw e;
  }
});

/** The view, or a redirect to the same boot under the node's current name (old permalinks keep working). */
async function viewOrRedirect(p: Awaited<Params>, searchParams: SearchParams) {
  const r = await load(p.incidentId, p.node, p.bootKey);
  if ("view" in r && r.view) return r.view;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) qs.append(k, x);
  const q = qs.toString();
  redirect(`${bootPath(p.incidentId, r.movedTo!, decode(p.bootKey))}${q ? `?${q}` : ""}`);
}

/** Title, and Open Graph / Twitter card facts so a pasted permalink unfurls with a picture of the view. */
export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const v = await viewOrRedirect(await params, searchParams);
  const og = timelineOpenGraph(v, parseViewState(await searchParams), publicOrigin(await headers()));
  const image = { url: og.image, width: 1200, height: 630, alt: og.imageAlt, type: "image/png" };
  return {
    title: `${v.node.name} boot ${v.boot.index}/${v.boot.count} · ${v.incident.title} · bootline`,
    description: og.description,
    openGraph: { type: "website", siteName: "bootline", title: og.title, description: og.description, url: og.url, images: [image] },
    twitter: { card: "summary_large_image", title: og.title, description: og.description, images: [og.image] },
  };
}

/**
 * What was checked on a boot with no findings and found fine, as on the incident page: this
 * boot only (the node's other boots are in the list with a finding, so HealthyBoots skips
 * them, and "boot i of n" still counts them all).
 */
async function healthyBoot(view: TBootView) {
  if (view.findings.length) return null;
  const checks = await getBootChecks(await getDb(), view.incident.id);
  const node: TNodeSummary = {
    id: view.node.id,
    name: view.node.name,
    aliases: view.node.aliases,
    nameSource: view.node.nameSource,
    boots: view.boots.map((b) => {
      const self = b.bootKey === view.boot.bootKey;
      return {
        id: self ? view.boot.id : -b.index,
        bootKey: b.bootKey,
        startMs: b.startMs,
        endMs: self ? view.boot.endMs : null,
        detectedBy: self ? view.boot.detectedBy : "",
        startApprox: self ? view.boot.startApprox : false,
        index: b.index,
        findings: self ? 0 : 1,
      };
    }),
  };
  return <HealthyBoots incidentId={view.incident.id} nodes={[node]} checks={checks} showNode={false} />;
}

/** Node boot timeline: `/i/:incidentId/n/:node/b/:bootKey?from&to&lanes&sev&q&ev`. */
export default async function BootPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const view = await viewOrRedirect(await params, searchParams);
  const healthy = await healthyBoot(view);
  return (
    <>
      <BootHeader view={view} />
      <Suspense fallback={<p className="muted">loading timeline…</p>}>
        <TimelineView view={view} healthy={healthy} />
      </Suspense>
    </>
  );
}
