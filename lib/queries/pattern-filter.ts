/**
 * The events filter's message templates (event-filter.ts `patterns`) from their keys in the URL
 * (`pat`: the one template shown, `xpat`: those hidden; lib/patterns/merge.ts `patternKey`): the
 * boot's stored patterns are read (a few rows) and each key becomes its template's `LIKE`
 * patterns. A key the boot does not have (an old link) is dropped.
 */
import { getDb } from "@/lib/db/connection";
import { bootPatterns } from "../incidents/boot-patterns";
import { likePatterns } from "../patterns/merge";
import type { TEventFilter } from "./event-filter";

/** `f` with `patterns` set from the keys (unchanged when neither is given). */
export async function withPatternFilter<F extends TEventFilter>(f: F, keys: { pat?: string | null; xpat?: readonly string[] }): Promise<F> {
  const hideKeys = keys.xpat ?? [];
  if (!keys.pat && !hideKeys.length) return f;
  const byKey = new Map((await bootPatterns(await getDb(), f.incidentId, f.bootId)).map((p) => [p.key, p.template]));
  const show = keys.pat ? byKey.get(keys.pat) : undefined;
  const hide = hideKeys.flatMap((k) => (byKey.has(k) ? [likePatterns(byKey.get(k)!)] : []));
  if (!show && !hide.length) return f;
  return { ...f, patterns: { show: show ? likePatterns(show) : null, hide } };
}
