/**
 * The node boot page's view state, as it lives in the URL, so that a copied URL is a permalink;
 * one forgiving schema, each field falling back to its default when a link is damaged or old
 * (as documenso does). Node and boot are in the
 * path; everything else is in the query string:
 *
 * | key    | meaning                                 | default              |
 * |--------|-----------------------------------------|----------------------|
 * | `from` | visible range start, UTC ms or ISO 8601 | start of the boot    |
 * | `to`   | visible range end (exclusive)           | end of the boot data |
 * | `lanes`| comma-separated lanes shown             | all lanes            |
 * | `sev`  | minimum severity 0..4 in the event table| 0 (all)              |
 * | `q`    | search text of the events table          | "" (none)            |
 * | `match`| `substring`: `q` matches any part of a word in messages and pods; else whole words in messages, pods, ids and fields | whole words |
 * | `pod`  | pod filter (substring of namespace/name)| "" (none)            |
 * | `kind` | kind filter (exact, e.g. `k8s.event`)   | "" (none)            |
 * | `ev`   | selected event id                       | none                 |
 * | `finding` | selected finding id (its evidence rows are highlighted) | none |
 * | `pat`  | a message template's key: only its events (lib/patterns)   | none |
 * | `xpat` | comma-separated template keys hidden from the events table  | none |
 * | `xfrom`, `xto` | the range "explain this range" explains, T+ seconds (ms precision, e.g. `12.5`); both or neither | none (panel closed) |
 * | `xbase`| its baseline: `before` (the span of the same length before it) or `boot` (the rest of the boot) | `before` |
 *
 * Every field falls back to its default on its own when a permalink is damaged or old
 * (unknown lanes are dropped, a bad time is ignored, `from >= to` resets the range, and so does
 * `xfrom >= xto` or one of the two alone for the explained range), so a
 * link never fails to open. The server page and the client (through nuqs parsers built
 * from the same field schemas) share this file; `serializeViewState` writes it back.
 */
import { z } from "zod";
import { LANES, isLane, type TLane } from "./lanes";

/**
 * The instants a time parameter may name, UTC ms: years 0001 to 9999. PostgreSQL's timestamps
 * have no year 0 and take ISO text only with four-digit years, so an instant outside these (JS
 * reaches ±275,760 years) could not be compared with a stored one.
 */
export const MIN_INSTANT_MS = Date.parse("0001-01-01T00:00:00.000Z");
export const MAX_INSTANT_MS = Date.parse("9999-12-31T23:59:59.999Z");
const INSTANT_RANGE = "a time between 0001-01-01 and 9999-12-31";
/** Largest PostgreSQL bigint (event ids). */
const MAX_BIGINT = 9223372036854775807n;
/** Longest search text kept. */
export const MAX_SEARCH = 200;
/** How the events table's search text matches (lib/queries/event-filter.ts): whole words, or any part of a word. */
export const TEXT_MATCHES = ["words", "substring"] as const;
export type TTextMatchMode = (typeof TEXT_MATCHES)[number];
const ZMatch = z.enum(TEXT_MATCHES);

/** Longest pod filter kept (namespace 63 + "/" + name 253). */
export const MAX_POD = 320;

/**
 * The baselines "explain this range" ranks against (lib/queries/get-range-explain.ts computes
 * them): `before`, the span of the same length just before the range; `boot`, the rest of the boot.
 */
export const EXPLAIN_BASELINES = ["before", "boot"] as const;
export type TExplainBaseline = (typeof EXPLAIN_BASELINES)[number];
export const ZExplainBaseline = z.enum(EXPLAIN_BASELINES);

/** Largest T+ offset an explained range may name, seconds (about 31 years either side of T+0). */
export const MAX_OFFSET_S = 999_999_999;

/**
 * A T+ offset from the URL: seconds with at most three decimals (`12`, `-3.25`, `86400.125`),
 * as integer ms. No exponents, no `+`, at most `MAX_OFFSET_S` either way.
 */
export const ZOffsetMs = z
  .string()
  .regex(/^-?\d{1,9}(\.\d{1,3})?$/, "not a T+ offset in seconds")
  .transform((s) => Math.round(Number(s) * 1000));

/** Epoch ms, as a number or a string of digits. */
const ZEpochMs = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d{1,16}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().min(MIN_INSTANT_MS, INSTANT_RANGE).max(MAX_INSTANT_MS, INSTANT_RANGE));

/** ISO 8601 with a zone (`Z` or `+hh:mm`); zone-less text would depend on the reader's zone. */
const ZIsoInstant = z.iso.datetime({ offset: true }).transform((s) => Date.parse(s));

/** An instant from the URL: epoch ms or zoned ISO 8601, as UTC ms. */
export const ZInstant = z.union([ZEpochMs, ZIsoInstant]).pipe(z.number().int().min(MIN_INSTANT_MS, INSTANT_RANGE).max(MAX_INSTANT_MS, INSTANT_RANGE));

/** Lanes from a comma list (or an array); unknown names are dropped, none left = all. */
export const ZLanes = z
  .union([z.string(), z.array(z.string())])
  .transform((v) =>
    (Array.isArray(v) ? v.join(",") : v)
      .split(",")
      .map((s) => s.trim())
      .filter(isLane),
  )
  .transform((ls) => LANES.filter((l) => ls.includes(l)))
  .pipe(z.array(z.enum(LANES)).min(1));

export const ZSeverity = z.coerce.number().int().min(0).max(4);

export const ZSearch = z.string().transform((s) => s.slice(0, MAX_SEARCH));

/** Event ids are BIGINT: digits, kept as text. */
export const ZEventId = z
  .string()
  .regex(/^\d{1,19}$/, "not an event id")
  // zod runs this check after a failed regex too: only digits reach BigInt
  .refine((s) => !/^\d{1,19}$/.test(s) || BigInt(s) <= MAX_BIGINT, "not an event id (at most 9223372036854775807, a PostgreSQL bigint)");

/** A pod filter: trimmed, cut to MAX_POD. */
export const ZPod = z.string().transform((s) => s.trim().slice(0, MAX_POD));

/** A normalised kind: `log`, `k8s.event`, `sandbox.create.failed`, … */
export const ZKind = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/);

/** Most templates hidden at once. */
export const MAX_HIDDEN_PATTERNS = 50;

/** A message template's key (lib/patterns/merge.ts `patternKey`: 32 bits in base 36). */
export const ZPatternKey = z.string().regex(/^[0-9a-z]{1,7}$/, "not a pattern key");

/** Template keys from a comma list (or an array): duplicates dropped, at most `MAX_HIDDEN_PATTERNS`. */
export const ZPatternKeys = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => [...new Set((Array.isArray(v) ? v.join(",") : v).split(",").filter(Boolean))])
  .pipe(z.array(ZPatternKey).max(MAX_HIDDEN_PATTERNS));

/** Finding ids are INTEGER: a positive number, or its digits. */
export const ZFindingId = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(2_147_483_647));

export const DEFAULT_VIEW_STATE: TViewState = {
  from: null,
  to: null,
  lanes: [...LANES],
  sev: 0,
  q: "",
  match: "words",
  pod: "",
  kind: "",
  ev: null,
  finding: null,
  pat: null,
  xpat: [],
  xfrom: null,
  xto: null,
  xbase: "before",
};

/** The forgiving schema: never fails, every field defaults on its own. */
export const ZViewState = z
  .object({
    from: ZInstant.nullable().catch(null),
    to: ZInstant.nullable().catch(null),
    lanes: ZLanes.catch(() => [...LANES]),
    sev: ZSeverity.catch(0),
    q: ZSearch.catch(""),
    match: ZMatch.catch("words"),
    pod: ZPod.catch(""),
    kind: ZKind.catch(""),
    ev: ZEventId.nullable().catch(null),
    finding: ZFindingId.nullable().catch(null),
    pat: ZPatternKey.nullable().catch(null),
    xpat: ZPatternKeys.catch(() => []),
    xfrom: ZOffsetMs.nullable().catch(null),
    xto: ZOffsetMs.nullable().catch(null),
    xbase: ZExplainBaseline.catch("before"),
  })
  .transform((v) => (v.from !== null && v.to !== null && v.from >= v.to ? { ...v, from: null, to: null } : v))
  .transform((v) => (isExplainRange(v.xfrom, v.xto) ? v : { ...v, xfrom: null, xto: null }));

/** True when `xfrom` and `xto` name an explained range: both set, `xfrom < xto`. */
export function isExplainRange(xfrom: number | null, xto: number | null): boolean {
  return xfrom !== null && xto !== null && xfrom < xto;
}

export interface TViewState {
  /** visible range start, UTC ms; null = start of the boot */
  from: number | null;
  /** visible range end (exclusive), UTC ms; null = end of the boot's data */
  to: number | null;
  lanes: TLane[];
  /** minimum severity shown in the events table (0 debug … 4 fatal) */
  sev: number;
  q: string;
  /** how `q` matches: whole words (as incident search) or any part of a word */
  match: TTextMatchMode;
  /** pod filter of the events table (substring, case-insensitive); "" = none */
  pod: string;
  /** kind filter of the events table (exact); "" = none */
  kind: string;
  /** selected event id */
  ev: string | null;
  /** selected finding id: its evidence events are highlighted in the table */
  finding: number | null;
  /** the message template whose events alone are shown (its key); null = any */
  pat: string | null;
  /** message templates hidden (their keys) */
  xpat: string[];
  /** the explained range's start, ms after T+0 (negative: before it); null = no range explained */
  xfrom: number | null;
  /** the explained range's end (exclusive), ms after T+0; null with `xfrom` */
  xto: number | null;
  /** what the explained range is compared with */
  xbase: TExplainBaseline;
}

type TSearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

/** Parses the query string (Next's `searchParams` or URLSearchParams); never throws. */
export function parseViewState(sp: TSearchParams): TViewState {
  const get = (k: string): string | undefined => {
    if (sp instanceof URLSearchParams) return sp.get(k) ?? undefined;
    const v = sp[k];
    return Array.isArray(v) ? v[0] : v;
  };
  const raw = {
    from: get("from"),
    to: get("to"),
    lanes: get("lanes"),
    sev: get("sev"),
    q: get("q"),
    match: get("match"),
    pod: get("pod"),
    kind: get("kind"),
    ev: get("ev"),
    finding: get("finding"),
    pat: get("pat"),
    xpat: get("xpat"),
    xfrom: get("xfrom"),
    xto: get("xto"),
    xbase: get("xbase"),
  };
  // undefined must fall to the defaults, not to `catch` noise
  return ZViewState.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v ?? null])));
}

/** Per-field parse for URL libraries (nuqs): the value, or null when damaged (= default). */
export const viewStateField = {
  instant: (s: string): number | null => ZInstant.safeParse(s).data ?? null,
  lanes: (s: string): TLane[] | null => ZLanes.safeParse(s).data ?? null,
  sev: (s: string): number | null => ZSeverity.safeParse(s).data ?? null,
  q: (s: string): string | null => ZSearch.safeParse(s).data ?? null,
  match: (s: string): TTextMatchMode | null => ZMatch.safeParse(s).data ?? null,
  pod: (s: string): string | null => ZPod.safeParse(s).data || null,
  kind: (s: string): string | null => ZKind.safeParse(s).data ?? null,
  ev: (s: string): string | null => ZEventId.safeParse(s).data ?? null,
  finding: (s: string): number | null => ZFindingId.safeParse(s).data ?? null,
  pat: (s: string): string | null => ZPatternKey.safeParse(s).data ?? null,
  xpat: (s: string): string[] | null => ZPatternKeys.safeParse(s).data ?? null,
  offset: (s: string): number | null => ZOffsetMs.safeParse(s).data ?? null,
  xbase: (s: string): TExplainBaseline | null => ZExplainBaseline.safeParse(s).data ?? null,
  /** instants are written as ISO 8601 UTC with ms: readable permalinks */
  serializeInstant: (ms: number): string => new Date(ms).toISOString(),
  serializeLanes: (ls: readonly TLane[]): string => LANES.filter((l) => ls.includes(l)).join(","),
  /** a T+ offset (ms) as seconds, no trailing zeros: 12500 → `12.5`, -3000 → `-3` */
  serializeOffset: (ms: number): string => String(Math.round(ms) / 1000),
} as const;

/** True when `lanes` is the full default set (then it is left out of the URL). */
export function isAllLanes(ls: readonly TLane[]): boolean {
  return LANES.every((l) => ls.includes(l));
}

/** The query string for a view state, defaults left out (`?` included when not empty). */
export function serializeViewState(v: Partial<TViewState>): string {
  const p = new URLSearchParams();
  if (v.from != null) p.set("from", viewStateField.serializeInstant(v.from));
  if (v.to != null) p.set("to", viewStateField.serializeInstant(v.to));
  if (v.lanes && !isAllLanes(v.lanes)) p.set("lanes", viewStateField.serializeLanes(v.lanes));
  if (v.sev) p.set("sev", String(v.sev));
  if (v.q) p.set("q", v.q);
  if (v.match === "substring") p.set("match", "substring");
  if (v.pod) p.set("pod", v.pod);
  if (v.kind) p.set("kind", v.kind);
  if (v.ev) p.set("ev", v.ev);
  if (v.finding) p.set("finding", String(v.finding));
  if (v.pat) p.set("pat", v.pat);
  if (v.xpat?.length) p.set("xpat", v.xpat.join(","));
  if (v.xfrom != null && v.xto != null && isExplainRange(v.xfrom, v.xto)) {
    p.set("xfrom", viewStateField.serializeOffset(v.xfrom));
    p.set("xto", viewStateField.serializeOffset(v.xto));
    if (v.xbase && v.xbase !== "before") p.set("xbase", v.xbase);
  }
  // keep `:` and `,` readable in permalinks (both are allowed in a query string)
  const s = p.toString().replace(/%3A/gi, ":").replace(/%2C/gi, ",");
  return s ? `?${s}` : "";
}

/**
 * The view that shows a finding: its window with 15% (at least 1 s) on each side, the
 * finding selected. An open window (no end) runs to `openEndMs`, default one minute.
 */
export function findingView(f: { id: number; startMs: number; endMs: number | null }, openEndMs?: number): Pick<TViewState, "from" | "to" | "finding"> {
  const end = f.endMs ?? openEndMs ?? f.startMs + 60_000;
  const pad = Math.max(1000, Math.round((end - f.startMs) * 0.15));
  return { from: f.startMs - pad, to: Math.max(end, f.startMs) + pad, finding: f.id };
}

/** Path of a node boot page (node and boot key URL-encoded), with an optional view. */
export function bootPath(incidentId: string, node: string, bootKey: string, view?: Partial<TViewState>): string {
  return `/i/${encodeURIComponent(incidentId)}/n/${encodeURIComponent(node)}/b/${encodeURIComponent(bootKey)}${view ? serializeViewState(view) : ""}`;
}
