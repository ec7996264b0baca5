import { z } from "zod";
import { toCsv } from "@/lib/ask/csv";
import { CSV_ROW_LIMIT, ROW_LIMIT, runAsk, type AskResult } from "@/lib/ask/run-ask";
import { MAX_STATEMENT } from "@/lib/ask/statement";
import { getDb } from "@/lib/db/connection";
import { route } from "@/lib/http/errors";
import { paramsOf, queryOf } from "@/lib/http/params";
import { readJson } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const q = z.string().trim().min(1, "type a query, e.g. SELECT count(*) FROM events").max(MAX_STATEMENT);
const ZAskBody = z.object({ q });
const ZAskQuery = z.object({ q, download: z.enum(["1", "csv"]).optional() });

/** Longest cell of a JSON answer, in characters (the CSV has every cell whole). */
const MAX_CELL = 10_000;

function capped(r: AskResult): AskResult {
  const cut = (v: string | null) => (v !== null && v.length > MAX_CELL ? `${v.slice(0, MAX_CELL)}… (${v.length - MAX_CELL} more characters)` : v);
  return { ...r, rows: r.rows.map((row) => row.map(cut)) };
}

/**
 * `POST /api/incidents/:incidentId/sql` with `{ "q": "<one query>" }` → `AskResult`
 * (lib/ask/run-ask.ts): the first 1,000 rows, `truncated` when there were more. A query refused
 * or failed answers 400 with the reason in words (docs/sql.md).
 */
export const POST = route(async (req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const { incidentId } = await paramsOf(ctx);
  const body = ZAskBody.parse(await readJson(req, 64 * 1024));
  return Response.json(capped(await runAsk(await getDb(), { incidentId, sql: body.q, rowLimit: ROW_LIMIT })));
});

/**
 * `GET /api/incidents/:incidentId/sql?q=<query>[&download=1]`: the same answer as POST, or with
 * `download` the result as a CSV file (text/csv, up to 100,000 rows; a last line says when rows
 * were left out).
 */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const { incidentId } = await paramsOf(ctx);
  const p = ZAskQuery.parse(queryOf(req));
  const db = await getDb();
  if (!p.download) return Response.json(capped(await runAsk(db, { incidentId, sql: p.q, rowLimit: ROW_LIMIT })));
  const r = await runAsk(db, { incidentId, sql: p.q, rowLimit: CSV_ROW_LIMIT });
  const csv = toCsv(r) + (r.truncated ? `# only the first ${r.rowLimit} rows\r\n` : "");
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="bootline-${incidentId.replace(/[^\w-]/g, "")}-query.csv"`,
      "cache-control": "no-store",
    },
  });
});
