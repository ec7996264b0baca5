"use client";
/**
 * The incidents table of the home page, newest first. Starts from the server's list and asks
 * `GET /api/incidents` again whenever it mounts (coming back to the page, Back included), when
 * the page is restored from the browser's back-forward cache, when the window regains focus,
 * and after an upload or a delete invalidates `queryKeys.incidents()`. Each row can be deleted
 * (after a confirm).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import { fetchJson } from "@/components/data/fetch-json";
import { queryKeys } from "@/components/data/query-keys";
import type { TIncidentSummary } from "@/lib/incidents/list-incidents";
import { fmtUtc } from "@/lib/view/format";
import { DeleteIncidentButton } from "./delete-incident-button";

export function IncidentList({ incidents }: { incidents: TIncidentSummary[] }) {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: queryKeys.incidents(),
    queryFn: ({ signal }) => fetchJson<TIncidentSummary[]>("/api/incidents", { signal }),
    initialData: incidents,
    initialDataUpdatedAt: 0,
    refetchOnMount: "always",
    refetchOnWindowFocus: true,
  });
  useEffect(() => {
    // a page restored from the back-forward cache runs no mount: ask again
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, [qc]);
  const list = q.data;
  if (list.length === 0) return <p className="muted">No incidents yet. Upload a node log bundle to start one.</p>;
  return (
    <table className="table" data-testid="incidents-table">
      <thead>
        <tr>
          <th scope="col">incident</th>
          <th scope="col">created (UTC)</th>
          <th scope="col" className="num">
            nodes
          </th>
          <th scope="col" className="num">
            bundles
          </th>
          <th scope="col" className="num">
            findings
          </th>
          <th scope="col">
            <span className="sr-only">actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((i) => (
          <tr key={i.id} data-testid="incident-row">
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
            <td className="num">
              <DeleteIncidentButton
                incidentId={i.id}
                title={i.title}
                compact
                onDeleted={() => void qc.invalidateQueries({ queryKey: queryKeys.incidents() })}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
