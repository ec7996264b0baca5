/**
 * Collector layouts (FORMATS.md Part 1 and 5a): which tool made a bundle, and what its layout says
 * about each file before any line is parsed:
 *
 * - the collector's name (stored on `Bundle.collector`, shown in the report);
 * - the node a file belongs to, where the collector puts one (a folder per node, a folder named
 *   after the host, a hostname file), and aliases (EKS: the instance id);
 * - collector noise to skip inside a file (lib/parse/noise.ts rules: the goroutine dump the EKS
 *   script triggers at the end of `containerd-log.txt`, journalctl's warnings mixed in by `2>&1`)
 *   and files that are only collector noise (EKS `containerd.<pid>.stacks.log`);
 * - duplicate copies to drop (`status: "duplicate"`, `duplicateOf`): container logs copied twice
 *   (EKS `var_log/`, kind `containers/` and `pods/`), unit dumps that the whole-journal dump of the
 *   same bundle already holds (kind `journal.log`, Bottlerocket `journalctl.log`, sos
 *   `journalctl_--no-pager`);
 * - time facts: a zone the collector guarantees (OpenShift node-logs run `journalctl --utc`), sos
 *   >= 4.10 separators that name the boot before them, and the collection time (archive name,
 *   collection files), the upper bound for the year of year-less stamps (DESIGN.md "Year", rule 4).
 *
 * Files are grouped by the archive that holds them (`UnpackedFile.archive`; plain uploads form one
 * group), so two bundles uploaded together are recognised separately. Inside a group, paths are
 * compared after stripping the top folder when every member shares one (FORMATS.md 5a); the top
 * folder's name is kept (Rancher and sos name the host there).
 *
 * Each collector is one entry of `COLLECTORS` (order is detection priority): `detect` looks at
 * paths (and names), `describe` fills the group's file layouts. Pure apart from reading the bytes
 * already in memory; no clock reads.
 */
import { fileBytes, fileHead, fileSize, type UnpackedFile } from "./unpack";

/** What the layout says about one file (see the module comment). */
export interface FileLayout {
  /** node from the layout, null when the path does not say (the journal hostname column then decides) */
  node: string | null;
  /** other names of that node (EKS instance id) */
  aliases?: string[];
  /** the kept copy (its bundle path) when this file is a duplicate of it */
  duplicateOf?: string;
  /** why the file is left out although readable (e.g. `collector-stack-dump`) */
  skipReason?: string;
  /** noise rules (lib/parse/noise.ts) to apply */
  noise?: string[];
  /** zone the collector guarantees for zone-less stamps */
  zone?: string;
  /** sos >= 4.10: journal separators name the boot before them */
  separatorsLabelPrevious?: boolean;
  /** collection time of the file's group, UTC ms, and where it came from */
  collectedMs?: number | null;
  collectedSource?: string | null;
  /**
   * In an archive of no known collector: the top folder that holds the file when it names a node
   * (`topFolderNodes`). Weaker than the layout's `node` and than the names the records carry.
   */
  folderNode?: string | null;
}

/** The layout of a whole upload. */
export interface BundleLayout {
  /** collector names in order of first appearance (empty for plain logs) */
  collectors: string[];
  /** one per unpacked file, same order */
  files: FileLayout[];
  /** aliases per node name */
  aliases: Map<string, string[]>;
}

/** One group of files (one archive) as collectors see it. */
export interface CollectorGroup {
  /** name of the archive (upload name or nested archive path); null for plain uploads */
  archive: string | null;
  /** the shared top folder (stripped from `rel`), or null */
  top: string | null;
  /** indices into the bundle's file list */
  idx: number[];
  /** path of each file relative to the group root (top folder stripped), parallel to `idx` */
  rel: string[];
  /** bundle paths, parallel to `idx` */
  paths: string[];
  /** the whole text of file k (k indexes `idx`), "" when unreadable */
  text(k: number): string;
  /** the first lines (of the first 16 KiB) of file k */
  head(k: number): string[];
  /** byte size of file k (0 when unreadable) */
  size(k: number): number;
  /** k of the file at relative path `rel`, or -1 */
  find(rel: string): number;
}

/** One collector (see the module comment). */
export interface CollectorSpec {
  /** stable name stored on Bundle.collector */
  name: string;
  title: string;
  /** where its layout is described */
  source: string;
  detect(g: CollectorGroup): boolean;
  /** layouts for the group's files, parallel to `g.idx` */
  describe(g: CollectorGroup): FileLayout[];
  /** collection time from the archive name or collection files: UTC ms and its source */
  collected?(g: CollectorGroup): { ms: number; source: string } | null;
}

// ---------------------------------------------------------------------------------------------
// helpers

const JOURNAL_HOST_RES: RegExp[] = [
  /^[A-Z][a-z]{2} [ 0-3]\d \d\d:\d\d:\d\d(?:\.\d{6})? (\S+) [^\s[:]+(?:\[\d+\])?: /, // short, short-precise
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?[+-]\d\d:\d\d (\S+) [^\s[:]+(?:\[\d+\])?: /, // short-iso
  /^[A-Z][a-z]{2} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ (\S+) [^\s[:]+(?:\[\d+\])?: /, // short-full, with-unit
  /^\d{10}\.\d{6} (\S+) [^\s[:]+(?:\[\d+\])?: /, // short-unix
];

/** The most common journal hostname in `lines`, or null. */
export function journalHostOf(lines: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const l of lines) {
    for (const re of JOURNAL_HOST_RES) {
      const m = re.exec(l);
      if (m) {
        counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
        break;
      }
    }
  }
  let best: string | null = null;
  let n = 0;
  for (const [h, c] of counts) if (c > n) [best, n] = [h, c];
  return best;
}

/** Does a file start like journalctl text output (any short variant, json, export)? */
function looksLikeJournal(lines: readonly string[]): boolean {
  let hits = 0;
  for (const l of lines.slice(0, 20)) {
    if (/^-- (?:Boot [0-9a-f]{32}|Reboot|No entries|Logs begin at .*|Journal begins at .*) --$/.test(l)) return true;
    if (/^__CURSOR=s=/.test(l) || /^\{.*"__REALTIME_TIMESTAMP"\s*:\s*"\d+"/.test(l)) return true;
    if (JOURNAL_HOST_RES.some((re) => re.test(l)) || /^\[\s*\d+\.\d{6}\] \S+ [^\s[:]+(?:\[\d+\])?: /.test(l)) hits++;
  }
  return hits > 0;
}

/** The first hostname the given files' journal lines name. */
function hostFromFiles(g: CollectorGroup, ks: number[]): string | null {
  for (const k of ks) {
    if (k < 0) continue;
    const h = journalHostOf(g.head(k));
    if (h) return h;
  }
  return null;
}

/** First line of a small file, trimmed ("" when none). */
function firstLine(g: CollectorGroup, k: number): string {
  if (k < 0 || g.size(k) > 65_536) return "";
  return (g.text(k).split("\n").find((l) => l.trim() !== "") ?? "").trim();
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A collection time written by `date` (`Mon May 19 04:31:02 UTC 2025`, C locale), `date -u
 * --rfc-3339`, or Go's `time.Time.String()` (`2025-05-19 04:31:02.123 +0000 UTC m=+0.1`): UTC ms,
 * or null. A zone abbreviation other than UTC/GMT is read as UTC (a bound for year inference has a
 * day of slack).
 */
export function parseCollectionDate(text: string): number | null {
  const t = text.trim();
  let m = /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (?:([A-Z]{2,5}|[+-]\d{2,4}) )?(\d{4})\b/.exec(t);
  if (m) {
    const mon = MONTHS.indexOf(m[2]);
    if (mon < 0) return null;
    let off = 0;
    if (m[7] && /^[+-]\d{2,4}$/.test(m[7])) off = (m[7][0] === "-" ? -1 : 1) * (Number(m[7].slice(1, 3)) * 60 + Number(m[7].slice(3, 5) || 0));
    return Date.UTC(Number(m[8]), mon, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - off * 60_000;
  }
  m = /\b(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,]\d+)?\s*(Z|[+-]\d\d:?\d\d)?/.exec(t);
  if (m) {
    let off = 0;
    if (m[7] && m[7] !== "Z") {
      const d = m[7].replace(":", "");
      off = (d[0] === "-" ? -1 : 1) * (Number(d.slice(1, 3)) * 60 + Number(d.slice(3, 5)));
    }
    return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - off * 60_000;
  }
  return null;
}

/** `<pod>_<ns>_<ctr>-<64hex>.log` (the /var/log/containers name) → its parts. */
const CONTAINERS_NAME = /^([^/_]+)_([^/_]+)_(.+)-([0-9a-f]{64})\.log$/;
/** `<ns>_<pod>_<uid>/<ctr>/<n>.log` (the /var/log/pods layout) → its parts. */
const PODS_PATH = /(?:^|\/)([^/_]+)_([^/_]+)_([^/]+)\/([^/]+)\/(\d+)\.log$/;

/**
 * Container logs copied twice (FORMATS.md 1.1, 1.3: `/var/log/containers/*.log` are symlinks to
 * `/var/log/pods/…/<n>.log`, and the collectors dereference them): for each `containers/` name
 * whose pod, namespace and container match a `pods/` copy under `podsDir` (the highest restart
 * number, the one the symlink points at), the smaller copy is the duplicate (ties: the `containers/`
 * copy), since a copy taken later holds more lines.
 */
function pairContainerCopies(g: CollectorGroup, out: FileLayout[], inDir: (rel: string) => string | null, podsDir: (rel: string) => string | null): void {
  const pods = new Map<string, { k: number; n: number }>();
  g.rel.forEach((rel, k) => {
    const dir = podsDir(rel);
    if (dir === null) return;
    const m = PODS_PATH.exec(rel.slice(dir.length));
    if (!m) return;
    const key = `${dir}|${m[1]}|${m[2]}|${m[4]}`;
    const n = Number(m[5]);
    const prev = pods.get(key);
    if (!prev || n > prev.n) pods.set(key, { k, n });
  });
  g.rel.forEach((rel, k) => {
    const dir = inDir(rel);
    if (dir === null) return;
    const base = rel.slice(dir.length);
    const m = CONTAINERS_NAME.exec(base);
    if (!m) return;
    for (const [key, p] of pods) {
      const [pdir, ns, pod, ctr] = key.split("|");
      if (pod !== m[1] || ns !== m[2] || ctr !== m[3] || !pdirMatches(pdir, dir)) continue;
      if (g.size(k) > g.size(p.k)) out[p.k].duplicateOf = g.paths[k];
      else out[k].duplicateOf = g.paths[p.k];
      break;
    }
  });
}

function pdirMatches(podsDir: string, containersDir: string): boolean {
  return podsDir.replace(/pods\/$/, "") === containersDir.replace(/containers\/$/, "");
}

/** First `Mon DD hh:mm:ss` stamp of a journal file as a sortable number (month*1e8+…), or null. */
function firstJournalStamp(lines: readonly string[]): number | null {
  for (const l of lines) {
    const m = /^([A-Z][a-z]{2}) ([ 0-3]\d) (\d\d):(\d\d):(\d\d)/.exec(l);
    if (!m) continue;
    const mon = MONTHS.indexOf(m[1]);
    if (mon < 0) continue;
    return (((mon + 1) * 100 + Number(m[2].trim())) * 100 + Number(m[3])) * 10_000 + Number(m[4]) * 100 + Number(m[5]);
  }
  return null;
}

/**
 * A unit or per-boot journal dump is a duplicate of the whole-journal dump of the same node when
 * the whole dump is there, readable, and starts no later than it (so it holds every entry of it;
 * a size-capped whole dump that starts later does not).
 */
function dupOfWholeJournal(g: CollectorGroup, out: FileLayout[], whole: number, parts: number[]): void {
  if (whole < 0 || g.size(whole) === 0) return;
  const w = firstJournalStamp(g.head(whole));
  if (w === null) return;
  for (const k of parts) {
    if (k < 0 || k === whole || g.size(k) === 0) continue;
    const p = firstJournalStamp(g.head(k));
    if (p !== null && p >= w) out[k].duplicateOf = g.paths[whole];
  }
}

function base(g: CollectorGroup, node: string | null = null): FileLayout[] {
  return g.idx.map(() => ({ node }));
}

function withNoise(l: FileLayout, ...rules: string[]): void {
  l.noise = [...(l.noise ?? []), ...rules];
}

// ---------------------------------------------------------------------------------------------
// collectors

/** Amazon EKS `eks-log-collector.sh` (FORMATS.md 1.1). */
const eks: CollectorSpec = {
  name: "eks-log-collector",
  title: "Amazon EKS log collector",
  source: "FORMATS.md 1.1 (awslabs/amazon-eks-ami log-collector-script/linux/eks-log-collector.sh)",
  detect(g) {
    if (/(?:^|\/)eks_(?:i-[0-9a-f]+)?_\d{4}-\d\d-\d\d_\d{4}-UTC/.test(g.archive ?? "")) return true;
    const marks = ["kubelet/kubelet.log", "containerd/containerd-log.txt", "system/instance-id.txt", "ipamd/", "var_log/aws-routed-eni/", "kernel/dmesg.current"];
    return marks.filter((m) => g.rel.some((r) => (m.endsWith("/") ? r.startsWith(m) : r === m))).length >= 2;
  },
  describe(g) {
    const kubelet = g.find("kubelet/kubelet.log");
    const containerd = g.find("containerd/containerd-log.txt");
    const journals = g.rel.map((r, k) => (/^(?:kubelet\/kubelet\.log|containerd\/containerd-log\.txt|docker\/docker\.log|nodeadm\/.+\.log|sandbox-image\/.+\.txt|networking\/configure-multicard-interfaces\.txt|var_log\/messages)$/.test(r) ? k : -1)).filter((k) => k >= 0);
    const instance = firstLine(g, g.find("system/instance-id.txt")) || (/eks_(i-[0-9a-f]+)_/.exec(g.archive ?? "")?.[1] ?? "");
    const host = hostFromFiles(g, [kubelet, containerd, ...journals]);
    const node = host ?? (instance || null);
    const out = base(g, node);
    if (node && instance && instance !== node) for (const l of out) l.aliases = [instance];
    for (const k of journals) withNoise(out[k], "journalctl-warnings");
    if (containerd >= 0) withNoise(out[containerd], "collector-stack-dump");
    g.rel.forEach((r, k) => {
      if (/^containerd\/containerd\.\d+\.stacks\.log$/.test(r)) out[k].skipReason = "collector-stack-dump";
    });
    pairContainerCopies(
      g,
      out,
      (r) => (/^var_log\/[^/]+$/.test(r) ? "var_log/" : null),
      (r) => (/^var_log\/[^/]+_[^/]+_[^/]+\/[^/]+\/\d+\.log$/.test(r) ? "var_log/" : null),
    );
    return out;
  },
  collected(g) {
    const m = /eks_(?:i-[0-9a-f]+)?_(\d{4})-(\d\d)-(\d\d)_(\d\d)(\d\d)-UTC/.exec(g.archive ?? "");
    if (!m) return null;
    return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) + 59_999, source: "archive-name" };
  },
};

const RANCHER_TOP = /^(.+)-(\d{4})-(\d\d)-(\d\d)_(\d\d)_(\d\d)_(\d\d)$/;

/** Rancher `rancher2_logs_collector.sh` (FORMATS.md 1.2). */
const rancher: CollectorSpec = {
  name: "rancher-logs-collector",
  title: "Rancher logs collector",
  source: "FORMATS.md 1.2 (rancherlabs/support-tools collection/rancher/v2.x/logs-collector)",
  detect(g) {
    return !!g.top && RANCHER_TOP.test(g.top) && g.rel.some((r) => /^(?:journald|systeminfo|networking)\//.test(r) || r === "collector-output.log");
  },
  describe(g) {
    const node = RANCHER_TOP.exec(g.top ?? "")?.[1] ?? null;
    const out = base(g, node);
    g.rel.forEach((r, k) => {
      if (r.startsWith("journald/")) withNoise(out[k], "journalctl-warnings");
    });
    return out;
  },
  collected(g) {
    const d = parseCollectionDate(firstLine(g, g.find("systeminfo/date")));
    if (d !== null) return { ms: d, source: "collection-file" };
    const m = RANCHER_TOP.exec(g.top ?? "");
    if (!m) return null;
    // node local time: taken as UTC (the year bound has a day of slack)
    return { ms: Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7])), source: "archive-name" };
  },
};

const KIND_NODE_FILES = /^(?:journal\.log|kubelet\.log|containerd\.log|serial\.log|kubernetes-version\.txt|inspect\.json|images\.log)$/;

/** `kind export logs` (FORMATS.md 1.3): a folder per node container. */
const kind: CollectorSpec = {
  name: "kind-export-logs",
  title: "kind export logs",
  source: "FORMATS.md 1.3 (kubernetes-sigs/kind pkg/cluster/provider.go CollectLogs)",
  detect(g) {
    if (g.rel.includes("kind-version.txt")) return true;
    return g.rel.some((r) => /^[^/]+\/journal\.log$/.test(r)) && g.rel.some((r) => /^[^/]+\/(?:kubernetes-version\.txt|inspect\.json|serial\.log)$/.test(r));
  },
  describe(g) {
    const nodes = new Set<string>();
    for (const r of g.rel) {
      const m = /^([^/]+)\/([^/]+)$/.exec(r);
      if (m && KIND_NODE_FILES.test(m[2])) nodes.add(m[1]);
    }
    const out = base(g);
    g.rel.forEach((r, k) => {
      const n = r.split("/")[0];
      if (r.includes("/") && nodes.has(n)) out[k].node = n;
      if (/^[^/]+\/(?:journal|kubelet|containerd)\.log$/.test(r)) withNoise(out[k], "journalctl-warnings");
    });
    for (const n of nodes) {
      // journal.log is the whole journal: the unit dumps repeat it
      dupOfWholeJournal(g, out, g.find(`${n}/journal.log`), [g.find(`${n}/kubelet.log`), g.find(`${n}/containerd.log`)]);
    }
    pairContainerCopies(
      g,
      out,
      (r) => /^([^/]+\/containers\/)[^/]+$/.exec(r)?.[1] ?? null,
      (r) => /^([^/]+\/pods\/)/.exec(r)?.[1] ?? null,
    );
    return out;
  },
};

const SOS_TOP = /^sosreport-/;

/** sos version from `version.txt` / `sos_reports/manifest.json` as [major, minor], or null. */
function sosVersion(g: CollectorGroup): [number, number] | null {
  for (const p of ["version.txt", "sos_reports/manifest.json"]) {
    const k = g.find(p);
    if (k < 0 || g.size(k) > 1 << 20) continue;
    const m = /(?:sosreport|sos)\D{0,20}(\d+)\.(\d+)|"version"\s*:\s*"(\d+)\.(\d+)/.exec(g.text(k));
    if (m) return m[1] ? [Number(m[1]), Number(m[2])] : [Number(m[3]), Number(m[4])];
  }
  return null;
}

/** sos report (FORMATS.md 1.4). */
const sos: CollectorSpec = {
  name: "sosreport",
  title: "sos report",
  source: "FORMATS.md 1.4 (sosreport/sos sos/report/plugins)",
  detect(g) {
    return (!!g.top && SOS_TOP.test(g.top) && g.rel.some((r) => r.startsWith("sos_commands/"))) || (g.rel.some((r) => r.startsWith("sos_commands/")) && g.rel.some((r) => r.startsWith("sos_reports/") || r === "version.txt"));
  },
  describe(g) {
    const hostFile = ["sos_commands/host/hostname", "sos_commands/general/hostname", "etc/hostname"].map((p) => firstLine(g, g.find(p))).find((h) => h !== "");
    const journals = g.rel.map((r, k) => (/(?:^|\/)journalctl_--no-pager/.test(r) ? k : -1)).filter((k) => k >= 0);
    const top = /^sosreport-(.+?)(?:-\d{4}-\d\d-\d\d-[a-z]{7}|[-.]\d{14})$/.exec(g.top ?? "")?.[1] ?? null;
    const node = hostFile ?? hostFromFiles(g, journals) ?? top;
    const out = base(g, node);
    const v = sosVersion(g);
    const relabel = v !== null && (v[0] > 4 || (v[0] === 4 && v[1] >= 10));
    for (const k of journals) {
      withNoise(out[k], "journalctl-warnings");
      if (relabel) out[k].separatorsLabelPrevious = true;
    }
    const whole = g.find("sos_commands/logs/journalctl_--no-pager");
    dupOfWholeJournal(g, out, whole, journals.filter((k) => k !== whole && !/_--list-boots$/.test(g.rel[k])));
    return out;
  },
  collected(g) {
    const d = parseCollectionDate(firstLine(g, g.find("sos_commands/date/date")));
    if (d !== null) return { ms: d, source: "collection-file" };
    const name = g.top ?? "";
    let m = /-(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(name);
    if (m) return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])), source: "archive-name" };
    m = /-(\d{4})-(\d\d)-(\d\d)-[a-z]{7}$/.exec(name);
    // the friendly name gives only the day: its end is the bound
    if (m) return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999), source: "archive-name" };
    return null;
  },
};

/** OpenShift must-gather / `oc adm node-logs` (FORMATS.md 1.5). */
const mustGather: CollectorSpec = {
  name: "must-gather",
  title: "OpenShift must-gather",
  source: "FORMATS.md 1.5 (openshift/must-gather collection-scripts; oc adm node-logs)",
  detect(g) {
    return (
      /must-gather/.test(g.top ?? "") ||
      /must-gather/.test(g.archive ?? "") ||
      g.rel.some((r) => /(?:^|\/)host_service_logs\/(?:masters|workers)\/[^/]+_service\.log$/.test(r) || /(?:^|\/)nodes\/([^/]+)\/\1_logs_[^/]+$/.test(r))
    );
  },
  describe(g) {
    const out = base(g);
    const podNode = new Map<string, string | null>();
    g.rel.forEach((r, k) => {
      if (/(?:^|\/)host_service_logs\/(?:masters|workers)\/[^/]+_service\.log$/.test(r)) {
        out[k].zone = "UTC"; // the kubelet runs journalctl --utc; several nodes merged: the hostname column decides
        withNoise(out[k], "journalctl-warnings");
      }
      const n = /(?:^|\/)nodes\/([^/]+)\/\1_logs_[^/]+$/.exec(r);
      if (n) {
        out[k].node = n[1];
        out[k].zone = "UTC";
      }
      const p = /^(.*namespaces\/([^/]+)\/pods\/([^/]+))\/[^/]+\/[^/]+\/logs\/(?:current|previous)\.log$/.exec(r);
      if (p) {
        const yaml = `${p[1]}/${p[3]}.yaml`;
        if (!podNode.has(yaml)) {
          const y = g.find(yaml);
          podNode.set(yaml, y >= 0 ? (/^\s*nodeName:\s*(\S+)\s*$/m.exec(g.text(y))?.[1] ?? null) : null);
        }
        out[k].node = podNode.get(yaml) ?? null;
      }
    });
    return out;
  },
  collected(g) {
    const k = g.rel.findIndex((r) => /(?:^|\/)timestamp$/.test(r));
    const d = k >= 0 ? parseCollectionDate(g.text(k)) : null;
    return d !== null ? { ms: d, source: "collection-file" } : null;
  },
};

const SUPPORT_TOP = /^support-bundle-(\d{4})-(\d\d)-(\d\d)T(\d\d)_(\d\d)_(\d\d)/;

/** Replicated troubleshoot `kubectl support-bundle` (FORMATS.md 1.6). */
const troubleshoot: CollectorSpec = {
  name: "support-bundle",
  title: "troubleshoot support bundle",
  source: "FORMATS.md 1.6 (replicatedhq/troubleshoot pkg/collect)",
  detect(g) {
    return (!!g.top && SUPPORT_TOP.test(g.top)) || (g.rel.some((r) => r.startsWith("cluster-resources/")) && (g.rel.includes("version.yaml") || g.rel.some((r) => r.startsWith("host-collectors/"))));
  },
  describe(g) {
    const out = base(g);
    const info = g.find("host-collectors/system/hostos_info.json");
    let localHost: string | null = null;
    if (info >= 0) {
      try {
        const j = JSON.parse(g.text(info)) as Record<string, unknown>;
        const h = j.hostname ?? j.name;
        if (typeof h === "string" && h) localHost = h;
      } catch {
        // not JSON: leave the hostname column to decide
      }
    }
    const podsByNs = new Map<string, Map<string, string>>();
    const podNode = (ns: string, pod: string): string | null => {
      let m = podsByNs.get(ns);
      if (!m) {
        m = new Map();
        podsByNs.set(ns, m);
        const k = g.find(`cluster-resources/pods/${ns}.json`);
        if (k >= 0) {
          try {
            const j = JSON.parse(g.text(k)) as { items?: Array<{ metadata?: { name?: string }; spec?: { nodeName?: string } }> } | unknown[];
            const items = Array.isArray(j) ? (j as Array<{ metadata?: { name?: string }; spec?: { nodeName?: string } }>) : (j.items ?? []);
            for (const it of items) if (it.metadata?.name && it.spec?.nodeName) m.set(it.metadata.name, it.spec.nodeName);
          } catch {
            // unreadable pod list: no node from it
          }
        }
      }
      return m.get(pod) ?? null;
    };
    g.rel.forEach((r, k) => {
      let m = /^host-collectors\/journald\/[^/]+\.txt$/.exec(r);
      if (m && !r.endsWith("-stderr.txt")) {
        out[k].node = localHost;
        withNoise(out[k], "journalctl-warnings");
      }
      m = /^host-collectors\/([^/]+)\/journald\/[^/]+\.txt$/.exec(r);
      if (m && m[1] !== "journald" && !r.endsWith("-stderr.txt")) {
        out[k].node = m[1];
        withNoise(out[k], "journalctl-warnings");
      }
      m = /^cluster-resources\/pods\/logs\/([^/]+)\/([^/]+)\/[^/]+\.log$/.exec(r);
      if (m) out[k].node = podNode(m[1], m[2]);
    });
    return out;
  },
  collected(g) {
    const m = SUPPORT_TOP.exec(g.top ?? "") ?? SUPPORT_TOP.exec((g.archive ?? "").split("/").pop() ?? "");
    if (!m) return null;
    return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])), source: "archive-name" };
  },
};

const RUN_ID = /^(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)-(\d\d)Z$/;

/** Index of the Periscope RUN_ID segment in a path (`<RUN_ID>/<node>/<key>`), or -1. */
function runIdAt(rel: string): number {
  const parts = rel.split("/");
  for (let i = 0; i + 2 < parts.length; i++) if (RUN_ID.test(parts[i])) return i;
  return -1;
}

/** AKS Periscope (`az aks kollect`; FORMATS.md 1.7). */
const periscope: CollectorSpec = {
  name: "aks-periscope",
  title: "AKS Periscope",
  source: "FORMATS.md 1.7 (Azure/aks-periscope pkg/collector, pkg/exporter/azureblob_exporter.go)",
  detect(g) {
    const all = g.top ? g.rel.map((r) => `${g.top}/${r}`) : g.rel;
    return all.some((r) => {
      const i = runIdAt(r);
      if (i < 0) return false;
      const key = r.split("/").slice(i + 2).join("/");
      return /^(?:kubelet|docker|containerd|var_log_\S+|collector\S*|dns\S*|networkoutbound\S*)$/.test(key);
    });
  },
  describe(g) {
    const out = base(g);
    g.rel.forEach((r, k) => {
      const full = g.top ? `${g.top}/${r}` : r;
      const i = runIdAt(full);
      if (i < 0) return;
      const parts = full.split("/");
      out[k].node = parts[i + 1];
      if (/^(?:kubelet|docker|containerd)$/.test(parts.slice(i + 2).join("/"))) withNoise(out[k], "journalctl-warnings");
    });
    return out;
  },
  collected(g) {
    const all = g.top ? g.rel.map((r) => `${g.top}/${r}`) : g.rel;
    let best: number | null = null;
    for (const r of all) {
      const i = runIdAt(r);
      if (i < 0) continue;
      const m = RUN_ID.exec(r.split("/")[i])!;
      const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
      if (best === null || ms > best) best = ms;
    }
    return best === null ? null : { ms: best, source: "archive-name" };
  },
};

/** Bottlerocket `logdog` (FORMATS.md 1.7). */
const bottlerocket: CollectorSpec = {
  name: "bottlerocket-logdog",
  title: "Bottlerocket logdog",
  source: "FORMATS.md 1.7 (bottlerocket-os/bottlerocket sources/logdog/conf)",
  detect(g) {
    const all = g.top ? g.rel.map((r) => `${g.top}/${r}`) : g.rel;
    const hasLog = g.rel.includes("journalctl.log");
    return hasLog && (g.rel.includes("journalctl-boots") || g.rel.includes("journalctl.errors") || all.some((r) => r.startsWith("bottlerocket-logs/")) || g.rel.includes("settings.json"));
  },
  describe(g) {
    const log = g.find("journalctl.log");
    const node = hostFromFiles(g, [log, g.find("journalctl.errors")]);
    const out = base(g, node);
    for (const p of ["journalctl.log", "journalctl.errors"]) {
      const k = g.find(p);
      if (k >= 0) withNoise(out[k], "journalctl-warnings");
    }
    // `-p err` is a subset of the whole journal
    dupOfWholeJournal(g, out, log, [g.find("journalctl.errors")]);
    return out;
  },
};

/** Hand-made archives of journalctl output (any archive no other collector claims, holding journal text). */
const journalArchive: CollectorSpec = {
  name: "journalctl-archive",
  title: "archive of journalctl output",
  source: "FORMATS.md Part 2 (journalctl output formats), 5a (sniffing hand-made uploads)",
  detect(g) {
    return g.archive !== null && g.idx.some((_, k) => g.size(k) > 0 && looksLikeJournal(g.head(k)));
  },
  describe(g) {
    const out = base(g);
    g.idx.forEach((_, k) => {
      if (g.size(k) > 0 && looksLikeJournal(g.head(k))) withNoise(out[k], "journalctl-warnings");
    });
    return out;
  },
};

/** The collectors, in detection priority (the first whose `detect` accepts a group describes it). */
export const COLLECTORS: readonly CollectorSpec[] = [eks, rancher, kind, sos, mustGather, troubleshoot, periscope, bottlerocket, journalArchive];

{
  const names = new Set(COLLECTORS.map((c) => c.name));
  if (names.size !== COLLECTORS.length) throw new Error("lib/bundle/collectors.ts: duplicate collector name");
}

// ---------------------------------------------------------------------------------------------
// grouping and the bundle layout

const HEAD_BYTES = 16_384;

/**
 * The groups (one per archive, plain uploads together) of an unpacked upload, built one at a time:
 * a group's cached texts can be collected once the caller moves on (a bundle of many nodes is
 * never decoded whole).
 */
export function* groupFiles(files: readonly UnpackedFile[]): Generator<CollectorGroup> {
  const byArchive = new Map<string, number[]>();
  files.forEach((f, i) => {
    const key = f.archive === undefined ? "\u0000plain" : `${f.upload ?? ""}\u0000${f.archive}`;
    const list = byArchive.get(key);
    if (list) list.push(i);
    else byArchive.set(key, [i]);
  });
  const decoder = new TextDecoder("utf-8", { fatal: false });
  for (const [key, idx] of byArchive) {
    const members = idx.map((i) => files[i].member ?? files[i].path);
    const firsts = new Set(members.map((m) => (m.includes("/") ? m.split("/")[0] : "\u0000")));
    const top = firsts.size === 1 && !firsts.has("\u0000") ? [...firsts][0] : null;
    const rel = top ? members.map((m) => m.slice(top.length + 1)) : members;
    const texts = new Map<number, string>();
    const heads = new Map<number, string[]>();
    const relIndex = new Map<string, number>();
    rel.forEach((r, k) => {
      if (!relIndex.has(r)) relIndex.set(r, k);
    });
    const data = (k: number) => fileBytes(files[idx[k]]);
    yield {
      archive: key.startsWith("\u0000plain") ? null : (files[idx[0]].archive ?? null),
      top,
      idx,
      rel,
      paths: idx.map((i) => files[i].path),
      text(k) {
        let t = texts.get(k);
        if (t === undefined) {
          const d = data(k);
          t = d ? decoder.decode(d) : "";
          texts.set(k, t);
        }
        return t;
      },
      head(k) {
        let h = heads.get(k);
        if (!h) {
          const d = fileHead(files[idx[k]], HEAD_BYTES);
          h = d ? decoder.decode(d).split("\n").slice(0, 200).map((l) => l.replace(/\r$/, "")) : [];
          heads.set(k, h);
        }
        return h;
      },
      size(k) {
        return fileSize(files[idx[k]]);
      },
      find(r) {
        return relIndex.get(r) ?? -1;
      },
    };
  }
}

/** Latest member modification time of a group after 2000-01-01 (UTC ms), or null. */
function latestMtime(files: readonly UnpackedFile[], idx: number[]): number | null {
  let best: number | null = null;
  for (const i of idx) {
    const t = files[i].mtimeMs;
    if (t && t > Date.UTC(2000, 0, 1) && (best === null || t > best)) best = t;
  }
  return best;
}

const LIST_BOOTS_LAST = /^\s*-?\d+ [0-9a-f]{32} \w{3} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+(?:\u2014| +)\w{3} (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?: (\S+))?\s*$/;
/** Kubernetes events files by name (`kubectl get events -o json > events.json`, must-gather's `events.yaml`, ...). */
export const K8S_EVENTS_FILE = /(?:^|\/)(?:events[^/]*\.(?:json|ya?ml)|events)$/;
const EVENT_TIME = /"?(?:lastTimestamp|eventTime|lastObservedTime)"?\s*:\s*["']?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)/g;

/**
 * The latest time a list-boots file of the group states (LAST ENTRY; zone abbreviations other than
 * UTC read as UTC), then the latest Kubernetes event time in the group's event files: the last
 * fallbacks of DESIGN.md "Year" rule 4.
 */
function collectedFromContent(g: CollectorGroup): { ms: number; source: string } | null {
  let best: number | null = null;
  g.idx.forEach((_, k) => {
    if (!/(?:^|\/)(?:journalctl_--list-boots|journalctl-boots|list-boots[^/]*)$/.test(g.rel[k])) return;
    for (const l of g.text(k).split("\n")) {
      const m = LIST_BOOTS_LAST.exec(l);
      if (!m) continue;
      const ms = Date.parse(`${m[1].replace(" ", "T")}Z`);
      if (!Number.isNaN(ms) && (best === null || ms > best)) best = ms;
    }
  });
  if (best !== null) return { ms: best, source: "list-boots" };
  g.idx.forEach((_, k) => {
    if (!K8S_EVENTS_FILE.test(g.rel[k]) || g.size(k) > 64 << 20) return;
    const t = g.text(k);
    EVENT_TIME.lastIndex = 0;
    for (let m = EVENT_TIME.exec(t); m; m = EVENT_TIME.exec(t)) {
      const ms = Date.parse(m[1]);
      if (!Number.isNaN(ms) && (best === null || ms > best)) best = ms;
    }
  });
  return best !== null ? { ms: best, source: "event-times" } : null;
}

/**
 * Folder names that say what a folder holds rather than which machine it came from: top folders
 * of hand-made archives (`logs/`, `var/log/`, `kubelet/`, ...) that are no node name.
 */
const NOT_A_NODE = new Set([
  "log", "logs", "var", "tmp", "etc", "run", "host", "root", "home", "output", "out", "bundle", "bundles", "dump", "dumps",
  "collect", "collected", "debug", "data", "export", "exports", "archive", "files", "journal", "journald", "kernel", "system",
  "systemd", "kubelet", "containerd", "crio", "cri-o", "docker", "pods", "containers", "events", "cni", "net.d", "calico",
  "cilium", "istio", "istio-cni", "flannel", "multus", "aws-routed-eni", "kube-system", "nodes", "node", "cluster", "incident",
]);

/** A folder name that may be a node's name: a DNS label or dotted host name, or an address. */
const NODE_LIKE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\d{1,3}(?:\.\d{1,3}){3})$/;

function nodeFolder(name: string): boolean {
  const n = name.toLowerCase();
  return NODE_LIKE.test(n) && !NOT_A_NODE.has(n) && !/^\d+$/.test(n);
}

/**
 * The node each file of an archive of no known collector lies under, from its top folder: the one
 * top folder of the archive (`edge-node-03/cilium/cilium-agent.log`), or, where the archive holds
 * several top folders beside each other, each one (`node-a/kubelet.log`, `node-b/kubelet.log`),
 * when every such folder holds files in it and has a node-like name (not `logs`, `var`, a
 * component's name, ...). Files at the archive's root and archives where any top folder fails
 * the test get null. Parallel to `g.idx`.
 */
export function topFolderNodes(g: CollectorGroup): Array<string | null> {
  if (g.top !== null) return g.idx.map(() => (nodeFolder(g.top as string) ? g.top : null));
  const firsts = g.rel.map((r) => (r.includes("/") ? r.slice(0, r.indexOf("/")) : null));
  const folders = new Set(firsts.filter((f): f is string => f !== null));
  if (folders.size < 2 || ![...folders].every(nodeFolder)) return g.idx.map(() => null);
  return firsts;
}

/** The collectors a layout found, comma-separated (`Bundle.collector`), or null for plain logs. */
export function collectorNames(layout: BundleLayout): string | null {
  return layout.collectors.length ? layout.collectors.join(",") : null;
}

/**
 * The layout of an unpacked upload: each group's collector (the first of `COLLECTORS` that detects
 * it), its files' layouts and its collection time (archive name or collection files, else the
 * latest member modification time, else list-boots, else event times: DESIGN.md "Year" rule 4).
 * Files of groups no collector claims get `{ node: null }` and the group's collection time.
 */
export function describeBundle(files: readonly UnpackedFile[]): BundleLayout {
  const out: FileLayout[] = files.map(() => ({ node: null }));
  const collectors: string[] = [];
  const aliases = new Map<string, string[]>();
  for (const g of groupFiles(files)) {
    const c = COLLECTORS.find((spec) => spec.detect(g)) ?? null;
    const layouts = c ? c.describe(g) : base(g);
    if (!c && g.archive !== null) {
      const folders = topFolderNodes(g);
      layouts.forEach((l, k) => (l.folderNode = folders[k]));
    }
    const col = c?.collected?.(g) ?? null;
    const mt = latestMtime(files, g.idx);
    const when = col ?? (mt !== null ? { ms: mt, source: "member-mtime" } : collectedFromContent(g));
    if (c && !collectors.includes(c.name)) collectors.push(c.name);
    g.idx.forEach((i, k) => {
      const l = layouts[k];
      l.collectedMs = when?.ms ?? null;
      l.collectedSource = when?.source ?? null;
      out[i] = l;
      if (l.node && l.aliases?.length) {
        const prev = aliases.get(l.node) ?? [];
        for (const a of l.aliases) if (!prev.includes(a)) prev.push(a);
        aliases.set(l.node, prev);
      }
    });
  }
  return { collectors, files: out, aliases };
}
