import Link from "next/link";

export default function NotFound() {
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
