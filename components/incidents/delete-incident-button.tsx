"use client";
/**
 * "Delete incident": asks first, then DELETE /api/incidents/:id (the incident and all its
 * data) and goes back to the incident list.
 */
import { useRouter } from "next/navigation";
import { useState } from "react";
import { fetchJson } from "@/components/data/fetch-json";

export function DeleteIncidentButton(p: { incidentId: string; title: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = async () => {
    if (!window.confirm(`Delete incident "${p.title}" and all its bundles, events and findings? This cannot be undone.`)) return;
    setBusy(true);
    setError(null);
    try {
      await fetchJson(`/api/incidents/${encodeURIComponent(p.incidentId)}`, { method: "DELETE" });
      router.push("/");
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <span>
      <button type="button" className="btn small danger" data-testid="delete-incident" onClick={onClick} disabled={busy}>
        {busy ? "deleting…" : "delete incident"}
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
