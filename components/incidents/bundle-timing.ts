/**
 * How long a finished bundle took, in words for its header: from its upload (the `Bundle` row's
 * creation, once every file of the upload is on the server) to ready or failed, then the part its
 * run took (`startedAt` to `finishedAt`: unpack, parse, store, detect). Times in ms since the epoch;
 * "" while the bundle has not finished.
 */
export function bundleTiming(b: { status: string; createdAt: number; startedAt: number | null; finishedAt: number | null }): string {
  if (b.finishedAt === null || (b.status !== "ready" && b.status !== "failed")) return "";
  const total = `${b.status} ${secs(b.finishedAt - b.createdAt)} after upload`;
  return b.startedAt === null ? total : `${total}; processing took ${secs(b.finishedAt - b.startedAt)}`;
}

/** Seconds from ms: one decimal below 10 s, whole seconds above. */
function secs(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
}
