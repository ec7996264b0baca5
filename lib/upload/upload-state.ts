/**
 * The upload panel's flow as a state machine, pure (components/upload/use-upload-flow.ts runs it):
 *
 *   idle ──start──▶ uploading ──progress──▶ uploading
 *                      │ uploaded              │ failed (upload refused, network, cancelled)
 *                      ▼                       ▼
 *                   parsing ──failed──▶ error (with the upload's result: the parse failed)
 *   idle / error ──invalid──▶ error (a field is wrong, nothing sent)
 *   error ──input / dismissed──▶ idle; error ──dismissing──▶ error (deleting its incident)
 *
 * A parsing upload that turns `ready` leaves the flow: the page moves to the incident. Sizes are
 * bytes; `result` is what `POST /api/uploads` answered.
 */

/** What `POST /api/uploads` answers: where the upload went. */
export interface TUploadResult {
  incidentId: string;
  bundleId: string;
}

export type TUploadStage =
  | { kind: "idle" }
  | { kind: "uploading"; loaded: number; total: number }
  | { kind: "parsing"; result: TUploadResult; newIncident: boolean }
  | { kind: "error"; message: string; result?: TUploadResult; newIncident?: boolean; dismissing?: boolean };

export type TUploadAction =
  /** the bytes start going up; `total` bytes of files */
  | { type: "start"; total: number }
  /** upload progress; `total` 0 when the browser cannot tell (the start's total is kept) */
  | { type: "progress"; loaded: number; total: number }
  /** the server took the upload; `newIncident` when it started one */
  | { type: "uploaded"; result: TUploadResult; newIncident: boolean }
  /** the upload or its parse failed, in words */
  | { type: "failed"; message: string }
  /** a field or the choice of files is wrong: nothing was sent */
  | { type: "invalid"; message: string }
  /** the reviewer changed the files or the pasted text: an error is cleared */
  | { type: "input" }
  /** the failed upload's incident is being deleted */
  | { type: "dismissing" }
  /** deleting it failed: the error says so too */
  | { type: "dismissFailed"; message: string }
  /** the error is dismissed (and its incident deleted, when it started one) */
  | { type: "dismissed" };

export const IDLE: TUploadStage = { kind: "idle" };

/** The next stage; an action that does not apply to the stage leaves it as it is (the same object). */
export function uploadReducer(stage: TUploadStage, action: TUploadAction): TUploadStage {
  switch (action.type) {
    case "start":
      return isBusy(stage) ? stage : { kind: "uploading", loaded: 0, total: action.total };
    case "progress":
      return stage.kind === "uploading" ? { kind: "uploading", loaded: action.loaded, total: action.total || stage.total } : stage;
    case "uploaded":
      return stage.kind === "uploading" ? { kind: "parsing", result: action.result, newIncident: action.newIncident } : stage;
    case "failed":
      if (stage.kind === "uploading") return { kind: "error", message: action.message };
      if (stage.kind === "parsing") return { kind: "error", message: action.message, result: stage.result, newIncident: stage.newIncident };
      return stage;
    case "invalid":
      return isBusy(stage) ? stage : { kind: "error", message: action.message };
    case "input":
      return stage.kind === "error" && !stage.dismissing ? IDLE : stage;
    case "dismissing":
      return stage.kind === "error" ? { ...stage, dismissing: true } : stage;
    case "dismissFailed":
      return stage.kind === "error"
        ? { ...stage, dismissing: false, message: `${stage.message} (and the incident could not be deleted: ${action.message})` }
        : stage;
    case "dismissed":
      return stage.kind === "error" ? IDLE : stage;
  }
}

/** True while the bytes go up or the parse runs: the form is locked. */
export function isBusy(stage: TUploadStage): boolean {
  return stage.kind === "uploading" || stage.kind === "parsing";
}

/** The file name of a paste made at `d`: `pasted-<yyyy-mm-dd-hhmm>.log`, UTC. */
export function pasteFileName(d: Date): string {
  const iso = d.toISOString();
  return `pasted-${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}.log`;
}

/** `prev` with the files of `add` it does not hold yet (the same name and size is the same file), in order. */
export function mergeFiles<F extends { name: string; size: number }>(prev: readonly F[], add: readonly F[]): F[] {
  const seen = new Set(prev.map((f) => `${f.name}:${f.size}`));
  const out = [...prev];
  for (const f of add) {
    const k = `${f.name}:${f.size}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(f);
  }
  return out;
}

/** Lines of a pasted text (a last newline ends a line, it starts none) and its UTF-8 bytes. */
export function pasteSize(text: string): { lines: number; bytes: number } {
  const lines = text ? text.split("\n").length - (text.endsWith("\n") ? 1 : 0) : 0;
  return { lines, bytes: new TextEncoder().encode(text).length };
}

/** The parse bar's label for a bundle's status (`GET /api/bundles/:id`); `opening`: the page is moving to the incident. */
export function parseLabel(s: { status: string; phase: string } | undefined, opening: boolean, phaseLabel: (phase: string) => string): string {
  if (!s) return "waiting for the parser";
  if (s.status === "queued") return "queued";
  if (s.status === "ready") return opening ? "stored, opening the incident…" : "done ✓";
  return phaseLabel(s.phase);
}

/**
 * A short key for a text of up to megabytes (a query key holds it, not the text): its length and
 * a 53-bit hash (cyrb53), `<length>:<base 36>`. Equal texts have equal keys.
 */
export function textKey(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${text.length}:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}
