/**
 * Loads what the timeline picture of one node boot's view needs (lib/export/timeline-picture.ts):
 * the boot page's data (incident, node, boot N of M, failure windows, milestones), the
 * lane density of the range and the boot's notes. `ApiError("not_found")` when the boot is
 * not in the incident. `theme` picks the palette (dark unless asked). Range defaults to the whole boot; `other` is drawn only when it has
 * events or is asked for.
 */
import { listAnnotations } from "@/lib/annotations/list-annotations";
import { getBootViewById, type TBootView } from "@/lib/queries/get-boot-view";
import { getLaneDensity } from "@/lib/queries/get-lane-density";
import { FAILURE_WINDOW_DETECTOR, LANES, type TLane } from "@/lib/view/lanes";
import { layoutTimelinePicture, type TPicture, type TPictureThemeName, type TPictureWindow } from "./timeline-picture";

/** Buckets drawn across the picture's plot (about 4 px each). */
const PICTURE_BUCKETS = 240;

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The failure windows of a boot view with their numbers, by start. */
export function pictureWindows(view: TBootView): TPictureWindow[] {
  return view.findings
    .filter((f) => f.detector === FAILURE_WINDOW_DETECTOR)
    .sort((a, b) => a.startMs - b.startMs)
    .map((f) => ({
      id: f.id,
      startMs: f.startMs,
      endMs: f.endMs,
      attempts: num(f.metrics.attempts),
      pods: num(f.metrics.pods),
      errorClass: typeof f.metrics.errorClass === "string" ? f.metrics.errorClass : undefined,
    }));
}

export async function getTimelinePicture(opts: {
  incidentId: string;
  bootId: number;
  from?: number | null;
  to?: number | null;
  lanes?: readonly TLane[] | null;
  url?: string;
  /** palette (default dark) */
  theme?: TPictureThemeName;
}): Promise<{ picture: TPicture; view: TBootView; from: number; to: number }> {
  const view = await getBootViewById(opts);
  let from = opts.from ?? view.range.fromMs;
  let to = opts.to ?? view.range.toMs;
  if (!(from < to)) [from, to] = [view.range.fromMs, view.range.toMs];
  const asked = opts.lanes && opts.lanes.length ? LANES.filter((l) => opts.lanes!.includes(l)) : null;
  const [density, notes] = await Promise.all([
    getLaneDensity({ incidentId: opts.incidentId, bootId: opts.bootId, fromMs: from, toMs: to, lanes: asked ?? LANES, buckets: PICTURE_BUCKETS }),
    listAnnotations({ incidentId: opts.incidentId, bootId: opts.bootId }),
  ]);
  if (!asked) density.lanes = density.lanes.filter((l) => l.lane !== "other" || l.total > 0);
  const picture = layoutTimelinePicture(
    {
      title: view.incident.title,
      node: view.node.name,
      boot: { key: view.boot.bootKey, index: view.boot.index, count: view.boot.count, t0: view.boot.startMs },
      from,
      to,
      density,
      windows: pictureWindows(view),
      dataEndMs: view.extent?.lastMs ?? view.boot.endMs ?? view.range.toMs,
      milestones: view.milestones.map((m) => ({ label: m.label, ts: m.ts })),
      notes: notes.map((n) => ({ ts: n.ts, text: n.text })),
      url: opts.url,
    },
    opts.theme ?? "dark",
  );
  return { picture, view, from, to };
}

/** The palette a picture request asks for: `?theme=light` or `?theme=dark` (anything else, and none: dark). */
export function pictureThemeOf(req: Request): TPictureThemeName {
  return new URL(req.url).searchParams.get("theme") === "light" ? "light" : "dark";
}
