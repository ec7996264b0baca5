"use client";
/**
 * The nodes a running bundle has found so far and where each is (parsing, parsed, detecting,
 * storing, stored: lib/ingest/live-status.ts `LiveNodeState`), from its live status
 * (`GET /api/bundles/:id`, polled once a second, shared with its progress bar). A bundle is stored
 * all at once, so its nodes and boots join the incident's table when it is ready.
 */
import { type TBundleStatus, useBundleStatusQuery } from "@/components/data/use-bundle-status-query";
import type { LiveNode } from "@/lib/ingest/live-status";

const STATE_WORDS: Record<LiveNode["state"], string> = {
  parsing: "parsing its logs",
  parsed: "parsed",
  detecting: "boots found, detectors running",
  storing: "storing events",
  stored: "stored (shown when the bundle is ready)",
};

function BundleNodes({ bundleId }: { bundleId: string }) {
  const q = useBundleStatusQuery(bundleId, 1000);
  const nodes = (q.data as (TBundleStatus & { nodes?: LiveNode[] }) | undefined)?.nodes ?? [];
  if (!nodes.length) {
    return (
      <li className="muted" data-testid="live-node-none">
        none yet{q.data ? ` (${q.data.status === "queued" ? "waiting to start" : q.data.phase})` : ""}
      </li>
    );
  }
  return (
    <>
      {nodes.map((n) => (
        <li key={`${bundleId}:${n.name}`} data-testid="live-node" data-node={n.name} data-state={n.state}>
          <span className="mono">{n.name}</span> <span className="muted">· {STATE_WORDS[n.state]}</span>
        </li>
      ))}
    </>
  );
}

/** The nodes of the running bundles `bundleIds`, in place of an empty nodes table. */
export function LiveNodes({ bundleIds }: { bundleIds: string[] }) {
  return (
    <div data-testid="live-nodes">
      <p className="muted">Nodes found so far (the table fills in once the bundle is stored):</p>
      <ul>
        {bundleIds.map((id) => (
          <BundleNodes key={id} bundleId={id} />
        ))}
      </ul>
    </div>
  );
}
