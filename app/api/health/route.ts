import { getDb } from "@/lib/db/connection";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Liveness and database check: `{ ok, backend }`, 503 when the database does not answer. */
export async function GET() {
  try {
    const db = await getDb();
    await db.sql.query("SELECT 1");
    return Response.json({ ok: true, backend: db.backend, app: "bootline" });
  } catch (e) {
    return Response.json({ ok: false, error: (e as Error).message }, { status: 503 });
  }
}
