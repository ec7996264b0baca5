import { route } from "@/lib/http/errors";
import { listIncidents } from "@/lib/incidents/list-incidents";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET /api/incidents` → `TIncidentSummary[]`, newest first. */
export const GET = route(async () => Response.json(await listIncidents()));
