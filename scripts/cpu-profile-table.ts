/**
 * `tsx scripts/cpu-profile-table.ts <dir> [--threads]`: where the CPU time of a profiled ingest
 * went, as a Markdown table (docs/benchmarks.md keeps one). `<dir>` holds the `.cpuprofile` files
 * `node --cpu-prof --cpu-prof-dir=<dir>` wrote, one per thread (the bench's ingest child with
 * NODE_OPTIONS set: its main thread and every ingest thread; the bench's own process writes one
 * too, which is left out: it is the file with the `scripts/bench.ts` frames).
 *
 * Each sample's time (the gap to the next sample, µs) goes to the step of its innermost frame
 * that belongs to one (STEPS, by source path and function name, first match wins); frames of
 * node itself and of libraries count for the nearest caller that is ours, so zlib's work counts
 * for the code that asked for it. `(garbage collector)` and `(idle)`/`(program)` are their own
 * rows. Prints CPU-seconds and the share of the busy (non-idle) total per step; with `--top N`,
 * under each step its N functions with the most time (the innermost project frame of a sample,
 * as `module function`).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Steps by the source file (and function) of a frame: first match wins; order matters. */
const STEPS: Array<[string, RegExp]> = [
  ["search postings (words per event)", /lib\/search\/thread-words/],
  ["COPY to the database (pg, copy streams)", /pg-copy-streams|node_modules\/pg|lib\/db\/sql\.ts/],
  ["source-block compression", /source-block-codec|toSourceBlocks/],
  ["detectors", /lib\/detect\/|detect-boot|detectBoot$|finding-rows|rule-files/],
  ["pattern mining (lib/patterns) and boot facets", /lib\/patterns\/|pattern-rows|facet-rows/],
  [
    "row encoding and density rollup (nodeRows)",
    /(node-task|row-stream)\.ts (nodeRows|add|of|flush|done|newChunk)$|copyText|copyJson|copyTail|message-fields|boot-event/,
  ],
  ["spill to disk and back", /lib\/ingest\/spill/],
  ["boots and clock skew", /lib\/normalise\/boots|clock-skew|analyseNode/],
  ["redaction", /lib\/redact\//],
  ["classification and error classes", /lib\/normalise\/(classify|error-class|config-write|go-text|record-ids|recorded-event)/],
  ["sniffing (file type)", /file-sniff|file-types|sniff/],
  ["parsing", /lib\/parse\//],
  ["decoding and unpacking (gunzip, tar, UTF-8)", /lib\/bundle\/|string_decoder|fileLines|unpack/],
  ["ingest orchestration (other lib/ingest)", /lib\/ingest\//],
  ["other project code", /\/lib\//],
];

const SPECIAL: Record<string, string> = {
  "(garbage collector)": "garbage collection",
  "(idle)": "(idle)",
  "(program)": "(program: native, outside JS)",
};

/** The step of a sample's `frames` (innermost first), and its innermost project frame (`module function`). */
function stepOf(frames: ProfileNode["callFrame"][]): { step: string; fn: string } {
  const special = SPECIAL[frames[0]?.functionName ?? ""];
  if (special) return { step: special, fn: "" };
  let fn = "";
  for (const f of frames) {
    const key = `${f.url} ${f.functionName}`;
    if (!/\/(lib)\//.test(f.url)) continue;
    fn ||= `${f.url.slice(f.url.indexOf("/lib/") + 1)} ${f.functionName || "(anonymous)"}`;
    for (const [name, re] of STEPS) if (re.test(key)) return { step: name, fn };
  }
  return { step: "node and libraries, called from no project frame", fn };
}

/**
 * The ingest threads run a bundle (.build/*.mjs, scripts/build-worker.mjs) whose modules each
 * start after a `// lib/…` comment: a frame there is given the source module it came from.
 */
const bundleMaps = new Map<string, Array<[number, string]>>();
function sourceOf(f: ProfileNode["callFrame"]): ProfileNode["callFrame"] {
  if (!/\/\.build\/[^/]+\.mjs$/.test(f.url)) return f;
  let map = bundleMaps.get(f.url);
  if (!map) {
    map = [];
    readFileSync(fileURLToPath(f.url), "utf8")
      .split("\n")
      .forEach((l, i) => {
        const m = /^\/\/ ((?:lib|node_modules)\/\S+)$/.exec(l);
        if (m) map!.push([i, m[1]]);
      });
    bundleMaps.set(f.url, map);
  }
  let mod = "";
  for (const [line, m] of map) {
    if (line > f.lineNumber) break;
    mod = m;
  }
  return { ...f, url: `/${mod}` };
}

function main() {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: cpu-profile-table.ts <dir>");
  const totals = new Map<string, number>();
  const topAt = process.argv.indexOf("--top");
  const top = topAt > 0 ? Number(process.argv[topAt + 1]) : 0;
  /** per step: function -> µs */
  const fns = new Map<string, Map<string, number>>();
  let files = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".cpuprofile"))) {
    const p = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as Profile;
    if (p.nodes.some((n) => n.callFrame.url.includes("scripts/bench.ts"))) continue;
    // --threads: the ingest threads' profiles alone (those running the built bundle)
    if (process.argv.includes("--threads") && !p.nodes.some((n) => /\/\.build\/[^/]+\.mjs$/.test(n.callFrame.url))) continue;
    files++;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const stepCache = new Map<number, { step: string; fn: string }>();
    for (let i = 0; i < p.samples.length; i++) {
      const id = p.samples[i];
      let of = stepCache.get(id);
      if (!of) {
        const frames: ProfileNode["callFrame"][] = [];
        for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(sourceOf(byId.get(at)!.callFrame));
        of = stepOf(frames);
        stepCache.set(id, of);
      }
      const dt = p.timeDeltas[i + 1] ?? 0;
      totals.set(of.step, (totals.get(of.step) ?? 0) + dt);
      if (top && of.fn) {
        let m = fns.get(of.step);
        if (!m) fns.set(of.step, (m = new Map()));
        m.set(of.fn, (m.get(of.fn) ?? 0) + dt);
      }
    }
  }
  const busy = [...totals].filter(([k]) => k !== "(idle)").reduce((s, [, v]) => s + v, 0);
  const rows = [...totals].sort((a, b) => b[1] - a[1]);
  console.log(`${files} thread profiles; busy CPU ${(busy / 1e6).toFixed(2)} s\n`);
  console.log("| step | CPU-seconds | share of busy |");
  console.log("|---|---:|---:|");
  for (const [k, v] of rows) {
    console.log(`| ${k} | ${(v / 1e6).toFixed(2)} | ${k === "(idle)" ? "" : `${((100 * v) / busy).toFixed(1)} %`} |`);
    const m = fns.get(k);
    if (m) for (const [f, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`|   ${f} | ${(us / 1e6).toFixed(2)} | |`);
  }
}

main();
