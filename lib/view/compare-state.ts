/**
 * The compare page's view state, as it lives in the URL (several nodes or boots side by side
 * on T+seconds; a copied URL is a permalink):
 * `/i/:incidentId/compare?boots=<id>,<id>[&from&to][&lanes]`.
 *
 * | key     | meaning                                         | default          |
 * |---------|-------------------------------------------------|------------------|
 * | `boots` | boot ids, comma-separated (also repeated `boot`)| none             |
 * | `from`  | visible start, seconds since each boot's T+0    | earliest data    |
 * | `to`    | visible end (exclusive), seconds since T+0      | latest data      |
 * | `lanes` | comma-separated lanes shown                     | all lanes        |
 *
 * Forgiving like view-state.ts: every field falls back to its default on its own; ids that
 * are not numbers are dropped, repeats removed, at most MAX_COMPARE_BOOTS kept.
 */
import { z } from "zod";
import { LANES, type TLane } from "./lanes";
import { isAllLanes, viewStateField, ZLanes } from "./view-state";

export const MAX_COMPARE_BOOTS = 8;
/** id of the incident page's compare form, which the boot checkboxes belong to */
export const COMPARE_FORM_ID = "compare-boots";
/** Offsets are kept within ±30 days of T+0. */
const MAX_OFFSET_MS = 30 * 86_400_000;

export interface TCompareState {
  boots: number[];
  /** visible range as offsets from each boot's T+0, ms; null = the data's extent */
  from: number | null;
  to: number | null;
  lanes: TLane[];
}

export const DEFAULT_COMPARE_STATE: TCompareState = { boots: [], from: null, to: null, lanes: [...LANES] };

/** Boot ids from a comma list (or several): positive integers, first occurrence kept. */
export const ZBootIds = z.union([z.string(), z.array(z.string())]).transform((v) => {
  const ids = (Array.isArray(v) ? v.join(",") : v)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => /^\d{1,10}$/.test(s))
    .map(Number)
    .filter((n) => n > 0 && n <= 2_147_483_647);
  return [...new Set(ids)].slice(0, MAX_COMPARE_BOOTS);
});

/** Seconds since T+0 with up to 3 decimals (`9`, `-1.5`, `28.25`), as ms. */
export const ZOffset = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d{1,7}(\.\d{1,3})?$/)
      .transform(Number),
  ])
  .transform((s) => Math.round(s * 1000))
  .pipe(z.number().int().min(-MAX_OFFSET_MS).max(MAX_OFFSET_MS));

export const ZCompareState = z
  .object({
    boots: ZBootIds.catch(() => []),
    from: ZOffset.nullable().catch(null),
    to: ZOffset.nullable().catch(null),
    lanes: ZLanes.catch(() => [...LANES]),
  })
  .transform((v) => (v.from !== null && v.to !== null && v.from >= v.to ? { ...v, from: null, to: null } : v));

type TSearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

/** Parses the query string; never throws. `boots` and repeated `boot` keys are merged. */
export function parseCompareState(sp: TSearchParams): TCompareState {
  const all = (k: string): string[] => {
    if (sp instanceof URLSearchParams) return sp.getAll(k);
    const v = sp[k];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  };
  const first = (k: string) => all(k)[0] ?? null;
  return ZCompareState.parse({ boots: [...all("boots"), ...all("boot")], from: first("from"), to: first("to"), lanes: first("lanes") });
}

/** Per-field parse for nuqs: the value, or null when damaged (= default). */
export const compareStateField = {
  boots: (s: string): number[] | null => {
    const ids = ZBootIds.parse(s);
    return ids.length ? ids : null;
  },
  offset: (s: string): number | null => ZOffset.safeParse(s).data ?? null,
  serializeBoots: (ids: readonly number[]): string => ids.join(","),
  /** ms as seconds with at most 3 decimals: `9.035` */
  serializeOffset: (ms: number): string => String(Math.round(ms) / 1000),
} as const;

/** The query string (`?` included when not empty), defaults left out. */
export function serializeCompareState(v: Partial<TCompareState>): string {
  const p = new URLSearchParams();
  if (v.boots?.length) p.set("boots", compareStateField.serializeBoots(v.boots));
  if (v.from != null) p.set("from", compareStateField.serializeOffset(v.from));
  if (v.to != null) p.set("to", compareStateField.serializeOffset(v.to));
  if (v.lanes && !isAllLanes(v.lanes)) p.set("lanes", viewStateField.serializeLanes(v.lanes));
  const s = p.toString().replace(/%2C/gi, ",");
  return s ? `?${s}` : "";
}

/** Path of the compare page for `boots`, with an optional view. */
export function comparePath(incidentId: string, boots: readonly number[], view: Partial<Omit<TCompareState, "boots">> = {}): string {
  return `/i/${encodeURIComponent(incidentId)}/compare${serializeCompareState({ ...view, boots: [...boots] })}`;
}
