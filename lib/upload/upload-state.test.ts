import { describe, expect, it } from "vitest";
import { IDLE, isBusy, mergeFiles, parseLabel, pasteFileName, pasteSize, type TUploadStage, textKey, uploadReducer } from "./upload-state";

const result = { incidentId: "inc1", bundleId: "b1" };
const run = (stage: TUploadStage, ...actions: Parameters<typeof uploadReducer>[1][]) => actions.reduce(uploadReducer, stage);

describe("uploadReducer", () => {
  it("goes idle → uploading → parsing, keeping the total when the browser cannot tell it", () => {
    const up = run(IDLE, { type: "start", total: 5000 }, { type: "progress", loaded: 1200, total: 0 });
    expect(up).toEqual({ kind: "uploading", loaded: 1200, total: 5000 });
    expect(uploadReducer(up, { type: "progress", loaded: 3000, total: 5100 })).toEqual({ kind: "uploading", loaded: 3000, total: 5100 });
    expect(uploadReducer(up, { type: "uploaded", result, newIncident: true })).toEqual({ kind: "parsing", result, newIncident: true });
  });

  it("a failed upload is an error without a result; a failed parse keeps the upload's result", () => {
    expect(run(IDLE, { type: "start", total: 10 }, { type: "failed", message: "upload cancelled" })).toEqual({ kind: "error", message: "upload cancelled" });
    const parsing: TUploadStage = { kind: "parsing", result, newIncident: false };
    expect(uploadReducer(parsing, { type: "failed", message: "no log format read" })).toEqual({
      kind: "error",
      message: "no log format read",
      result,
      newIncident: false,
    });
  });

  it("refuses a second start, a check's error or progress out of turn (the same stage back)", () => {
    const parsing: TUploadStage = { kind: "parsing", result, newIncident: true };
    expect(uploadReducer(parsing, { type: "start", total: 1 })).toBe(parsing);
    expect(uploadReducer(parsing, { type: "invalid", message: "x" })).toBe(parsing);
    expect(uploadReducer(parsing, { type: "progress", loaded: 1, total: 1 })).toBe(parsing);
    expect(uploadReducer(IDLE, { type: "failed", message: "x" })).toBe(IDLE);
    expect(uploadReducer(IDLE, { type: "uploaded", result, newIncident: true })).toBe(IDLE);
  });

  it("new input clears an error, not a running upload; dismissing marks it and a failed delete says so", () => {
    const err = run(IDLE, { type: "invalid", message: "choose at least one file to upload, or paste log text" });
    expect(err).toEqual({ kind: "error", message: "choose at least one file to upload, or paste log text" });
    expect(uploadReducer(err, { type: "input" })).toBe(IDLE);
    const up = uploadReducer(IDLE, { type: "start", total: 1 });
    expect(uploadReducer(up, { type: "input" })).toBe(up);
    const failed: TUploadStage = { kind: "error", message: "parse failed", result, newIncident: true };
    const deleting = uploadReducer(failed, { type: "dismissing" });
    expect(deleting).toMatchObject({ dismissing: true });
    expect(uploadReducer(deleting, { type: "input" })).toBe(deleting);
    expect(uploadReducer(deleting, { type: "dismissFailed", message: "403 forbidden" })).toEqual({
      ...failed,
      dismissing: false,
      message: "parse failed (and the incident could not be deleted: 403 forbidden)",
    });
    expect(uploadReducer(deleting, { type: "dismissed" })).toBe(IDLE);
  });

  it("is busy while uploading or parsing only", () => {
    expect(
      [IDLE, { kind: "uploading", loaded: 0, total: 1 }, { kind: "parsing", result, newIncident: false }, { kind: "error", message: "x" }].map((s) =>
        isBusy(s as TUploadStage),
      ),
    ).toEqual([false, true, true, false]);
  });
});

describe("paste and files", () => {
  it("names a paste after its UTC minute", () => {
    expect(pasteFileName(new Date("2026-03-14T02:07:59.900Z"))).toBe("pasted-2026-03-14-0207.log");
  });

  it("adds only files not there yet (same name and size)", () => {
    const a = { name: "a.log", size: 10 };
    const b = { name: "b.tgz", size: 20 };
    expect(mergeFiles([a], [{ name: "a.log", size: 10 }, b, { name: "a.log", size: 11 }, { name: "b.tgz", size: 20 }])).toEqual([
      a,
      b,
      { name: "a.log", size: 11 },
    ]);
  });

  it("counts lines and UTF-8 bytes", () => {
    expect(pasteSize("")).toEqual({ lines: 0, bytes: 0 });
    expect(pasteSize("a\nb\n")).toEqual({ lines: 2, bytes: 4 });
    expect(pasteSize("a\nbé")).toEqual({ lines: 2, bytes: 5 });
  });

  it("labels the parse bar from the bundle's status", () => {
    const phase = (p: string) => `phase ${p}`;
    expect(parseLabel(undefined, false, phase)).toBe("waiting for the parser");
    expect(parseLabel({ status: "queued", phase: "" }, false, phase)).toBe("queued");
    expect(parseLabel({ status: "parsing", phase: "unpack" }, false, phase)).toBe("phase unpack");
    expect(parseLabel({ status: "ready", phase: "" }, true, phase)).toBe("stored, opening the incident…");
    expect(parseLabel({ status: "ready", phase: "" }, false, phase)).toBe("done ✓");
  });
});

describe("textKey", () => {
  it("is the length and a hash: equal texts alike, a changed character not", () => {
    const a = 'I0314 02:30:01.100200    1234 kubelet.go:2321] "Starting kubelet main sync loop"';
    expect(textKey(a)).toBe(textKey(`${a}`));
    expect(textKey(a)).toMatch(/^80:[0-9a-z]+$/);
    expect(textKey(a.replace("I0314", "I0315"))).not.toBe(textKey(a));
    expect(textKey("")).toMatch(/^0:/);
  });
});
