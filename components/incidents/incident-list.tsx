/** The incidents table of the home page, newest first. */
import Link from "next/link";
import type { TIncidentSummary } from "@/lib/incidents/list-incidents";
import { fmtUtc } from "@/lib/timeline/format";

export function IncidentList({ incidents }: { incidents: TIncidentSummary[] }) {
  if (incidents.length === 0)
    return <p className="muted">No incidents yet. Upload a node log bundle to start one.</p>;
  return (
    <table className="table" data-testid="incidents-table">
      <thead>
        <tr>
          <th>incident</th>
          <th>created (UTC)</th>
          <th className="num">nodes</th>
          <th className="num">bundles</th>
          <th className="num">findings</th>
        </tr>
      </thead>
      <tbody>
        {incidents.map((i) => (
          <tr key={i.id}>
            <td>
              <Link href={`/i/${encodeURIComponent(i.id)}`}>{i.title}</Link>
            </td>
            <td className="mono">{fmtUtc(i.createdAt, { ms: false })}</td>
            <td className="num">{i.nodes}</td>
            <td className="num">
              {i.bundles}
              {Object.entries(i.bundleStatus)
                .filter(([s]) => s !== "ready")
                .map(([s, n]) => (
                  <span key={s} className={`status status-${s} small`}>
                    {n} {s}
                  </span>
                ))}
            </td>
            <td className="num">{i.findings || ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
