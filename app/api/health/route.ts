import { getDb } from "@/lib/db/connection";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Liveness and database check: `{ ok, backend }`; 503 with `{ ok: false, error }` (a plain sentence:
 * the database's own message, which may name hosts or paths, goes to the server log) when the
 * database does not answer.
 */
export async function GET() {
  try {
    const db = await getDb();
    await db.sql.query("SELECT 1");
    return Response.json({ ok: true, backend: db.backend, app: "bootline" });
  } catch (e) {
    console.error("health: the database does not answer:", e);
    return Response.json({ ok: false, error: "the database does not answer" }, { status: 503 });
  }
}
