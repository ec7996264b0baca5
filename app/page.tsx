import { IncidentList } from "@/components/incidents/incident-list";
import { UploadPanel } from "@/components/upload/upload-panel";
import { listIncidents } from "@/lib/incidents/list-incidents";
import { ZIncidentId } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Home: the upload panel and the incidents list. `?incident=<id>` preselects "add to". */
export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const incidents = await listIncidents({ limit: 200 });
  const pre = ZIncidentId.safeParse(Array.isArray(sp.incident) ? sp.incident[0] : sp.incident).data ?? null;
  return (
    <div className="home">
      <h1 className="sr-only">bootline: reboot incidents</h1>
      <UploadPanel incidents={incidents.map((i) => ({ id: i.id, title: i.title }))} defaultIncidentId={pre} />
      <section className="panel" aria-labelledby="incidents-h">
        <h2 id="incidents-h">Incidents</h2>
        <IncidentList incidents={incidents} />
      </section>
    </div>
  );
}
