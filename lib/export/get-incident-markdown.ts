/**
 * Loads an incident, its notes and the messages of the events they are pinned to, the
 * warnings of its bundles and what was checked on each boot, and renders the postmortem Markdown (lib/export/markdown.ts) with permalinks on `origin`.
 * `ApiError("not_found")` when there is no such incident.
 */
import { listAnnotations } from "@/lib/annotations/list-annotations";
import { getDb } from "@/lib/db/connection";
import { getBootChecks } from "@/lib/incidents/boot-checks";
import { bundleWarnings } from "@/lib/incidents/bundle-warnings";
import { getIncident } from "@/lib/incidents/get-incident";
import { renderIncidentMarkdown, type TMarkdownNote } from "./markdown";

export async function getIncidentMarkdown(opts: { incidentId: string; origin: string; now?: number }): Promise<{ title: string; markdown: string }> {
  const inc = await getIncident({ incidentId: opts.incidentId });
  const notes = await listAnnotations({ incidentId: inc.id });
  const eventIds = [...new Set(notes.map((a) => a.eventId).filter((x): x is string => x !== null))];
  const messages = new Map<string, string>();
  if (eventIds.length) {
    const { sql } = await getDb();
    const rows = await sql.query<{ id: string; message: string }>(
      `SELECT id::text AS id, left(message, 2000) AS message FROM "Event" WHERE "incidentId" = $1 AND id = ANY($2::bigint[])`,
      [inc.id, eventIds],
    );
    for (const r of rows) messages.set(r.id, r.message);
  }
  const bootById = new Map(inc.nodes.flatMap((n) => n.boots.map((b) => [b.id, { nodeName: n.name, bootKey: b.bootKey }] as const)));
  const withBoot: TMarkdownNote[] = notes.flatMap((a) => {
    const b = bootById.get(a.bootId);
    return b ? [{ ...a, ...b, eventMessage: a.eventId ? (messages.get(a.eventId) ?? null) : null }] : [];
  });
  // notes by node, then boot start, then time
  const order = new Map(inc.nodes.flatMap((n, ni) => n.boots.map((b) => [b.id, ni * 1e6 + b.index] as const)));
  withBoot.sort((x, y) => (order.get(x.bootId) ?? 0) - (order.get(y.bootId) ?? 0) || x.ts - y.ts || x.id - y.id);
  const markdown = renderIncidentMarkdown({
    origin: opts.origin,
    exportedAt: opts.now ?? Date.now(),
    incident: { id: inc.id, title: inc.title, createdAt: inc.createdAt, notes: inc.notes },
    nodes: inc.nodes,
    findings: inc.findings,
    notes: withBoot,
    checks: await getBootChecks(await getDb(), inc.id),
    warnings: inc.bundles.map((b) => ({ bundle: b.fileName, warnings: bundleWarnings(b).map((w) => w.text) })).filter((w) => w.warnings.length),
  });
  return { title: inc.title, markdown };
}
