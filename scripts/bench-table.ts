/**
 * The Markdown table of `npm run bench` (scripts/bench.ts without `--json`): the rows of one
 * backend's result object (`tableRows`; the PGlite run's are prefixed `PGlite: `) and the big
 * log's row. Pure: the result in, `[measure, result]` pairs out.
 */
import type { BigLogResult } from "./bench-big-log";
import type { benchBigBoot } from "./bench-big-boot";
import type { LnavResult } from "./bench-lnav";
import type { PageBench } from "./bench-page";
import type { benchPatterns } from "./bench-patterns";
import type { ProgressFigures } from "./bench-progress";
import type { benchRules } from "./bench-rules";
import type { benchSearch } from "./bench-search";
/** Table rows for one backend's result; `label` prefixes each (empty for the main backend). */
export function tableRows(result: Record<string, unknown>, label: string): Array<[string, string]> {
  const phaseRank = (k: string) => ((r) => (r < 0 ? 99 : r))(["unpackMs", "ingestMs", "byNodeMs", "parseMs", "storeMs", "detectMs"].indexOf(k));
  const i = result.ingest as Record<string, number> & { timings: Record<string, number>; runsSeconds: number[]; progress?: ProgressFigures };
  const ingestRunsNote = i.runsSeconds.length > 1;
  const c = result.copy as Record<string, number> & { runsSeconds: number[] };
  const rows: Array<[string, string]> = [];
  const lnav = result.lnav as (Partial<LnavResult> & { seconds: number | null }) | undefined;
  if (!label && lnav) {
    rows.push([
      "lnav on the same files",
      lnav.seconds === null
        ? "not installed (apt-get install lnav)"
        : `${lnav.seconds} s, ${Math.round(i.lines / lnav.seconds).toLocaleString()} lines/s (${lnav.version}, ${lnav.files} plain files opened and indexed, \`SELECT count(*) FROM all_logs\` = ${lnav.rows?.toLocaleString()}; median of ${lnav.runsSeconds?.join(", ")} s)`,
    ]);
  }
  rows.push(
    [
      "ingest end to end",
      `${i.linesPerSec.toLocaleString()} lines/s, ${i.mbPerSec} MB/s (${i.lines.toLocaleString()} lines, ${i.linesCounted?.toLocaleString()} of them in files read, ${(i.bytes / 1e6).toFixed(0)} MB, ${i.nodes} nodes, ${i.events.toLocaleString()} events, ${i.seconds} s${ingestRunsNote ? `: median of ${i.runsSeconds.join(", ")} s` : ""})`,
    ],
    [
      "CPU per million lines",
      `${i.cpuSecondsPerMLines} CPU-s in the ingest process (every thread; ${i.systemCpuSecondsPerMLines} of them in the kernel)${i.dbCpuSecondsPerMLines === null ? "" : `, ${i.dbCpuSecondsPerMLines} in the database's backends`}`,
    ],
    // jsonb does not keep key order: pipeline order first, anything else after
    ["ingest path", String(i.path)],
    [
      "ingest phases",
      Object.entries(i.timings)
        .sort(([a], [b]) => phaseRank(a) - phaseRank(b))
        .map(([k, v]) => `${k.replace(/Ms$/, "")} ${(v / 1000).toFixed(2)} s`)
        .join(", ") || "(none recorded)",
    ],
    [
      "progress: longest still",
      `${i.progress?.maxGapS} s during the ingest (${i.progress?.at}, ${i.progress?.reports} reports)${
        result.progress
          ? `; ${(result.progress as ProgressFigures & { lines: number }).maxGapS} s for one node of ${(result.progress as { lines: number }).lines.toLocaleString()} lines (${(result.progress as ProgressFigures).at})`
          : ""
      }`,
    ],
    ["peak RSS during ingest", `${i.peakRssMb} MB (ingest child process, ${i.peakRssSource}${ingestRunsNote ? "; the highest of the runs" : ""})`],
    [
      "plain COPY of the same rows",
      `${c.rowsPerSec.toLocaleString()} rows/s, ${c.linesPerSec.toLocaleString()} lines/s (${c.rows.toLocaleString()} rows, ${c.seconds} s: median of ${c.runsSeconds.join(", ")} s)`,
    ],
    ["ingest / COPY", `${i.ratioToCopy} (ingest throughput as a fraction of plain COPY's)`],
  );
  if (!label && i.ratioToLnav !== undefined)
    rows.push(["ingest / lnav", i.ratioToLnav === null ? "(no lnav)" : `${i.ratioToLnav} (ingest seconds over lnav's seconds on the same input)`]);
  if (!label)
    for (const [k, v] of Object.entries(result.parse as Record<string, { linesPerSec: number }>))
      rows.push([`parse only: ${k}`, `${v.linesPerSec.toLocaleString()} lines/s`]);
  const rb = result.rules as (ReturnType<typeof benchRules> & { shareOfIngest: number }) | undefined;
  if (rb)
    rows.push([
      "rules (the catalogue's prefilter and runner)",
      `${rb.bundleSeconds} s for the bundle, ${(rb.shareOfIngest * 100).toFixed(2)} % of the ingest's time (${rb.rules} rules in ${rb.ruleSets} files; one node: ${rb.nodeEvents.toLocaleString()} events, ${rb.wantedEvents.toLocaleString()} past the prefilter, ${rb.nodeMs} ms: median of ${rb.runsMs.join(", ")} ms; times ${i.nodes} nodes)`,
    ]);
  const pb = result.patterns as (ReturnType<typeof benchPatterns> & { shareOfIngest: number }) | undefined;
  if (pb)
    rows.push([
      "patterns (the Drain miner at ingest)",
      `${pb.bundleSeconds} s for the bundle, ${(pb.shareOfIngest * 100).toFixed(2)} % of the ingest's time (one node: ${pb.nodeEvents.toLocaleString()} events, ${pb.templates} templates, ${pb.nodeMs} ms: median of ${pb.runsMs.join(", ")} ms; times ${i.nodes} nodes)`,
    ]);
  const q = result.query as (Record<string, { medianMs: number; p95Ms: number }> & { storedEvents: number; eventsPerBoot: number }) | undefined;
  if (q) {
    rows.push(["query store", `${q.storedEvents.toLocaleString()} events (${q.eventsPerBoot.toLocaleString()} in the largest boot)`]);
    for (const k of ["histogram", "events", "search", "searchCount", "patterns", "patternEvents", "explain"])
      if (q[k]) rows.push([`query ${k}`, `median ${q[k].medianMs} ms, p95 ${q[k].p95Ms} ms`]);
  }
  const s = result.search as Awaited<ReturnType<typeof benchSearch>> | undefined;
  if (s) {
    const ms = (x: { median: number; p95: number; runs: number }) => `median ${x.median} ms, p95 ${x.p95} ms (${x.runs} runs)`;
    rows.push(
      [
        "search store",
        `${s.storedEvents.toLocaleString()} events, all in the searched incident (${s.incidentEvents.toLocaleString()}); ${s.posted ? "stored with its search postings: no index work after ready" : `its search index built in ${s.indexSeconds} s`}; search.indexBuildS ${s.indexBuildS} s`,
      ],
      [
        "search: rare token (a sandbox id)",
        `${ms(s.rareTokenMs)}; ${s.rareTokenHits.join(", ")} events per id; one counted by a scan without index: ${s.rareScanCount} (search: ${s.rareSearchCount})`,
      ],
      [
        `search: common word "${s.commonToken}"`,
        `${ms(s.commonTokenMs)}; exact count ${s.exactCount.toLocaleString()}${s.scanCount === null ? "" : ` (a scan without index: ${s.scanCount.toLocaleString()})`}; in ${(s.commonTokenShare * 100).toFixed(1)}% of the sampled events`,
      ],
      [
        `search: the word "${s.frequentToken}"`,
        `${ms(s.frequentTokenMs)}; exact count ${s.frequentCount.toLocaleString()} of ${s.incidentEvents.toLocaleString()} events${s.frequentScanCount === null ? "" : ` (a scan without index: ${s.frequentScanCount.toLocaleString()})`}`,
      ],
      ["search: substring (13 characters of a sandbox id)", `${s.substringMs} ms, ${s.substringCount.toLocaleString()} events (a scan of the incident)`],
      [
        "boot timeline: filtered first page (rare token)",
        `${ms(s.timelineFilteredPageMs)}; boot of ${s.timelineFilteredPage.bootEvents.toLocaleString()} events, ${s.timelineFilteredPage.rows} rows${s.timelineFilteredPage.scannedToMs === null ? "" : ", stopped at its scan bound"}`,
      ],
      [
        `boot timeline: the word "${s.frequentToken}", first page and count`,
        `page ${ms(s.timelineFrequentWord.pageMs)}; count ${ms(s.timelineFrequentWord.countMs)}, ${s.timelineFrequentWord.matching.toLocaleString()} (search: ${s.timelineFrequentWord.searchCount.toLocaleString()})${s.timelineFrequentWord.bounded ? ", stopped at its scan bound" : ""}`,
      ],
    );
  }
  const b = result.bigBoot as Awaited<ReturnType<typeof benchBigBoot>> | undefined;
  if (b) {
    rows.push(
      [
        `big boot (${b.bootEvents.toLocaleString()} events): density`,
        `median ${b.densityMs.median} ms, p95 ${b.densityMs.p95} ms (whole boot; rollup ${b.rollup})`,
      ],
      [
        `big boot (${b.bootEvents.toLocaleString()} events): first events page`,
        `median ${b.firstPageMs.median} ms, p95 ${b.firstPageMs.p95} ms (200 rows, no filter)`,
      ],
    );
  }
  const pg = result.page as PageBench | undefined;
  if (pg) {
    const boot = b ? ` (${b.bootEvents.toLocaleString()} events)` : "";
    rows.push([
      `big boot${boot}: page in Chromium until its lanes show`,
      "skipped" in pg
        ? `skipped: ${pg.skipped}`
        : `median ${pg.lanesMs.median} ms, p95 ${pg.lanesMs.p95} ms (${pg.lanesMs.runs} loads, each in a fresh context)`,
    ]);
  }
  return rows.map(([k, v]) => [label ? `${label}: ${k}` : k, v]);
}

/** The table's row of the big log. */
export function bigLogRow(b: BigLogResult): [string, string] {
  return [
    `one ${b.mib} MiB plain log: memory`,
    `peak RSS ${b.peakRssMb} MB, ${b.rssAfterMb} MB idle after (${b.lines.toLocaleString()} lines, ${b.seconds} s, ${b.path}; ingest child process, VmHWM, then VmRSS 10 s after; highest by phase: ${Object.entries(
      b.peakByPhaseMb,
    )
      .map(([k, v]) => `${k} ${v} MB`)
      .join(", ")})`,
  ];
}
