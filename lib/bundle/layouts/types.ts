/**
 * The shapes a collector layout works with: a group of files (one archive) as layouts see it, what
 * a layout says about each file, and the layout spec itself with its sample archives.
 */

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
  /** the upstream code that writes its layout */
  source: string;
  /**
   * Archives as this collector writes them, checked by registry.test.ts: this layout (and no
   * earlier one) claims each, and gives the nodes, skips and collection time it states.
   */
  samples: LayoutSample[];
  detect(g: CollectorGroup): boolean;
  /** layouts for the group's files, parallel to `g.idx` */
  describe(g: CollectorGroup): FileLayout[];
  /** collection time from the archive name or collection files: UTC ms and its source */
  collected?(g: CollectorGroup): { ms: number; source: string } | null;
}

/** One archive as a collector writes it (member paths as the archive holds them). */
export interface LayoutSample {
  /** the uploaded archive's file name (some layouts read the collection time from it) */
  archive: string;
  /** member path -> its text ("" for members whose bytes the layout does not read) */
  members: Record<string, string>;
  expect: {
    /** node the layout gives a member (null: the path names none, the records decide) */
    nodes: Record<string, string | null>;
    /** `skipReason` the layout gives a member */
    skipped?: Record<string, string>;
    /** collection time the group gets, ISO 8601 UTC */
    collected?: string;
  };
}
