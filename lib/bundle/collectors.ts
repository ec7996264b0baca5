/**
 * Collector layouts: which tool made a bundle, and what its layout says
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
 *   collection files), the upper bound for the year of year-less stamps (docs/definitions.md
 *   "Year", rule 4).
 *
 * Files are grouped by the archive that holds them (`UnpackedFile.archive`; plain uploads form one
 * group), so two bundles uploaded together are recognised separately. Inside a group, paths are
 * compared after stripping the top folder when every member shares one; the top
 * folder's name is kept (Rancher and sos name the host there).
 *
 * Each collector is one module of lib/bundle/layouts/ and one entry of `COLLECTORS`
 * (lib/bundle/layouts/registry.ts; order is detection priority): `detect` looks at paths (and
 * names), `describe` fills the group's file layouts. This module groups the files and applies the
 * layouts. Pure apart from reading the bytes already in memory; no clock reads.
 */
import { fileBytes, fileHead, fileSize, type UnpackedFile } from "./unpack";
import { base } from "./layouts/helpers";
import { COLLECTORS } from "./layouts/registry";
import type { BundleLayout, CollectorGroup, FileLayout } from "./layouts/types";

export { journalHostOf, parseCollectionDate } from "./layouts/helpers";
export { COLLECTORS } from "./layouts/registry";
export type { BundleLayout, CollectorGroup, CollectorSpec, FileLayout, LayoutSample } from "./layouts/types";

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
          h = d
            ? decoder
                .decode(d)
                .split("\n")
                .slice(0, 200)
                .map((l) => l.replace(/\r$/, ""))
            : [];
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
 * fallbacks of docs/definitions.md "Year" rule 4.
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
  "log",
  "logs",
  "var",
  "tmp",
  "etc",
  "run",
  "host",
  "root",
  "home",
  "output",
  "out",
  "bundle",
  "bundles",
  "dump",
  "dumps",
  "collect",
  "collected",
  "debug",
  "data",
  "export",
  "exports",
  "archive",
  "files",
  "journal",
  "journald",
  "kernel",
  "system",
  "systemd",
  "kubelet",
  "containerd",
  "crio",
  "cri-o",
  "docker",
  "pods",
  "containers",
  "events",
  "cni",
  "net.d",
  "calico",
  "cilium",
  "istio",
  "istio-cni",
  "flannel",
  "multus",
  "aws-routed-eni",
  "kube-system",
  "nodes",
  "node",
  "cluster",
  "incident",
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
 * latest member modification time, else list-boots, else event times: docs/definitions.md "Year"
 * rule 4).
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
