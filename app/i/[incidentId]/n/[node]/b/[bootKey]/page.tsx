import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache, Suspense } from "react";
import { BootHeader } from "@/components/timeline/boot-header";
import { TimelineView } from "@/components/timeline/timeline-view";
import { timelineOpenGraph } from "@/lib/export/open-graph";
import { ApiError } from "@/lib/http/errors";
import { publicOrigin } from "@/lib/http/public-origin";
import { getBootView, nodeNameByAlias } from "@/lib/timeline/get-boot-view";
import { bootPath, parseViewState } from "@/lib/timeline/view-state";

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

/** Node boot timeline: `/i/:incidentId/n/:node/b/:bootKey?from&to&lanes&sev&q&ev`. */
export default async function BootPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const view = await viewOrRedirect(await params, searchParams);
  return (
    <>
      <BootHeader view={view} />
      <Suspense fallback={<p className="muted">loading timeline…</p>}>
        <TimelineView view={view} />
      </Suspense>
    </>
  );
}
