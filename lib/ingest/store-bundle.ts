/**
 * The storing half of ingest: writes an analysed bundle (files, source blocks, nodes,
 * boots, events via COPY) and the findings of every boot it touched, inside the caller's
 * transaction, so a bundle's data is either all there or not at all (DESIGN.md "Pipeline").
 *
 * Event ids are reserved in one block from the `Event` id sequence (under an advisory
 * lock), so detectors run on the in-memory events and cite evidence by id without reading
 * the rows back. Only events of other bundles on the same boots are read from the store.
 */
import type { BootEvent, BootInfo, EventKind, Lane } from "../detect/types";
import { runDetectors } from "../detect/index";
import { copyText, type SqlConn } from "../db/sql";
import type { AnalysedBundle, AnalysedEvent, Progress } from "./analyse-bundle";
import { fileReason } from "./file-reason";

const EVENT_COLUMNS = [
  "id",
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

/** Rows per COPY chunk handed to the driver. */
const COPY_CHUNK_ROWS = 4000;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface StoreResult {
  events: number;
  /** boots this bundle added events to: database id -> what detectors need */
  boots: Map<number, { info: BootInfo; events: BootEvent[] }>;
}

/** Reserves `n` consecutive ids of the Event sequence; returns the first. */
async function reserveEventIds(tx: SqlConn, n: number): Promise<number> {
  // every writer of Event goes through here; the lock makes nextval + setval one step
  await tx.query(`SELECT pg_advisory_xact_lock(72707370)`);
  const [r] = await tx.query<{ first: string }>(
    `SELECT nextval(pg_get_serial_sequence('"Event"', 'id'))::text AS first`,
  );
  const first = Number(r.first);
  if (n > 1) await tx.query(`SELECT setval(pg_get_serial_sequence('"Event"', 'id'), $1)`, [first + n - 1]);
  return first;
}

/** What detectors see of an analysed event (`fields` are not passed: detectors read `k8s` only). */
export function toBootEvent(e: AnalysedEvent, id: number, fileId: number): BootEvent {
  const k8s = e.fields?.k8s as { reason: string; count: number; firstMs: number | null; lastMs: number | null } | undefined;
  return {
    id,
    ts: e.ts,
    fileId,
    line: e.line,
    component: e.component,
    lane: e.lane,
    severity: e.severity,
    kind: e.kind,
    pod: e.pod,
    sandboxId: e.sandboxId,
    errorClass: e.errorClass,
    message: e.message,
    k8s: k8s ? { reason: k8s.reason, count: k8s.count, firstMs: k8s.firstMs, lastMs: k8s.lastMs } : null,
    fields: null,
  };
}

/** Writes files, blocks, nodes, boots and events. Call inside `db.transaction`. */
export async function storeBundle(tx: SqlConn, incidentId: string, bundleId: string, a: AnalysedBundle, progress: Progress = () => {}): Promise<StoreResult> {
  // nodes and their boots
  const nodeIds = new Map<string, number>();
  const bootIds = new Map<string, number[]>(); // node -> boot db ids by index
  const boots = new Map<number, { info: BootInfo; events: BootEvent[] }>();
  for (const [name, list] of a.nodes) {
    const [n] = await tx.query<{ id: number }>(
      `INSERT INTO "Node" ("incidentId", name, aliases) VALUES ($1, $2, $3)
       ON CONFLICT ("incidentId", name) DO UPDATE SET
         aliases = ARRAY(SELECT DISTINCT unnest("Node".aliases || EXCLUDED.aliases) ORDER BY 1)
       RETURNING id`,
      [incidentId, name, a.aliases?.get(name) ?? []],
    );
    nodeIds.set(name, n.id);
    const ids: number[] = [];
    for (const b of list) {
      const [row] = await tx.query<{ id: number; start: Date; end: Date | null }>(
        `INSERT INTO "Boot" ("incidentId", "nodeId", "bootKey", start, "end", "detectedBy", "startApprox")
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT ("nodeId", "bootKey") DO UPDATE SET
           start = LEAST("Boot".start, EXCLUDED.start),
           "end" = GREATEST("Boot"."end", EXCLUDED."end")
         RETURNING id, start, "end"`,
        [incidentId, n.id, b.bootKey, iso(b.start), iso(b.end), b.detectedBy, b.startApprox],
      );
      ids.push(row.id);
      boots.set(row.id, {
        info: { node: name, bootKey: b.bootKey, start: new Date(row.start).getTime(), end: row.end ? new Date(row.end).getTime() : null },
        events: [],
      });
    }
    bootIds.set(name, ids);
  }

  // files, in upload order
  const fileIds: number[] = [];
  for (const f of a.files) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO "SourceFile" ("bundleId", "incidentId", ord, path, status, reason, "duplicateOf", kind, format, "nodeName",
         "byteSize", lines, parsed, blank, skipped, records, "noTimestamp", continuation, banner, "outOfOrder",
         "skippedByReason", "firstTs", "lastTs", "timeZone", "zoneSource", "yearSource", "clockOffsetMs")
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27) RETURNING id`,
      [
        bundleId,
        incidentId,
        f.ord,
        f.path,
        f.status,
        fileReason(f),
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
        f.clockOffsetMs ?? 0,
      ],
    );
    fileIds.push(row.id);
  }

  // source text in gzip blocks (bytea as hex in COPY text format)
  function* blockRows(): Generator<string> {
    for (let i = 0; i < a.files.length; i++) {
      let buf = "";
      a.files[i].blocks.forEach((b, seq) => {
        buf += `${fileIds[i]}\t${seq}\t${b.firstLine}\t${b.lineCount}\t\\\\x${b.gz.toString("hex")}\n`;
      });
      if (buf) yield buf;
    }
  }
  await tx.copyFrom("SourceBlock", ["fileId", "seq", "firstLine", "lineCount", "data"], blockRows());

  // events through COPY with reserved ids; signal events also go to their boot's list
  const first = a.events.length ? await reserveEventIds(tx, a.events.length) : 0;
  const total = a.events.length || 1;
  function* rows(): Generator<string> {
    let buf = "";
    let n = 0;
    for (let i = 0; i < a.events.length; i++) {
      const e = a.events[i];
      const id = first + i;
      const fileId = fileIds[e.fileIdx];
      const nodeId = e.node ? (nodeIds.get(e.node) ?? null) : null;
      const bootId = e.node && e.boot !== null ? (bootIds.get(e.node)?.[e.boot] ?? null) : null;
      if (bootId !== null && e.kind !== "log") boots.get(bootId)!.events.push(toBootEvent(e, id, fileId));
      buf +=
        `${id}\t${incidentId}\t${bundleId}\t${fileId}\t${copyText(nodeId)}\t${copyText(bootId)}\t${e.line}\t${e.span}\t${copyText(iso(e.ts))}\t` +
        `${e.precision}\t${e.flags}\t${copyText(e.component)}\t${e.lane}\t${e.severity}\t${e.kind}\t${copyText(e.pod)}\t` +
        `${copyText(e.sandboxId)}\t${copyText(e.errorClass)}\t${copyText(e.message)}\t${copyText(e.fields ? JSON.stringify(e.fields) : null)}\n`;
      if (++n === COPY_CHUNK_ROWS) {
        progress("store", (i + 1) / total);
        yield buf;
        buf = "";
        n = 0;
      }
    }
    if (buf) yield buf;
  }
  const copied = await tx.copyFrom("Event", EVENT_COLUMNS, rows());

  // the per-second rollup the timeline histogram reads (EventDensity)
  const density = new Map<string, [number, number]>();
  for (const e of a.events) {
    if (e.ts === null || !e.node || e.boot === null) continue;
    const key = `${bootIds.get(e.node)![e.boot]}\t${Math.floor(e.ts / 1000)}\t${e.lane}`;
    const d = density.get(key);
    if (d) {
      d[0]++;
      if (e.severity >= 3) d[1]++;
    } else density.set(key, [1, e.severity >= 3 ? 1 : 0]);
  }
  function* densityRows(): Generator<string> {
    let buf = "";
    let n = 0;
    for (const [key, [count, errors]] of density) {
      buf += `${key}\t${bundleId}\t${count}\t${errors}\n`;
      if (++n === COPY_CHUNK_ROWS) {
        yield buf;
        buf = "";
        n = 0;
      }
    }
    if (buf) yield buf;
  }
  await tx.copyFrom("EventDensity", ["bootId", "sec", "lane", "bundleId", "n", "errors"], densityRows());
  progress("store", 1);
  return { events: copied, boots };
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
  fields: string | null;
}

/**
 * Runs every detector on each boot the bundle touched and replaces that boot's findings.
 * A boot's events are this bundle's signal events (in memory) plus the signal events other
 * bundles stored on the same boot (read back: adding a bundle to an incident updates the
 * findings of the boots it touched). Events of kind `log` carry no signal for any detector.
 * Returns the number of findings stored and the detectors that failed.
 */
export async function detectFindings(tx: SqlConn, incidentId: string, bundleId: string, boots: StoreResult["boots"]): Promise<{ findings: number; failures: string[] }> {
  let stored = 0;
  const failures: string[] = [];
  for (const [bootId, { info, events }] of [...boots].sort((x, y) => x[0] - y[0])) {
    const others = await tx.query<EventRow>(
      `SELECT id::text AS id, ts, "fileId", line, component, lane, severity, kind, pod, "sandboxId", "errorClass", message, fields
       FROM "Event" WHERE "incidentId" = $1 AND "bootId" = $2 AND kind <> 'log' AND "bundleId" <> $3`,
      [incidentId, bootId, bundleId],
    );
    const all = events.concat(
      others.map((r) => {
        const k8s = r.fields ? (JSON.parse(r.fields) as { k8s?: BootEvent["k8s"] }).k8s ?? null : null;
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
          k8s,
          fields: null,
        };
      }),
    );
    const [nb] = await tx.query<{ nodeId: number }>(`SELECT "nodeId" FROM "Boot" WHERE id = $1`, [bootId]);
    const result = runDetectors(info, all);
    failures.push(...result.errors.map((e) => `${e.detector} on ${info.node} boot ${info.bootKey}: ${e.message}`));
    await tx.query(`DELETE FROM "Finding" WHERE "bootId" = $1`, [bootId]);
    if (result.findings.length) {
      // one statement per boot (a busy boot has hundreds of per-pod findings)
      await tx.query(
        `INSERT INTO "Finding" ("incidentId", "nodeId", "bootId", detector, severity, start, "end", title, explanation, metrics, evidence)
         SELECT $1, $2, $3, f.detector, f.severity, f.start, f."end", f.title, f.explanation, f.metrics,
                ARRAY(SELECT jsonb_array_elements_text(f.evidence)::bigint)
         FROM jsonb_to_recordset($4::jsonb) AS f(detector text, severity text, start timestamptz, "end" timestamptz,
                                                 title text, explanation text, metrics jsonb, evidence jsonb)`,
        [
          incidentId,
          nb.nodeId,
          bootId,
          JSON.stringify(
            result.findings.map((f) => ({
              detector: f.detector,
              severity: f.severity,
              start: iso(f.start),
              end: iso(f.end),
              title: f.title,
              explanation: f.explanation,
              metrics: f.metrics,
              evidence: f.evidence,
            })),
          ),
        ],
      );
      stored += result.findings.length;
    }
  }
  return { findings: stored, failures };
}
