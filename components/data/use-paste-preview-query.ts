"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { TPreview } from "@/lib/ingest/preview-text";
import type { TUploadOptions } from "@/lib/upload/upload-fields";
import { textKey } from "@/lib/upload/upload-state";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** A paste to preview: the text, the file name it would be uploaded as, the form's checked options. */
export interface TPastePreviewRequest {
  text: string;
  name?: string;
  options: TUploadOptions;
}

/**
 * `POST /api/preview` (nothing stored): what bootline recognises in a pasted text; off while
 * `req` is null. The key holds the text's hash (lib/upload/upload-state.ts `textKey`), not the
 * text; a newer key cancels the older request; the last preview stays shown while the next loads.
 * Debounce `req` (the key), not this hook.
 */
export function usePastePreviewQuery(req: TPastePreviewRequest | null) {
  const o = req?.options ?? {};
  // hashed once per text, not per render (a paste may be megabytes)
  const text = req?.text ?? null;
  const hashed = useMemo(() => (text === null ? "" : textKey(text)), [text]);
  const k = { textKey: hashed, name: req?.name, node: o.node, tz: o.tz, year: o.year, collectedMs: o.collectedMs };
  return useQuery({
    queryKey: queryKeys.pastePreview(k),
    queryFn: ({ signal }) =>
      fetchJson<TPreview>("/api/preview", {
        method: "POST",
        headers: { "content-type": "application/json" },
        signal,
        body: JSON.stringify({
          text: req?.text ?? "",
          name: k.name,
          node: k.node,
          tz: k.tz,
          year: k.year,
          collected: k.collectedMs === undefined ? undefined : new Date(k.collectedMs).toISOString(),
        }),
      }),
    enabled: req !== null,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
