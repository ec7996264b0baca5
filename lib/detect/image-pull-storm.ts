/**
 * Detector `image-pull-storm`: image pulls failing in the first minutes after a reboot. Every
 * pod the node starts pulls (or checks) its image at once, so a registry that rate-limits, a
 * resolver or a route that is not up yet, or credentials that arrive late fail many pulls
 * together, and pods wait in `ImagePullBackOff` on top of any sandbox failures.
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted; those of kind `image.pull.failed`
 * (lib/model/event-kinds.ts) with a time. A pull is one image's failure as the kubelet, the
 * runtime and a Kubernetes event each report it: failure lines naming the same image within
 * `samePullS` of a counted pull are that pull (their ids join its evidence). An event with a
 * count (`xN over D`) stands for N pulls spread evenly over D.
 *
 * Finding, folded (lib/detect/parts.ts), one per boot at most: when at least `minPulls` pulls
 * failed within some `withinS`-long interval starting in the first `sinceBootS` after T+0. It
 * spans the failed pulls from T+0 to `sinceBootS` + `withinS`; its parts are the images (pulls,
 * pods, cause, first and last T+), its cause the one most pulls give (image-pull-causes.ts).
 * Severity high from `highPulls` pulls, else medium.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding } from "./types";
import { PULL_CAUSES, pullCauseOf } from "./image-pull-causes";
import { fmtT, isoOf, plural, sec } from "./numbers";
import type { FindingPart } from "./parts";

/** Thresholds, with units in their names. */
export interface ImagePullStormParams extends Record<string, number> {
  /** failed pulls within `withinS` from which it is a storm: more than a pod or two retrying one bad tag (the kubelet's backoff retries one image at 10, 20, 40 s) */
  minPulls: number;
  /** length of the interval the pulls are counted in, s */
  withinS: number;
  /** the storm must begin within this long after T+0, s: "after the reboot" */
  sinceBootS: number;
  /** failure lines of one image within this many seconds are one pull, s (the kubelet, the runtime and the event report it within a second) */
  samePullS: number;
  /** pulls from which the storm is high severity */
  highPulls: number;
}

export const defaults: ImagePullStormParams = { minPulls: 6, withinS: 300, sinceBootS: 900, samePullS: 2, highPulls: 30 };

export const name = "image-pull-storm";
export const title = "Image pull storm after the reboot";

export function describe(p: ImagePullStormParams): string {
  return `At least ${p.minPulls} failed image pulls within ${p.withinS} s, beginning in the first ${p.sinceBootS} s after boot (lines about one image within ${p.samePullS} s are one pull); high severity from ${p.highPulls} pulls.`;
}

/** One failed pull: its time, image, pod (when a line names it), cause and the lines that report it. */
interface Pull {
  ts: number;
  image: string;
  pod: string | null;
  cause: string | null;
  ids: number[];
}

/** One row of the storm's image table (`metrics.parts`). */
export interface ImagePart extends FindingPart {
  image: string;
  pulls: number;
  pods: number;
  cause: string | null;
  firstAfterBootS: number;
  lastAfterBootS: number;
}

/** klog's `image="<ref>"` pair, kept in the message text of a structured line */
const IMAGE_PAIR = /(?:^|\s)image=\\*"([^"\\]+)\\*"/;
/** the quoted reference after `pull image`, `PullImage`, `pull and unpack image` */
const IMAGE_IN_TEXT = /(?:pull(?:ing)? image|PullImage|pull and unpack image) \\*"([^"\\]+)\\*"/i;

/** The image a failure line names: its `image` field or pair, else the quoted reference after `pull image` / `PullImage`. */
export function imageOf(e: Pick<BootEvent, "message" | "fields">): string | null {
  const f = e.fields?.image;
  if (f) return f;
  return IMAGE_PAIR.exec(e.message)?.[1] ?? IMAGE_IN_TEXT.exec(e.message)?.[1] ?? null;
}

/** The boot's failed pulls, one per pull (see the module comment), in time order. */
export function pullsOf(events: readonly BootEvent[], p: ImagePullStormParams): Pull[] {
  const pulls: Pull[] = [];
  const last = new Map<string, Pull>();
  for (const e of events) {
    if (e.kind !== "image.pull.failed" || e.ts === null) continue;
    const image = imageOf(e) ?? "(image not named)";
    const cause = pullCauseOf(e.message)?.key ?? null;
    const n = Math.max(1, e.k8s?.count ?? 1);
    const firstMs = n > 1 && e.k8s?.firstMs != null ? e.k8s.firstMs : e.ts;
    for (let i = 0; i < n; i++) {
      const ts = n > 1 ? Math.round(firstMs + ((e.ts - firstMs) * i) / (n - 1)) : e.ts;
      const prev = last.get(image);
      if (prev && ts - prev.ts <= p.samePullS * 1000) {
        if (!prev.ids.includes(e.id)) prev.ids.push(e.id);
        prev.pod ??= e.pod;
        prev.cause ??= cause;
        continue;
      }
      const pull = { ts, image, pod: e.pod, cause, ids: [e.id] };
      pulls.push(pull);
      last.set(image, pull);
    }
  }
  return pulls.sort((a, b) => a.ts - b.ts);
}

export function run(boot: BootInfo, events: BootEvent[], params: ImagePullStormParams = defaults): Finding[] {
  const p = { ...defaults, ...params };
  const early = pullsOf(events, p).filter((x) => x.ts - boot.start <= (p.sinceBootS + p.withinS) * 1000);
  // the busiest interval that starts at a pull in the first sinceBootS
  let peak = { count: 0, at: 0 };
  for (let i = 0, j = 0; i < early.length; i++) {
    if (early[i].ts - boot.start > p.sinceBootS * 1000) break;
    while (j < early.length && early[j].ts < early[i].ts + p.withinS * 1000) j++;
    if (j - i > peak.count) peak = { count: j - i, at: early[i].ts };
  }
  if (peak.count < p.minPulls) return [];
  const t0 = boot.start;
  const byImage = new Map<string, Pull[]>();
  for (const x of early) byImage.set(x.image, [...(byImage.get(x.image) ?? []), x]);
  const parts: ImagePart[] = [...byImage]
    .map(([image, list]) => ({
      key: image,
      startMs: list[0].ts,
      endMs: list[list.length - 1].ts,
      image,
      pulls: list.length,
      pods: new Set(list.map((x) => x.pod).filter(Boolean)).size,
      cause: topCause(list),
      firstAfterBootS: sec(list[0].ts - t0),
      lastAfterBootS: sec(list[list.length - 1].ts - t0),
    }))
    .sort((a, b) => b.pulls - a.pulls || a.startMs - b.startMs);
  const cause = topCause(early);
  const spec = cause ? pullCauseOfKey(cause) : null;
  const first = early[0].ts;
  const end = early[early.length - 1].ts;
  const causes = countBy(early.map((x) => x.cause ?? "unknown"));
  const text = [
    `${plural(early.length, "image pull")} failed between ${fmtT(sec(first - t0))} and ${fmtT(sec(end - t0))} (${plural(byImage.size, "image")}); ${peak.count} of them within ${p.withinS} s from ${fmtT(sec(peak.at - t0))}.`,
    spec ? `Most say ${spec.words}: check ${spec.next}` : "The failure lines do not name a cause bootline knows: read the first one.",
    `Pods waiting for their images stay in ImagePullBackOff, the kubelet retrying each at growing intervals (10 s doubling to 5 min).`,
    `Each image's pulls, pods and cause are in the image table.`,
  ];
  return [
    {
      detector: name,
      severity: early.length >= p.highPulls ? "high" : "medium",
      start: first,
      end,
      title: `Image pull storm: ${plural(early.length, "failed pull")} of ${plural(byImage.size, "image")} from ${fmtT(sec(first - t0))}${spec ? ` (${spec.words})` : ""}`,
      explanation: text.join(" "),
      metrics: {
        scope: "node",
        pullCause: cause,
        pullCauses: causes,
        failedPulls: early.length,
        images: byImage.size,
        peakPulls: peak.count,
        peakAt: isoOf(peak.at),
        peakAfterBootS: sec(peak.at - t0),
        withinS: p.withinS,
        partsOf: "image",
        parts,
      },
      evidence: early.flatMap((x) => x.ids),
    },
  ];
}

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

/** The cause most of `pulls` give (ties: the one met first); null when none names one. */
function topCause(pulls: readonly Pull[]): string | null {
  let best: string | null = null;
  let bestN = 0;
  const n = new Map<string, number>();
  for (const x of pulls) {
    if (!x.cause) continue;
    const c = (n.get(x.cause) ?? 0) + 1;
    n.set(x.cause, c);
    if (c > bestN) [best, bestN] = [x.cause, c];
  }
  return best;
}

const pullCauseOfKey = (key: string) => PULL_CAUSES.find((c) => c.key === key) ?? null;

export const imagePullStorm: Detector<ImagePullStormParams> = { name, title, defaults, describe, run };
