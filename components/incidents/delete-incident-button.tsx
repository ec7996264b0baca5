"use client";
/**
 * "Delete incident": asks first, then DELETE /api/incidents/:id (the incident and all its
 * data), then `onDeleted` (the incident list refreshes itself) or, without it, goes back to the
 * incident list. `compact`: a short "delete" labelled with the incident's title (a table row).
 */
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/components/data/fetch-json";
import { queryKeys } from "@/components/data/query-keys";

export function DeleteIncidentButton(p: { incidentId: string; title: string; compact?: boolean; onDeleted?: () => void }) {
  const qc = useQueryClient();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = async () => {
    if (!window.confirm(`Delete incident "${p.title}" and all its bundles, events and findings? This cannot be undone.`)) return;
    setBusy(true);
    setError(null);
    try {
      await fetchJson(`/api/incidents/${encodeURIComponent(p.incidentId)}`, { method: "DELETE" });
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      if (p.onDeleted) return p.onDeleted();
      router.push("/");
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <span>
      <button
        type="button"
        className="btn small danger"
        data-testid="delete-incident"
        onClick={onClick}
        disabled={busy}
        aria-label={p.compact ? `delete incident ${p.title}` : undefined}
      >
        {busy ? "deleting…" : p.compact ? "delete" : "delete incident"}
      </button>
      {error && (
        <span className="bad small" role="alert">
          {" "}
          {error}
        </span>
      )}
    </span>
  );
}
