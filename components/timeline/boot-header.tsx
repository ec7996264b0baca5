/**
 * Header of the node boot page: breadcrumbs (incident, node, boot N of M), T+0 as UTC
 * wall clock, how the boot was detected, clock offsets applied, and links to the node's
 * other boots; the "not named by the logs" mark when the node was named after the upload.
 * Server-rendered.
 */
import Link from "next/link";
import { NodeNameMark } from "@/components/incidents/node-name-mark";
import type { TBootView } from "@/lib/queries/get-boot-view";
import { fmtUtc } from "@/lib/view/format";
import { bootPath } from "@/lib/view/view-state";

const DETECTED_BY: Record<string, string> = {
  separator: "journal boot separator",
  "boot-id": "journal boot id",
  "kubelet-start": "kubelet start after silence",
  "runtime-start": "runtime start after silence",
  "first-event": "first event (approximate)",
};

export function BootHeader({ view }: { view: TBootView }) {
  const { incident, node, boot, boots } = view;
  const prev = boots[boot.index - 2];
  const next = boots[boot.index];
  const journal = /^[0-9a-f]{32}$/.test(boot.bootKey);
  return (
    <header className="page-head">
      <a href="#events" className="skip-link" data-testid="skip-to-events">
        Skip to the events table
      </a>
      <nav className="crumbs" aria-label="breadcrumbs">
        <Link href="/">bootline</Link>
        <span>/</span>
        <Link href={`/i/${encodeURIComponent(incident.id)}`} data-testid="crumb-incident">
          incident “{incident.title}”
        </Link>
        <span>/</span>
        <span className="mono" data-testid="crumb-node">
          {node.name}
        </span>
        <NodeNameMark nameSource={node.nameSource} />
        <span>/</span>
        <span data-testid="crumb-boot">
          boot {boot.index} of {boot.count}
        </span>
        <span className="boot-nav">
          {prev ? (
            <Link href={bootPath(incident.id, node.name, prev.bootKey)} className="btn small" title={`boot ${prev.index}: ${fmtUtc(prev.startMs)} UTC`}>
              ← boot {prev.index}
            </Link>
          ) : null}
          {next ? (
            <Link href={bootPath(incident.id, node.name, next.bootKey)} className="btn small" title={`boot ${next.index}: ${fmtUtc(next.startMs)} UTC`}>
              boot {next.index} →
            </Link>
          ) : null}
        </span>
      </nav>
      <h1 className="sr-only">
        Timeline of {node.name}, boot {boot.index} of {boot.count}
      </h1>
      <div className="boot-facts">
        <span>
          T+0{" "}
          <b className="mono" data-testid="boot-t0">
            {fmtUtc(boot.startMs)} UTC
          </b>
          {boot.startApprox && (
            <span className="warn" title="no kernel start or boot separator: the boot's earliest event">
              {" "}
              (approximate)
            </span>
          )}
        </span>
        <span className="muted">
          {journal ? (
            <>
              journal boot{" "}
              <span className="mono" title={boot.bootKey}>
                {boot.bootKey.slice(0, 8)}…
              </span>
            </>
          ) : (
            <span className="mono">{boot.bootKey}</span>
          )}{" "}
          · detected by {DETECTED_BY[boot.detectedBy] ?? boot.detectedBy}
        </span>
        {boot.endMs !== null && <span className="muted">last event {fmtUtc(boot.endMs)} UTC</span>}
        {view.clock.length > 0 && (
          <span className="muted" title={view.clock.map((c) => `${c.path}: ${c.clockOffsetMs} ms, zone ${c.timeZone} (${c.zoneSource})`).join("\n")}>
            clock:{" "}
            {view.clock
              .slice(0, 3)
              .map(
                (c) =>
                  `${c.path.split("/").pop()} ${c.clockOffsetMs ? `${c.clockOffsetMs > 0 ? "+" : ""}${(c.clockOffsetMs / 1000).toFixed(1)} s` : c.timeZone}`,
              )
              .join(", ")}
            {view.clock.length > 3 ? ` +${view.clock.length - 3} more` : ""} applied
          </span>
        )}
      </div>
    </header>
  );
}
