/**
 * Per boot, how many events hold each kind, error class, component and pod, with the earliest
 * time and the lowest id among them: counted on the ingest thread as a node's rows are formatted
 * (node-task.ts `nodeRows`, events in id order) and stored as `BootFacet` rows, so "what
 * changed" (lib/queries/get-boot-diff.ts) and "explain against the whole boot"
 * (lib/queries/get-range-explain.ts) read a few hundred rows instead of grouping the boot's
 * events. Rows of one boot from several bundles add up (n summed, the minimum time and id).
 */
import { copyText } from "../db/sql";

/** `BootFacet` columns in the order `BootFacets.rows` writes them. */
export const FACET_COLUMNS = ["incidentId", "bootId", "bundleId", "dim", "value", "lane", "n", "firstTs", "firstEventId"];

/** The dimensions counted, as `BootFacet.dim`. */
export const FACET_DIMS = ["kind", "errorClass", "component", "pod"] as const;
export type FacetDim = (typeof FACET_DIMS)[number];

/** What a facet counts of an event. */
export interface FacetEvent {
  kind: string;
  errorClass: string | null;
  component: string;
  lane: string;
  pod: string | null;
  ts: number | null;
}

interface Tally {
  n: number;
  firstTs: number | null;
  /** the first id seen: the lowest, as events come in id order */
  firstId: number;
  lane: string | null;
}

/** One boot's tallies: dimension index (`FACET_DIMS`) -> value -> tally. */
type BootTallies = Array<Map<string, Tally>>;

export class BootFacets {
  private readonly boots = new Map<number, BootTallies>();

  /** One event of boot `bootId`, with its event id (ids ascending from one call to the next). */
  add(bootId: number, e: FacetEvent, id: number): void {
    let b = this.boots.get(bootId);
    if (!b) this.boots.set(bootId, (b = FACET_DIMS.map(() => new Map())));
    tally(b[0], e.kind, e.ts, id, null);
    if (e.errorClass !== null) tally(b[1], e.errorClass, e.ts, id, null);
    tally(b[2], e.component, e.ts, id, e.lane);
    if (e.pod !== null) tally(b[3], e.pod, e.ts, id, null);
  }

  /** The tallies as `BootFacet` COPY text in `FACET_COLUMNS` order ("" when none). */
  rows(incidentId: string, bundleId: string): string {
    const head = `${copyText(incidentId)}\t`;
    const bundle = copyText(bundleId);
    let out = "";
    for (const [bootId, dims] of this.boots) {
      dims.forEach((values, d) => {
        for (const [value, t] of values)
          out += `${head}${bootId}\t${bundle}\t${FACET_DIMS[d]}\t${copyText(value)}\t${copyText(t.lane)}\t${t.n}\t${t.firstTs === null ? "\\N" : new Date(t.firstTs).toISOString()}\t${t.firstId}\n`;
      });
    }
    return out;
  }
}

function tally(values: Map<string, Tally>, value: string, ts: number | null, id: number, lane: string | null): void {
  const t = values.get(value);
  if (!t) {
    values.set(value, { n: 1, firstTs: ts, firstId: id, lane });
    return;
  }
  t.n++;
  if (ts !== null && (t.firstTs === null || ts < t.firstTs)) t.firstTs = ts;
}
