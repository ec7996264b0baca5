/**
 * The machine-readable summary of an incident: the JSON that `npm run ingest -- --json`
 * prints and GET /api/incidents/:id/report serves (contract in docs/definitions.md "The
 * report"). Times are ISO 8601 UTC with ms;
 * offsets in seconds with 3 decimals. Arrays: files in upload order (bundle by bundle),
 * nodes by name, findings by node then start.
 */
import type { DbHandles } from "../db/connection";
import { countFailures, type FailureCount } from "./count-failures";
import { readPatternRows, bootSpans } from "./boot-patterns";
import { newInBoot } from "../patterns/new-in-boot";

/** Patterns listed per boot in the report (the most events first). */
export const REPORT_PATTERNS = 10;

/** A boot's pattern in the report: `firstT` seconds after T+0; `new` when the node's previous boot did not log it (false without a previous boot). */
export interface ReportPattern {
  template: string;
  count: number;
  firstT: number | null;
  new: boolean;
}

export interface ReportFile {
  path: string;
  bundleId: string;
  status: string;
  reason?: string;
  duplicateOf?: string;
  kind: string;
  format: string;
  node: string | null;
  lines: number;
  parsed: number;
  blank: number;
  skipped: number;
  records: number;
  /** records with a time of their own: a stamp, or seconds since boot */
  timed: number;
  /** records whose time was counted back from a relative age (`5m`) and the collection or upload time */
  aged: number;
  /** records with no time at all (kept, on no boot) */
  untimed: number;
  /** records without a UTC time: `untimed` and those whose own time is seconds since boot only */
  noTimestamp: number;
  continuation: number;
  banner: number;
  outOfOrder: number;
  skippedByReason: Record<string, number>;
  timeZone: string;
  /** where the zone came from: banner | collector | user | default */
  zoneSource: string;
  yearSource: string | null;
  /** clock offset applied to the file's times, ms (estimated skew or the bundle's `skew` option) */
  clockOffsetMs: number;
  /** secrets replaced before storage, per kind (lib/redact/redact.ts), e.g. `{ jwt: 2 }`; `{}` when none */
  redacted: Record<string, number>;
}

export interface IncidentReport {
  incidentId: string;
  title: string;
  /** `collector`: the collectors that made the upload (lib/bundle/collectors.ts names, comma-separated), null for plain logs */
  bundles: Array<{
    id: string;
    fileName: string;
    status: string;
    error: string | null;
    collector: string | null;
    /** the same upload (sha256) was already in the incident as this bundle: not ingested again */
    duplicateOf?: string;
  }>;
  files: ReportFile[];
  /**
   * `nameSource`: `logs` (a log, a path or the node option named it), `upload` (nothing did: named
   * after the upload, "not named by the logs"), `reviewer` (renamed by hand)
   */
  nodes: Array<{
    name: string;
    aliases: string[];
    nameSource: string;
    /** `failures`: failure lines of the boot by kind and error class, most lines first (lib/incidents/count-failures.ts) */
    boots: Array<{
      id: string;
      start: string;
      end: string | null;
      detectedBy: string;
      approximate: boolean;
      failures: Array<Omit<FailureCount, "nodeId" | "bootId">>;
      /** the boot's message templates with the most events (`REPORT_PATTERNS`; lib/patterns) */
      patterns: ReportPattern[];
    }>;
  }>;
  findings: Array<{
    detector: string;
    node: string;
    bootId: string;
    bootStart: string;
    start: string;
    end: string | null;
    severity: string;
    title: string;
    explanation: string;
    metrics: Record<string, unknown>;
    evidence: string[];
  }>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Builds the report; throws when the incident does not exist. */
export async function getIncidentReport(db: DbHandles, incidentId: string): Promise<IncidentReport> {
  const inc = await db.prisma.incident.findUniqueOrThrow({
    where: { id: incidentId },
    include: {
      bundles: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], include: { files: { orderBy: { ord: "asc" } } } },
      nodes: { orderBy: { name: "asc" }, include: { boots: { orderBy: { start: "asc" } } } },
      findings: { include: { node: true, boot: true } },
    },
  });
  const failures = new Map<number, Array<Omit<FailureCount, "nodeId" | "bootId">>>();
  for (const { nodeId: _n, bootId, ...f } of await countFailures(db, incidentId)) {
    const list = failures.get(bootId) ?? [];
    list.push(f);
    failures.set(bootId, list);
  }
  const [spans, patternRows] = await Promise.all([bootSpans(db, incidentId), readPatternRows(db, incidentId)]);
  const patterns = new Map<number, ReportPattern[]>();
  for (const b of spans) {
    const fresh = newInBoot(b, spans, patternRows);
    const previous = fresh.baseline.kind === "previous";
    patterns.set(
      b.id,
      fresh.patterns.slice(0, REPORT_PATTERNS).map((p) => ({ template: p.template, count: p.count, firstT: p.firstT, new: previous && p.new })),
    );
  }
  const files: ReportFile[] = inc.bundles.flatMap((b) =>
    b.files.map((f) => {
      const r: ReportFile = {
        path: f.path,
        bundleId: b.id,
        status: f.status,
        kind: f.kind,
        format: f.format,
        node: f.nodeName,
        lines: f.lines,
        parsed: f.parsed,
        blank: f.blank,
        skipped: f.skipped,
        records: f.records,
        timed: f.records - f.noTimestamp - f.aged + f.sinceBoot,
        aged: f.aged,
        untimed: f.noTimestamp - f.sinceBoot,
        noTimestamp: f.noTimestamp,
        continuation: f.continuation,
        banner: f.banner,
        outOfOrder: f.outOfOrder,
        skippedByReason: Object.fromEntries(Object.entries((f.skippedByReason ?? {}) as Record<string, number>).filter(([, n]) => n > 0)),
        timeZone: f.timeZone,
        zoneSource: f.zoneSource,
        yearSource: f.yearSource,
        clockOffsetMs: f.clockOffsetMs,
        redacted: (f.redacted ?? {}) as Record<string, number>,
      };
      if (f.reason) r.reason = f.reason;
      if (f.duplicateOf) r.duplicateOf = f.duplicateOf;
      return r;
    }),
  );
  const findings = inc.findings
    .map((f) => ({
      detector: f.detector,
      node: f.node.name,
      bootId: f.boot.bootKey,
      bootStart: iso(f.boot.start)!,
      start: iso(f.start)!,
      end: iso(f.end),
      severity: f.severity,
      title: f.title,
      explanation: f.explanation,
      metrics: f.metrics as Record<string, unknown>,
      evidence: f.evidence.map(String),
    }))
    .sort((a, b) => a.node.localeCompare(b.node) || a.start.localeCompare(b.start) || a.detector.localeCompare(b.detector));
  return {
    incidentId: inc.id,
    title: inc.title,
    bundles: inc.bundles.map((b) => ({
      id: b.id,
      fileName: b.fileName,
      status: b.status,
      error: b.error,
      collector: b.collector ?? null,
      ...(b.duplicateOf ? { duplicateOf: b.duplicateOf } : {}),
    })),
    files,
    nodes: inc.nodes.map((n) => ({
      name: n.name,
      aliases: n.aliases ?? [],
      nameSource: n.nameSource,
      boots: n.boots.map((b) => ({
        id: b.bootKey,
        start: iso(b.start)!,
        end: iso(b.end),
        detectedBy: b.detectedBy,
        approximate: b.startApprox,
        failures: failures.get(b.id) ?? [],
        patterns: patterns.get(b.id) ?? [],
      })),
    })),
    findings,
  };
}
