/**
 * One incident with everything its page shows: nodes and their boots, findings (most
 * severe first), and bundles with their per-file accounting. Times are UTC ms.
 */
import type { UnreadPattern } from "../patterns/unread";
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";
import { findingSeverityRank } from "@/lib/view/lanes";

export interface TBootSummary {
  id: number;
  bootKey: string;
  /** T+0, UTC ms */
  startMs: number;
  /** the boot's last event, UTC ms */
  endMs: number | null;
  /** separator | boot-id | kubelet-start | runtime-start | first-event */
  detectedBy: string;
  startApprox: boolean;
  /** 1-based position among the node's boots by start */
  index: number;
  findings: number;
}

export interface TNodeSummary {
  id: number;
  name: string;
  aliases: string[];
  /** where the name came from: `logs`, `upload` (made from the upload's file name: not named by the logs) or `reviewer` (absent: `logs`) */
  nameSource?: string;
  boots: TBootSummary[];
}

export interface TFindingView {
  id: number;
  detector: string;
  /** info | low | medium | high | critical */
  severity: string;
  nodeName: string;
  bootKey: string;
  /** T+0 of the finding's boot, UTC ms */
  bootStartMs: number;
  startMs: number;
  /** null: still open at the end of the data */
  endMs: number | null;
  title: string;
  explanation: string;
  metrics: Record<string, unknown>;
  evidenceCount: number;
}

export interface TSourceFileView {
  id: number;
  ord: number;
  path: string;
  /** read | skipped | duplicate */
  status: string;
  reason: string | null;
  duplicateOf: string | null;
  kind: string;
  format: string;
  nodeName: string | null;
  byteSize: number;
  lines: number;
  parsed: number;
  blank: number;
  skipped: number;
  records: number;
  noTimestamp: number;
  /** records whose time was counted back from a relative age */
  aged: number;
  /** of `noTimestamp`, records whose own time is seconds since boot */
  sinceBoot: number;
  continuation: number;
  banner: number;
  outOfOrder: number;
  skippedByReason: Record<string, number>;
  firstTs: number | null;
  lastTs: number | null;
  clockOffsetMs: number;
  timeZone: string;
  zoneSource: string;
  yearSource: string | null;
  /** secrets replaced before storage, per kind (lib/redact/redact.ts) */
  redacted: Record<string, number>;
  /** the templates of the lines no format read, most frequent first (lib/patterns/unread.ts) */
  unreadPatterns: UnreadPattern[];
}

export interface TBundleView {
  id: string;
  fileName: string;
  byteSize: number;
  /** queued | parsing | ready | failed */
  status: string;
  phase: string;
  progress: number;
  error: string | null;
  collector: string | null;
  options: Record<string, unknown>;
  counts: Record<string, unknown>;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  files: TSourceFileView[];
  /** the same upload was already in the incident as this bundle: not ingested again */
  duplicateOf: string | null;
}

export interface TIncidentDetail {
  id: string;
  title: string;
  createdAt: number;
  notes: string | null;
  nodes: TNodeSummary[];
  findings: TFindingView[];
  bundles: TBundleView[];
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const ms = (d: Date | null | undefined) => (d ? d.getTime() : null);

/** Loads the incident; throws `ApiError("not_found")` when there is none with that id. */
export async function getIncident(opts: { incidentId: string }): Promise<TIncidentDetail> {
  const { prisma } = await getDb();
  const inc = await prisma.incident.findUnique({
    where: { id: opts.incidentId },
    include: {
      nodes: {
        orderBy: { name: "asc" },
        include: { boots: { orderBy: [{ start: "asc" }, { id: "asc" }], include: { _count: { select: { findings: true } } } } },
      },
      findings: { include: { node: { select: { name: true } }, boot: { select: { bootKey: true, start: true } } } },
      bundles: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], include: { files: { orderBy: [{ ord: "asc" }, { id: "asc" }] } } },
    },
  });
  if (!inc) throw new ApiError("not_found", "incident not found");

  const findings: TFindingView[] = inc.findings
    .map((f) => ({
      id: f.id,
      detector: f.detector,
      severity: f.severity,
      nodeName: f.node.name,
      bootKey: f.boot.bootKey,
      bootStartMs: f.boot.start.getTime(),
      startMs: f.start.getTime(),
      endMs: ms(f.end),
      title: f.title,
      explanation: f.explanation,
      metrics: obj(f.metrics),
      evidenceCount: f.evidence.length,
    }))
    .sort(
      (a, b) =>
        findingSeverityRank(a.severity) - findingSeverityRank(b.severity) || a.nodeName.localeCompare(b.nodeName) || a.startMs - b.startMs || a.id - b.id,
    );

  return {
    id: inc.id,
    title: inc.title,
    createdAt: inc.createdAt.getTime(),
    notes: inc.notes,
    nodes: inc.nodes.map((n) => ({
      id: n.id,
      name: n.name,
      aliases: n.aliases,
      nameSource: n.nameSource,
      boots: n.boots.map((b, i) => ({
        id: b.id,
        bootKey: b.bootKey,
        startMs: b.start.getTime(),
        endMs: ms(b.end),
        detectedBy: b.detectedBy,
        startApprox: b.startApprox,
        index: i + 1,
        findings: b._count.findings,
      })),
    })),
    findings,
    bundles: inc.bundles.map((b) => ({
      id: b.id,
      fileName: b.fileName,
      byteSize: Number(b.byteSize),
      status: b.status,
      phase: b.phase,
      progress: b.progress,
      error: b.error,
      collector: b.collector,
      options: obj(b.options),
      counts: obj(b.counts),
      createdAt: b.createdAt.getTime(),
      startedAt: ms(b.startedAt),
      finishedAt: ms(b.finishedAt),
      files: b.files.map((f) => ({
        id: f.id,
        ord: f.ord,
        path: f.path,
        status: f.status,
        reason: f.reason,
        duplicateOf: f.duplicateOf,
        kind: f.kind,
        format: f.format,
        nodeName: f.nodeName,
        byteSize: Number(f.byteSize),
        lines: f.lines,
        parsed: f.parsed,
        blank: f.blank,
        skipped: f.skipped,
        records: f.records,
        noTimestamp: f.noTimestamp,
        aged: f.aged,
        sinceBoot: f.sinceBoot,
        continuation: f.continuation,
        banner: f.banner,
        outOfOrder: f.outOfOrder,
        skippedByReason: Object.fromEntries(Object.entries(obj(f.skippedByReason)).map(([k, v]) => [k, Number(v) || 0])),
        firstTs: ms(f.firstTs),
        lastTs: ms(f.lastTs),
        clockOffsetMs: f.clockOffsetMs,
        timeZone: f.timeZone,
        zoneSource: f.zoneSource,
        yearSource: f.yearSource,
        redacted: Object.fromEntries(Object.entries(obj(f.redacted)).map(([k, v]) => [k, Number(v) || 0])),
        unreadPatterns: unreadOf(f.unreadPatterns),
      })),
      duplicateOf: b.duplicateOf ?? null,
    })),
  };
}

/** A file's stored unread templates (`SourceFile.unreadPatterns`, JSON), [] for none or a value not of that shape. */
function unreadOf(text: string | null): UnreadPattern[] {
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v)
      ? v.filter((p): p is UnreadPattern => !!p && typeof p.template === "string" && typeof p.count === "number" && typeof p.firstLine === "number")
      : [];
  } catch {
    return [];
  }
}
