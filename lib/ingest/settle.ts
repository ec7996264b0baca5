/**
 * The pipeline's settle step: the rules that take more than one file, the same for the ingest
 * (ingest-nodes.ts, which decides each as soon as its inputs are parsed and checks the whole
 * bundle against `settleBundle` at its end) and the in-memory reference:
 *
 * 1. duplicates: a file whose content repeats an earlier one in its scope (`duplicateScopes`) is
 *    listed as a duplicate and its events let go;
 * 2. node fallback: records that neither their file's layout nor their own text place go to the
 *    archive's top folder, the one node the other records of their own file name, the bundle's
 *    only node, or a node named after the upload (`placeUnplaced`); files with records and no
 *    node get the same;
 * 3. clock offsets: per file, given (`skew` option) or estimated for Kubernetes events files
 *    against the failures of the node logs on the same node, or of every node for a file on none
 *    (`offsetScopes`, lib/normalise/clock-skew.ts); the files' first and last times are shifted
 *    here, their events by the caller (they may live on other threads).
 */
import type { BundleLayout } from "../bundle/collectors";
import { K8S_EVENTS_FILE } from "../bundle/collectors";
import type { UnpackedFile } from "../bundle/unpack";
import type { AnalysedFile } from "../model/event";
import { clockOffsets, shiftFile, type SkewInput } from "../normalise/clock-skew";
import type { IngestOptions } from "./analyse-bundle";

/** The settled bundle: its file listings and where each file's unplaced records and times go. */
export interface SettledBundle {
  files: AnalysedFile[];
  /** node of the records of file `ord` that name none (null: on no node) */
  nodeOf: (ord: number) => string | null;
  /** nodes named after the upload (no log, path or option named them) */
  unnamed: Set<string>;
  /** clock offset by file ord, ms (files with none absent) */
  offsets: Map<number, number>;
}

/**
 * Settles the bundle in place (see the module comment). `results`: every file's parse result by
 * ord; `drop(r, ord)` lets a duplicate's events go; `recordNodes(r)` gives the nodes the kept
 * records of one file name (asked per file once duplicates are dropped); `skewInputs(files)` each file's clock-skew
 * input by ord (asked once nodes are placed). Pure apart from the callbacks; never throws.
 */
export function settleBundle<R extends SettleInput>(
  results: R[],
  unpacked: UnpackedFile[],
  layout: BundleLayout,
  opts: IngestOptions,
  of: {
    drop: (r: R, ord: number) => void;
    recordNodes: (r: R) => Iterable<string | null>;
    skewInputs: (files: AnalysedFile[]) => ReadonlyArray<SkewInput | null>;
  },
): SettledBundle {
  settleDuplicates(results, unpacked, duplicateScopes(unpacked, layout, opts), of.drop);
  const files = results.map((r) => r.file);
  const place = placeRecords(
    unpacked,
    layout,
    opts,
    files,
    results.map((r) => of.recordNodes(r)),
  );
  const { offsets } = clockOffsets(files, of.skewInputs(files), opts.skew ?? null, {}, offsetScopes(layout, opts));
  for (const [i, off] of offsets) shiftFile(files[i], off);
  return { files, nodeOf: place.nodeOf, unnamed: place.unnamed, offsets };
}

/**
 * Step 2 of the settle step (see the module comment) on `files` by ord, in place: files with
 * records and no node get the node `nodeOf` gives. `recordNodes[ord]`: the nodes the kept records
 * of file `ord` name. The nodes named are those records and files name plus every node the layout
 * (or the `node` option) puts a file on, read or not: so the files a path places add nothing a
 * reader of their path does not know, and the placement of every other file's records is final
 * once those files alone are parsed (lib/ingest/ingest-nodes.ts places them before the nodes).
 */
export function placeRecords(
  unpacked: readonly UnpackedFile[],
  layout: BundleLayout,
  opts: IngestOptions,
  files: AnalysedFile[],
  recordNodes: ReadonlyArray<Iterable<string | null>>,
): { nodeOf: (ord: number) => string | null; unnamed: Set<string> } {
  const fileNodes = recordNodes.map((ns) => new Set([...ns].filter((n): n is string => !!n)));
  const named = new Set(
    [...fileNodes.flatMap((s) => [...s]), ...files.map((f) => f.node), ...layout.files.map((l) => opts.node || l.node)].filter((n): n is string => !!n),
  );
  const place = placeUnplaced(placeInputs(unpacked, layout, files, fileNodes), named, opts);
  for (const f of files) if (!f.node && f.status === "read" && f.counts.records > 0) f.node = place.nodeOf(f.ord);
  return place;
}

/**
 * Per file, whose node-log failures its clock offset is estimated against (clock-skew.ts
 * `clockOffsets`): a file the layout (or the `node` option) puts on a node is on that node's
 * timeline, so it is aligned to that node's clock; a file on no node (a cluster's events) to
 * every node's.
 */
export function offsetScopes(layout: BundleLayout, opts: IngestOptions): Array<string | null> {
  return layout.files.map((l) => opts.node || l.node || null);
}

/**
 * The node name made from an upload's file name for records that name no node: the base name
 * without archive and log extensions (`kubelet-paste.log.gz` → `kubelet-paste`), blanks turned into
 * dashes; `upload` when nothing is left.
 */
export function uploadNodeName(fileName: string | null | undefined): string {
  let n = (fileName ?? "").split(/[\\/]/).pop() ?? "";
  for (let prev = ""; prev !== n; ) {
    prev = n;
    n = n.replace(/\.(?:tar\.gz|tar\.xz|tar\.bz2|tgz|tar|zip|gz|xz|log|txt|out|json|ya?ml|jsonl|ndjson|csv)$/i, "");
  }
  n = n.trim().replace(/\s+/g, "-");
  return n || "upload";
}

/** What `placeUnplaced` needs of each file of the bundle. */
export interface PlaceInput {
  path: string;
  /** the upload the file came from */
  upload?: string;
  /** the archive's top folder naming a node (`FileLayout.folderNode`) */
  folderNode?: string | null;
  /** the nodes the file's own records name */
  recordNodes?: ReadonlySet<string>;
  /** the parsed file's kind (`k8s-events` files hold cluster events that belong to no node) */
  kind: string;
}

/**
 * Where records that neither their file's layout nor their own text place go, per file (`ord`):
 * the archive's top folder, else the one node the file's other records name (a `kubectl get
 * events` row naming no node under a `describe` row of the same paste that does: what the file
 * gives alone, whatever else the upload holds), else the bundle's only named node; else, in a bundle that names
 * several nodes, a Kubernetes events file's records stay on no node (events of cluster objects,
 * counted and shown as such); else one node for the whole bundle named after an upload
 * (`uploadNodeName` of `opts.uploadName`, else of the upload the first such file came from;
 * listed in `unnamed`). `named`: the nodes records, files and paths named. Callers ask in file
 * order, so the name does not depend on timing.
 */
function placeUnplaced(
  files: readonly PlaceInput[],
  named: ReadonlySet<string>,
  opts: Pick<IngestOptions, "uploadName">,
): { nodeOf: (ord: number) => string | null; unnamed: Set<string> } {
  const only = onlyNode(named);
  let fallback: string | null = null;
  const unnamed = new Set<string>();
  return {
    nodeOf(ord) {
      const f = files[ord];
      const n = f?.folderNode ?? onlyNode(f?.recordNodes ?? new Set()) ?? only;
      if (n) return n;
      if (named.size > 1 && f?.kind === "k8s-events") return null;
      if (fallback === null) {
        fallback = uploadNodeName(opts.uploadName || f?.upload || f?.path);
        if (!named.has(fallback)) unnamed.add(fallback);
      }
      return fallback;
    },
    unnamed,
  };
}

/** `placeUnplaced`'s input for a bundle: unpacked files, their layout and their analysis, by ord. */
function placeInputs(
  unpacked: readonly UnpackedFile[],
  layout: BundleLayout,
  files: readonly AnalysedFile[],
  recordNodes: ReadonlyArray<ReadonlySet<string>>,
): PlaceInput[] {
  return unpacked.map((u, ord) => ({
    path: u.path,
    upload: u.upload,
    folderNode: layout.files[ord].folderNode,
    kind: files[ord].kind,
    recordNodes: recordNodes[ord],
  }));
}

/**
 * Per file, where its content can repeat another file's (`findDuplicates`): the node the layout
 * (or the `node` option) puts it on, so that two nodes' logs that happen to hold the same bytes
 * (a Calico `cni.log` names no host) are both read, since a repeated record is a duplicate only
 * on the same host; null (the whole bundle) for files on no node and for Kubernetes events
 * files (`K8S_EVENTS_FILE`: their records name their own node, so a copy in every node's archive
 * repeats the same events). Known before parsing, so both ingest ways decide alike.
 */
export function duplicateScopes(
  unpacked: readonly UnpackedFile[],
  layout: { files: ReadonlyArray<{ node: string | null }> },
  opts: IngestOptions,
): Array<string | null> {
  return layout.files.map((l, ord) => {
    const node = opts.node || l.node || null;
    return node && !K8S_EVENTS_FILE.test(unpacked[ord].path) ? node : null;
  });
}

/**
 * Files whose content repeats an earlier file's in the same scope (same sha256, not empty; scope
 * from `duplicateScopes`), in upload order: the first copy is the one kept. Returns, per item,
 * the path of the file it repeats or null.
 */
export function findDuplicates(items: ReadonlyArray<{ sha: string | null; path: string; byteSize: number; scope: string | null }>): Array<string | null> {
  const seen = new Map<string, string>();
  return items.map((r) => {
    if (r.sha === null) return null;
    const key = `${r.scope ?? ""}\0${r.sha}`;
    const dupOf = seen.get(key);
    if (dupOf !== undefined && r.byteSize > 0) return dupOf;
    seen.set(key, r.path);
    return null;
  });
}

/** What the settle step needs of a file's parse result (`FileAnalysis`, parse-task.ts `ParseFileResult`). */
export interface SettleInput {
  sha: string | null;
  base: AnalysedFile;
  file: AnalysedFile;
  redacted?: Record<string, number>;
}

/**
 * Lists files that repeat an earlier one (`findDuplicates`, within `scopes`: `duplicateScopes`)
 * as duplicates, calling `drop` on each so its events are let go, then sets each unpacked file's
 * `redacted` counts from its analysis.
 */
function settleDuplicates<R extends SettleInput>(
  results: R[],
  unpacked: UnpackedFile[],
  scopes: Array<string | null>,
  drop: (r: R, ord: number) => void,
): void {
  findDuplicates(results.map((r, ord) => ({ sha: r.sha, path: r.file.path, byteSize: r.base.byteSize, scope: scopes[ord] }))).forEach((dupOf, ord) => {
    if (dupOf === null) return;
    const r = results[ord];
    drop(r, ord);
    r.file = { ...r.base, status: "duplicate", reason: "same content as another file", duplicateOf: dupOf };
    delete r.redacted;
  });
  results.forEach((r, ord) => {
    if (r.redacted) unpacked[ord].redacted = r.redacted;
    else delete unpacked[ord].redacted;
  });
}

/**
 * The node of records that neither their file's path, their own fields nor the file's hostnames
 * place: the only node of `nodesSeen` (the nodes records and paths named, in the bundle or in one
 * file) when there is exactly one, else null.
 */
function onlyNode(nodesSeen: ReadonlySet<string>): string | null {
  return nodesSeen.size === 1 ? [...nodesSeen][0] : null;
}
