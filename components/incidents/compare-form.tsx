"use client";
/**
 * "Compare boots": the form the nodes table's checkboxes belong to (`form="compare-boots"`).
 * Opens `/i/:incidentId/compare?boots=<id>,<id>,…` with the checked boots (two or more).
 * Without JavaScript the form still works: the page also reads repeated `boot` keys.
 */
import { useRouter } from "next/navigation";
import { useState } from "react";
import { COMPARE_FORM_ID, comparePath } from "@/lib/view/compare-state";

export function CompareForm({ incidentId, allBootIds }: { incidentId: string; allBootIds: number[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      id={COMPARE_FORM_ID}
      className="compare-form"
      method="get"
      action={`/i/${encodeURIComponent(incidentId)}/compare`}
      onSubmit={(e) => {
        e.preventDefault();
        const ids = new FormData(e.currentTarget).getAll("boot").map(Number).filter(Number.isInteger);
        if (ids.length < 2) return setError("check two or more boots");
        setError(null);
        router.push(comparePath(incidentId, ids));
      }}
    >
      <button type="submit" className="btn small" data-testid="compare-selected">
        compare checked boots
      </button>
      {allBootIds.length >= 2 && (
        <a className="btn small" href={comparePath(incidentId, allBootIds)} data-testid="compare-all">
          compare {allBootIds.length === 2 ? "both" : `all ${allBootIds.length}`} boots
        </a>
      )}
      {error && (
        <span className="warn small" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
