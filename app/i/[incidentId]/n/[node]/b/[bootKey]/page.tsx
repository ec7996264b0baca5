import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache, Suspense } from "react";
import { BootHeader } from "@/components/timeline/boot-header";
import { TimelineView } from "@/components/timeline/timeline-view";
import { ApiError } from "@/lib/http/errors";
import { getBootView } from "@/lib/timeline/get-boot-view";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Params = Promise<{ incidentId: string; node: string; bootKey: string }>;

/** Next may hand over path segments still percent-encoded; decode once, tolerating stray `%`. */
const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const load = cache(async (incidentId: string, node: string, bootKey: string) => {
  try {
    return await getBootView({ incidentId, node: decode(node), bootKey: decode(bootKey) });
  } catch (e) {
    if (e instanceof ApiError && (e.code === "not_found" || e.code === "bad_request")) notFound();
    throw e;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const p = await params;
  const v = await load(p.incidentId, p.node, p.bootKey);
  return { title: `${v.node.name} boot ${v.boot.index}/${v.boot.count} · ${v.incident.title} · bootline` };
}

/** Node boot timeline: `/i/:incidentId/n/:node/b/:bootKey?from&to&lanes&sev&q&ev`. */
export default async function BootPage({ params }: { params: Params }) {
  const p = await params;
  const view = await load(p.incidentId, p.node, p.bootKey);
  return (
    <>
      <BootHeader view={view} />
      <Suspense fallback={<p className="muted">loading timeline…</p>}>
        <TimelineView view={view} />
      </Suspense>
    </>
  );
}
