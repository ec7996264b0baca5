/**
 * One boot's attempts, computed once per detector run: `runDetectors` hands the same
 * sorted events array to every detector, and four of them read the same attempts
 * (`collectAttempts`; docs/definitions.md "Attempt"). The cache is keyed by that array (weakly: it
 * goes with the array) and the grouping parameters, so results are exactly what
 * `collectAttempts` returns; callers must not change the attempts.
 */
import type { BootEvent } from "./types";
import { collectAttempts, type Attempt } from "./attempts";

const cache = new WeakMap<BootEvent[], Map<string, Attempt[]>>();

/** `collectAttempts(events, p)`, shared between the detectors of one run. */
export function attemptsOf(events: BootEvent[], p: { joinS: number; eventSlackS: number }): Attempt[] {
  let byParams = cache.get(events);
  if (!byParams) cache.set(events, (byParams = new Map()));
  const key = `${p.joinS}|${p.eventSlackS}`;
  let a = byParams.get(key);
  if (!a) byParams.set(key, (a = collectAttempts(events, p)));
  return a;
}
