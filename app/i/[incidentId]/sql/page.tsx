import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AskPanel } from "@/components/ask/ask-panel";
import { ASK_EXAMPLES, ASK_VIEWS } from "@/lib/ask/ask-views";
import { getDb } from "@/lib/db/connection";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Params = Promise<{ incidentId: string }>;

async function incident(incidentId: string): Promise<{ id: string; title: string }> {
  const { sql } = await getDb();
  const [row] = await sql.query<{ id: string; title: string }>(`SELECT id, title FROM "Incident" WHERE id = $1`, [incidentId]);
  if (!row) notFound();
  return row;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const inc = await incident((await params).incidentId);
  return { title: `SQL · ${inc.title} · bootline` };
}

/** "Ask the data": read-only SQL over the incident's views (docs/sql.md), their columns beside the editor. */
export default async function SqlPage({ params }: { params: Params }) {
  const inc = await incident((await params).incidentId);
  const href = `/i/${encodeURIComponent(inc.id)}`;
  return (
    <>
      <header className="page-head">
        <nav className="crumbs" aria-label="breadcrumbs">
          <Link href="/">bootline</Link>
          <span>/</span>
          <Link href={href}>{inc.title}</Link>
          <span>/</span>
          <span>SQL</span>
        </nav>
        <h1>Ask the data</h1>
        <p className="muted small">
          One read-only query at a time over this incident's views (PostgreSQL SQL). Other incidents and the app's tables are out of reach; a query has a time
          limit.
        </p>
      </header>
      <section className="panel">
        <AskPanel incidentId={inc.id} examples={ASK_EXAMPLES} />
      </section>
      <section className="panel" aria-label="views and columns" data-testid="sql-views">
        <h2>Views</h2>
        {ASK_VIEWS.map((v) => (
          <details key={v.name}>
            <summary>
              <span className="mono">{v.name}</span> <span className="muted small">{v.about}</span>
            </summary>
            <table className="table">
              <tbody>
                {v.columns.map((c) => (
                  <tr key={c.name}>
                    <td className="mono">{c.name}</td>
                    <td className="mono muted">{c.type}</td>
                    <td>{c.about}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        ))}
      </section>
    </>
  );
}
