/**
 * The storing half of ingest: writes an analysed bundle (files, nodes, boots, events via
 * COPY) and the findings of every boot it touched, all inside one transaction, so a
 * bundle's data is either all there or not at all (DESIGN.md "Pipeline").
 */
import type { BootEvent, BootInfo, EventKind, Lane } from "../detect/types";
import { runDetectors } from "../detect/index";
import { copyText, type SqlConn } from "../db/sql";
import type { AnalysedBundle } from "./analyse-bundle";
import type { Progress } from "./analyse-bundle";

const EVENT_COLUMNS = [
  "incidentId",
  "bundleId",
  "fileId",
  "nodeId",
  "bootId",
  "line",
  "span",
  "ts",
  "precision",
  "flags",
  "component",
  "lane",
  "severity",
  "kind",
  "pod",
  "sandboxId",
  "errorClass",
  "message",
  "fields",
];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface StoreResult {
  events: number;
  /** database ids of the boots this bundle added events to */
  bootIds: number[];
}

/** Writes files, nodes, boots and events. Call inside `db.transaction`. */
export async function storeBundle(tx: SqlConn, incidentId: string, bundleId: string, a: AnalysedBundle, progress: Progress = () => {}): Promise<StoreResult> {
  // nodes and their boots
  const nodeIds = new Map<string, number>();
  const bootIds = new Map<string, number[]>(); // node -> boot db ids by index
  for (const [name, boots] of a.nodes) {
    const [n] = await tx.query<{ id: number }>(
      `INSERT INTO "Node" ("incidentId", name) VALUES ($1, $2)
       ON CONFLICT ("incidentId", name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [incidentId, name],
    );
    nodeIds.set(name, n.id);
    const ids: number[] = [];
    for (const b of boots) {
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO "Boot" ("incidentId", "nodeId", "bootKey", start, "end", "detectedBy", "startApprox")
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT ("nodeId", "bootKey") DO UPDATE SET
           start = LEAST("Boot".start, EXCLUDED.start),
           "end" = GREATEST("Boot"."end", EXCLUDED."end")
         RETURNING id`,
        [incidentId, n.id, b.bootKey, iso(b.start), iso(b.end), b.detectedBy, b.startApprox],
      );
      ids.push(row.id);
    }
    bootIds.set(name, ids);
  }

  // files, in upload order
  const fileIds: number[] = [];
  for (const f of a.files) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO "SourceFile" ("bundleId", "incidentId", ord, path, status, reason, "duplicateOf", kind, format, "nodeName",
         "byteSize", lines, parsed, blank, skipped, records, "noTimestamp", continuation, banner, "outOfOrder",
         "skippedByReason", "firstTs", "lastTs", "timeZone", "zoneSource", "yearSource")
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26) RETURNING id`,
      [
        bundleId,
        incidentId,
        f.ord,
        f.path,
        f.status,
        f.reason ?? (f.errors.length ? f.errors.map((e) => (e.line ? `line ${e.line}: ${e.message}` : e.message)).join("; ").slice(0, 2000) : null),
        f.duplicateOf,
        f.kind,
        f.format,
        f.node,
        f.byteSize,
        f.counts.lines,
        f.counts.parsed,
        f.counts.blank,
        f.counts.skipped,
        f.counts.records,
        f.counts.noTimestamp,
        f.counts.continuation,
        f.counts.banner,
        f.counts.outOfOrder,
        JSON.stringify(f.counts.skippedByReason),
        iso(f.firstTs),
        iso(f.lastTs),
        f.timeZone,
        f.zoneSource,
        f.yearSource,
      ],
    );
    fileIds.push(row.id);
  }

  // source text in gzip blocks (bytea as hex in COPY text format)
  function* blockRows(): Generator<string> {
    for (let i = 0; i < a.files.length; i++) {
      const f = a.files[i];
      const fileId = fileIds[i];
      let buf = "";
      f.blocks.forEach((b, seq) => {
        buf += `${fileId}\t${seq}\t${b.firstLine}\t${b.lineCount}\t\\\\x${b.gz.toString("hex")}\n`;
      });
      if (buf) yield buf;
    }
  }
  await tx.copyFrom("SourceBlock", ["fileId", "seq", "firstLine", "lineCount", "data"], blockRows());

  // events through COPY, in chunks of rows
  const total = a.events.length || 1;
  let sent = 0;
  function* rows(): Generator<string> {
    const CHUNK = 2000;
    let buf = "";
    let n = 0;
    for (const e of a.events) {
      const nodeId = e.node ? (nodeIds.get(e.node) ?? null) : null;
      const bootId = e.node && e.boot !== null ? (bootIds.get(e.node)?.[e.boot] ?? null) : null;
      buf +=
        `${incidentId}\t${bundleId}\t${fileIds[e.fileIdx]}\t${copyText(nodeId)}\t${copyText(bootId)}\t${e.line}\t${e.span}\t${copyText(iso(e.ts))}\t` +
        `${e.precision}\t${e.flags}\t${copyText(e.component)}\t${e.lane}\t${e.severity}\t${e.kind}\t${copyText(e.pod)}\t` +
        `${copyText(e.sandboxId)}\t${copyText(e.errorClass)}\t${copyText(e.message)}\t${copyText(e.fields ? JSON.stringify(e.fields) : null)}\n`;
      if (++n === CHUNK) {
        sent += n;
        progress("store", sent / total);
        yield buf;
        buf = "";
        n = 0;
      }
    }
    if (buf) yield buf;
  }
  const copied = await tx.copyFrom("Event", EVENT_COLUMNS, rows());
  progress("store", 1);
  const touched = new Set<number>();
  for (const e of a.events) if (e.node && e.boot !== null) touched.add(bootIds.get(e.node)![e.boot]);
  return { events: copied, bootIds: [...touched].sort((x, y) => x - y) };
}

interface EventRow {
  id: string;
  ts: Date | null;
  fileId: number;
  line: number;
  component: string;
  lane: Lane;
  severity: number;
  kind: EventKind;
  pod: string | null;
  sandboxId: string | null;
  errorClass: string | null;
  message: string;
  fields: Record<string, unknown> | null;
}

/**
 * Re-runs every detector on each boot in `bootIds` over all of that boot's stored events
 * (so adding a bundle to an incident updates the findings of the boots it touched) and
 * replaces their findings. Events of kind `log` carry no signal for any detector and are
 * not loaded. Returns the number of findings stored and the detectors that failed.
 */
export async function detectFindings(tx: SqlConn, bootIds: number[]): Promise<{ findings: number; failures: string[] }> {
  let stored = 0;
  const failures: string[] = [];
  for (const bootId of bootIds) {
    const [b] = await tx.query<{ id: number; incidentId: string; nodeId: number; bootKey: string; start: Date; end: Date | null; name: string }>(
      `SELECT b.id, b."incidentId", b."nodeId", b."bootKey", b.start, b."end", n.name
       FROM "Boot" b JOIN "Node" n ON n.id = b."nodeId" WHERE b.id = $1`,
      [bootId],
    );
    if (!b) continue;
    const rows = await tx.query<EventRow>(
      `SELECT id::text AS id, ts, "fileId", line, component, lane, severity, kind, pod, "sandboxId", "errorClass", message, fields
       FROM "Event" WHERE "bootId" = $1 AND kind <> 'log'
       ORDER BY ts ASC NULLS LAST, "fileId", line`,
      [bootId],
    );
    const events: BootEvent[] = rows.map((r) => {
      const k8s = (r.fields?.k8s ?? null) as { reason: string; count: number; firstMs: number | null; lastMs: number | null } | null;
      return {
        id: Number(r.id),
        ts: r.ts ? new Date(r.ts).getTime() : null,
        fileId: r.fileId,
        line: r.line,
        component: r.component,
        lane: r.lane,
        severity: r.severity,
        kind: r.kind,
        pod: r.pod,
        sandboxId: r.sandboxId,
        errorClass: r.errorClass,
        message: r.message,
        k8s: k8s ? { reason: k8s.reason, count: k8s.count, firstMs: k8s.firstMs, lastMs: k8s.lastMs } : null,
        fields: null,
      };
    });
    const boot: BootInfo = { node: b.name, bootKey: b.bootKey, start: new Date(b.start).getTime(), end: b.end ? new Date(b.end).getTime() : null };
    const result = runDetectors(boot, events);
    failures.push(...result.errors.map((e) => `${e.detector} on ${b.name} boot ${b.bootKey}: ${e.message}`));
    await tx.query(`DELETE FROM "Finding" WHERE "bootId" = $1`, [bootId]);
    for (const f of result.findings) {
      await tx.query(
        `INSERT INTO "Finding" ("incidentId", "nodeId", "bootId", detector, severity, start, "end", title, explanation, metrics, evidence)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::bigint[])`,
        [b.incidentId, b.nodeId, b.id, f.detector, f.severity, iso(f.start), iso(f.end), f.title, f.explanation, JSON.stringify(f.metrics), f.evidence.map(String)],
      );
      stored++;
    }
  }
  return { findings: stored, failures };
}
