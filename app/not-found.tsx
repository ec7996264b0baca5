import Link from "next/link";
import { connection } from "next/server";

export default async function NotFound() {
  // rendered per request, so its scripts carry the Content-Security-Policy nonce (proxy.ts)
  await connection();
  return (
    <section className="panel">
      <h1>Not found</h1>
      <p className="muted">No such incident, node or boot. The link may be mistyped, or the incident was deleted.</p>
      <p>
        <Link href="/">Back to the incidents</Link>
      </p>
    </section>
  );
}
