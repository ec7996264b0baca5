/**
 * The postmortem summary of an incident as Markdown (a reviewer pastes findings into a
 * postmortem): the incident, its nodes and boots (a node
 * named after the upload marked "not named by the logs"), the findings with their numbers,
 * the reasons they are approximate when they are (`metrics.approximate`), and an absolute
 * permalink each (the finding's window with its evidence highlighted), and the reviewers'
 * notes. Pure: data in, text out.
 *
 * Everything that comes from the logs or from people (titles, node names, explanations
 * quoting pods and errors, notes, event messages) goes through lib/export/escape.ts: log
 * text is literal Markdown text or a code span, never markup, HTML or a link. Links are
 * built here from ids and times only.
 */
import type { TAnnotation } from "@/lib/annotations/annotation";
import type { TFindingView, TNodeSummary } from "@/lib/incidents/get-incident";
import { plural } from "@/lib/detect/numbers";
import { causeOfFinding, type Cause } from "@/lib/causes/causes";
import { bootCheckPhrases, CHECKED_BY, type TBootCheck } from "@/lib/incidents/boot-checks";
import { fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import { bootPath, findingView, type TViewState } from "@/lib/view/view-state";
import { escapeMarkdown, markdownCode, markdownLink, markdownTableCell } from "./escape";
import { metricLines, partTable, partsCount } from "./finding-metrics";

export interface TMarkdownNote extends TAnnotation {
  nodeName: string;
  bootKey: string;
  /** the pinned event's message (as stored), when the note is pinned to an event */
  eventMessage: string | null;
}

export interface TMarkdownIncident {
  /** scheme, host and port the permalinks point at: `https://bootline.example` */
  origin: string;
  /** UTC ms */
  exportedAt: number;
  incident: { id: string; title: string; createdAt: number; notes: string | null };
  nodes: TNodeSummary[];
  /** most severe first (the incident page's order) */
  findings: TFindingView[];
  notes: TMarkdownNote[];
  /** per boot id: what was checked on it (lib/incidents/boot-checks.ts); boots with no finding list it under "Checked and found fine" */
  checks?: Map<number, TBootCheck>;
  /** per bundle with warnings (lib/incidents/bundle-warnings.ts): its file name and their texts; none: no section */
  warnings?: Array<{ bundle: string; warnings: string[] }>;
}

/** What the "not named by the logs" mark means, under the nodes table. */
const UNNAMED_NOTE =
  "not named by the logs: none of the node's log lines named a node, so it was named after the uploaded file; rename it on the incident page, or upload again with the node name option set.";

/** Longest event message quoted under a note. */
const NOTE_MESSAGE_MAX = 300;

const DETECTED_BY: Record<string, string> = {
  separator: "journal boot separator",
  "boot-id": "journal boot id",
  "kubelet-start": "kubelet start after silence",
  "runtime-start": "runtime start after silence",
  "first-event": "first event (approximate)",
};

/** A folded finding's parts (a storm's pods) as one table under the finding, nothing without parts. */
function partsMd(f: TFindingView): string[] {
  const t = partTable(f.metrics);
  if (!t) return [];
  const right = (numeric: boolean) => (numeric ? "---:" : "---");
  return [
    `**${escapeMarkdown(partsCount(f.metrics) ?? "")}:**`,
    "",
    `| ${t.columns.map((c) => markdownTableCell(c.label)).join(" | ")} |`,
    `|${t.columns.map((c) => right(c.numeric)).join("|")}|`,
    ...t.rows.map((r) => `| ${r.cells.map((c) => (c.code ? markdownCode(c.text) : markdownTableCell(c.text))).join(" | ")} |`),
    "",
  ];
}

/** One metric value: quoted log text (error classes, pods, paths) as a code span, numbers and words as text. */
const metricValueMd = (text: string, code: boolean) => (code ? markdownCode(text) : escapeMarkdown(text));

/**
 * A finding's metrics as a nested list under "Numbers" (lib/export/finding-metrics.ts: labels in
 * words, units, not-applicable ones left out), a list value as a list one level deeper.
 */
function numbersMd(f: TFindingView): string[] {
  const lines = metricLines(f.detector, f.metrics);
  if (!lines.length) return [];
  const out = ["- **Numbers:**"];
  for (const l of lines) {
    if (l.items) {
      out.push(`  - ${escapeMarkdown(l.label)}:`);
      for (const x of l.items) {
        // a "name: count" item keeps its name as code when the value is quoted from the logs
        const m = l.code ? /^(.*): (\d[\d,]*)$/.exec(x) : null;
        out.push(`    - ${m ? `${markdownCode(m[1])}: ${m[2]}` : metricValueMd(x, l.code)}`);
      }
    } else out.push(`  - ${escapeMarkdown(l.label)}: ${metricValueMd(l.text, l.code)}`);
  }
  return out;
}

/** What a known cause means, what to do next and its public reports and fixes (lib/causes/causes.ts); the table's text is Markdown already. */
function causeMd(cause: Cause): string[] {
  const out = [`- **Cause:** ${cause.title}. ${cause.meaning}`, "- **Next steps:**", ...cause.remediation.map((r, i) => `  ${i + 1}. ${r}`)];
  if (cause.refs.length) {
    out.push("- **Reports and fixes:**");
    for (const r of cause.refs)
      out.push(`  - ${r.kind === "fix" ? "fix" : r.kind === "docs" ? "guide" : "report"}: ${markdownLink(r.label, r.url)}, ${r.note}`);
  }
  return out;
}

export function renderIncidentMarkdown(m: TMarkdownIncident): string {
  const origin = m.origin.replace(/\/+$/, "");
  const abs = (path: string) => `${origin}${path}`;
  const inc = m.incident;
  const bootOf = new Map<string, { index: number; count: number; startMs: number }>();
  for (const n of m.nodes) for (const b of n.boots) bootOf.set(`${n.name}\u0000${b.bootKey}`, { index: b.index, count: n.boots.length, startMs: b.startMs });
  const bootLabel = (node: string, bootKey: string) => {
    const b = bootOf.get(`${node}\u0000${bootKey}`);
    return b ? `boot ${b.index} of ${b.count}` : "boot";
  };
  const boots = m.nodes.reduce((n, x) => n + x.boots.length, 0);
  const out: string[] = [];

  out.push(`# ${escapeMarkdown(inc.title)}`, "");
  out.push(`Reboot incident summary exported from bootline on ${fmtUtc(m.exportedAt, { ms: false })} UTC.`, "");
  out.push(`- **Incident:** ${markdownLink(inc.id, abs(`/i/${encodeURIComponent(inc.id)}`))}, created ${fmtUtc(inc.createdAt, { ms: false })} UTC`);
  out.push(
    `- **Scope:** ${plural(m.nodes.length, "node")}, ${plural(boots, "boot")}, ${plural(m.findings.length, "finding")}, ${plural(m.notes.length, "note")}`,
  );
  out.push("- **Times:** UTC wall clock, and T+ seconds since the boot's T+0");
  if (inc.notes) out.push("", escapeMarkdown(inc.notes));
  out.push("");

  out.push("## Nodes and boots", "");
  if (m.nodes.length === 0) out.push("No nodes: nothing was parsed into this incident.", "");
  else {
    out.push("| node | boot | T+0 (UTC) | last event (UTC) | span | detected by | findings | timeline |");
    out.push("|---|---|---|---|---:|---|---:|---|");
    for (const n of m.nodes) {
      const label = `${markdownTableCell(n.name)}${n.nameSource === "upload" ? " (not named by the logs)" : ""}`;
      for (const b of n.boots) {
        out.push(
          `| ${label} | ${b.index} of ${n.boots.length} ${markdownCode(b.bootKey)} | ${fmtUtc(b.startMs)}${b.startApprox ? " (approximate)" : ""} | ${
            b.endMs === null ? "—" : fmtUtc(b.endMs)
          } | ${b.endMs === null ? "—" : fmtDuration(b.endMs - b.startMs)} | ${markdownTableCell(DETECTED_BY[b.detectedBy] ?? b.detectedBy)} | ${b.findings} | ${markdownLink(
            "open",
            abs(bootPath(inc.id, n.name, b.bootKey)),
          )} |`,
        );
      }
    }
    out.push("");
    if (m.nodes.some((n) => n.nameSource === "upload")) out.push(`_${escapeMarkdown(UNNAMED_NOTE)}_`, "");
  }

  if (m.warnings?.length) {
    out.push("## Data warnings", "", "Log data the bundles lost or could not place; the timelines above lack it.", "");
    for (const w of m.warnings) for (const text of w.warnings) out.push(`- ${markdownCode(w.bundle)}: ${escapeMarkdown(text)}`);
    out.push("");
  }

  out.push("## Findings", "");
  if (m.findings.length === 0) out.push("No findings.", "");
  m.findings.forEach((f, i) => {
    out.push(`### ${i + 1}. ${f.severity.toUpperCase()} · ${escapeMarkdown(f.detector)} · ${escapeMarkdown(f.title)}`, "");
    out.push(
      `- **Where:** node ${markdownCode(f.nodeName)}, ${bootLabel(f.nodeName, f.bootKey)} (${markdownCode(f.bootKey)}), T+0 ${fmtUtc(f.bootStartMs)} UTC`,
    );
    const start = `${fmtUtc(f.startMs)} UTC (${fmtOffset(f.startMs, f.bootStartMs)})`;
    out.push(
      f.endMs === null
        ? `- **Window:** ${start} → still open at the end of the data`
        : `- **Window:** ${start} → ${fmtUtc(f.endMs)} UTC (${fmtOffset(f.endMs, f.bootStartMs)}), ${fmtDuration(f.endMs - f.startMs)}`,
    );
    out.push(...numbersMd(f));
    const approx = Array.isArray(f.metrics.approximate) ? f.metrics.approximate.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
    if (approx.length) out.push(`- **Approximate:** ${approx.map((r) => escapeMarkdown(r)).join("; ")}`);
    out.push(`- **Evidence:** ${plural(f.evidenceCount, "event")} cited`);
    out.push(`- **Permalink:** ${markdownLink("timeline at this window, evidence highlighted", abs(bootPath(inc.id, f.nodeName, f.bootKey, findingView(f))))}`);
    out.push(
      "",
      ...f.explanation
        .split(/\r?\n/)
        .filter((l) => l.trim())
        .map((l) => `> ${escapeMarkdown(l)}`),
      "",
    );
    out.push(...partsMd(f));
    const cause = causeOfFinding(f);
    if (cause) out.push(...causeMd(cause), "");
  });

  const healthy = m.checks ? m.nodes.flatMap((n) => n.boots.filter((b) => b.findings === 0).map((b) => ({ n, b }))) : [];
  if (healthy.length) {
    out.push("### Checked and found fine", "", `Checked on every boot: ${CHECKED_BY.join(", ")}.`, "");
    for (const { n, b } of healthy) {
      const { facts, milestones } = bootCheckPhrases(m.checks!.get(b.id), b.startMs);
      out.push(
        `- ${markdownCode(n.name)}, ${bootLabel(n.name, b.bootKey)}: ${facts.join("; ")}; milestones seen: ${milestones.length ? milestones.join(", ") : "none"}`,
      );
    }
    out.push("");
  }

  out.push("## Notes", "");
  if (m.notes.length === 0) out.push("No notes.", "");
  let group = "";
  for (const a of m.notes) {
    const key = `${a.nodeName}\u0000${a.bootKey}`;
    const b = bootOf.get(key);
    if (key !== group) {
      group = key;
      out.push(`### ${escapeMarkdown(a.nodeName)}, ${bootLabel(a.nodeName, a.bootKey)}`, "");
    }
    const when = b ? `${fmtOffset(a.ts, b.startMs)} · ${fmtUtc(a.ts)} UTC` : `${fmtUtc(a.ts)} UTC`;
    const view: Partial<TViewState> = { from: a.ts - 5000, to: a.ts + 5000, ...(a.eventId ? { ev: a.eventId } : {}) };
    const link = markdownLink(a.eventId ? `event ${a.eventId}` : "timeline", abs(bootPath(inc.id, a.nodeName, a.bootKey, view)));
    out.push(`- **${when}** (${link}): ${escapeMarkdown(a.text)}`);
    if (a.eventMessage !== null) {
      const msg = a.eventMessage.length > NOTE_MESSAGE_MAX ? `${a.eventMessage.slice(0, NOTE_MESSAGE_MAX)}…` : a.eventMessage;
      out.push(`  - event: ${markdownCode(msg)}`);
    }
  }
  if (m.notes.length) out.push("");
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
