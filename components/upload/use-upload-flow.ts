"use client";
/**
 * The upload flow of the upload panel (the state machine in lib/upload/upload-state.ts): checks
 * the form, sends the files with upload progress (components/upload/upload-request.ts), polls
 * the bundle's parse, and goes to the incident when it is ready. While the bytes are still going
 * up, leaving the page (reload, Back, closing the tab, a link) asks first: the upload would be
 * lost. "Dismiss" on a failed parse of a bundle that started a new incident deletes that
 * incident (nothing of it is usable). The incident list is invalidated when an upload is stored,
 * when it is ready or failed, and when it is dismissed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useReducer, useRef, useTransition } from "react";
import { fetchJson } from "@/components/data/fetch-json";
import { queryKeys } from "@/components/data/query-keys";
import { useBundleStatusQuery } from "@/components/data/use-bundle-status-query";
import { checkUploadFields, type TUploadFieldText } from "@/lib/upload/upload-fields";
import { IDLE, isBusy, uploadReducer } from "@/lib/upload/upload-state";
import { buildUploadForm, uploadWithProgress } from "./upload-request";

/** What the form holds when it is sent. */
export interface TUploadInput {
  files: File[];
  target: "new" | "existing";
  title: string;
  incidentId: string;
  fields: TUploadFieldText;
}

/** While `active`, leaving the page asks first: the browser's own prompt, and a confirm on a link of the page. */
function useLeaveGuard(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.("a[href]");
      if (!a || a.getAttribute("target") === "_blank") return;
      if (!window.confirm("The upload is still in progress and leaving the page stops it. Leave anyway?")) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [active]);
}

export function useUploadFlow() {
  const router = useRouter();
  const qc = useQueryClient();
  const [stage, dispatch] = useReducer(uploadReducer, IDLE);
  const abortRef = useRef<(() => void) | null>(null);
  const busy = isBusy(stage);

  const status = useBundleStatusQuery(stage.kind === "parsing" ? stage.result.bundleId : null);
  const s = status.data;
  // stored is not done: done is the incident open with its data, so the bar says "opening" until
  // the incident page has rendered (the navigation's transition ends; this panel is gone by then)
  const [opening, startOpening] = useTransition();
  const openedRef = useRef<string | null>(null);
  useEffect(() => {
    if (stage.kind !== "parsing" || !s) return;
    if (s.status === "ready") {
      if (openedRef.current === s.id) return;
      openedRef.current = s.id;
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      startOpening(() => router.push(`/i/${encodeURIComponent(stage.result.incidentId)}`));
    } else if (s.status === "failed") {
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      dispatch({ type: "failed", message: s.error || "parsing failed" });
    }
  }, [s, stage, router, qc]);
  useEffect(() => {
    if (stage.kind === "parsing" && status.error) dispatch({ type: "failed", message: `lost track of the parse: ${(status.error as Error).message}` });
  }, [status.error, stage.kind]);

  useLeaveGuard(stage.kind === "uploading");

  const submit = async (input: TUploadInput) => {
    if (busy) return;
    if (input.files.length === 0) return dispatch({ type: "invalid", message: "choose at least one file to upload, or paste log text" });
    if (input.target === "existing" && !input.incidentId) return dispatch({ type: "invalid", message: "choose the incident to add to" });
    const checked = checkUploadFields(input.fields);
    if (!checked.ok) return dispatch({ type: "invalid", message: checked.message });
    const { collectedMs } = checked.options;
    const form = buildUploadForm({
      files: input.files,
      title: input.target === "new" ? input.title : undefined,
      incidentId: input.target === "existing" ? input.incidentId : undefined,
      node: input.fields.node,
      tz: input.fields.tz,
      year: input.fields.year,
      collected: collectedMs === undefined ? undefined : new Date(collectedMs).toISOString(),
    });
    const total = input.files.reduce((n, f) => n + f.size, 0);
    dispatch({ type: "start", total });
    const req = uploadWithProgress("/api/uploads", form, (loaded, t) => dispatch({ type: "progress", loaded, total: t }));
    abortRef.current = req.abort;
    try {
      const result = await req.promise;
      dispatch({ type: "uploaded", result, newIncident: input.target === "new" });
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
    } catch (err) {
      dispatch({ type: "failed", message: (err as Error).message });
    } finally {
      abortRef.current = null;
    }
  };

  /** Clears a failed upload's error; a new incident it made goes with it (after a confirm). */
  const dismiss = async () => {
    if (stage.kind !== "error") return;
    if (stage.result && stage.newIncident) {
      if (!window.confirm("Delete the incident this upload started? Nothing of it could be parsed.")) return;
      dispatch({ type: "dismissing" });
      try {
        await fetchJson(`/api/incidents/${encodeURIComponent(stage.result.incidentId)}`, { method: "DELETE" });
      } catch (err) {
        return dispatch({ type: "dismissFailed", message: (err as Error).message });
      }
      void qc.invalidateQueries({ queryKey: queryKeys.incidents() });
      router.refresh();
    }
    dispatch({ type: "dismissed" });
  };

  /** The files or the pasted text changed: an error is cleared. */
  const touched = useCallback(() => dispatch({ type: "input" }), []);

  return {
    stage,
    busy,
    /** the bundle's parse status while parsing */
    status: s,
    /** true from "ready" until the incident page shows */
    opening: opening || (s?.status === "ready" && openedRef.current !== s.id),
    submit,
    cancel: () => abortRef.current?.(),
    dismiss,
    touched,
  };
}
