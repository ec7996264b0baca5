/**
 * `POST /api/uploads` through XMLHttpRequest so the browser reports upload progress
 * (fetch cannot). Resolves with the JSON body on 2xx; rejects with an ApiClientError
 * carrying the API's error message otherwise.
 */
import { ApiClientError, errorFromBody } from "@/components/data/fetch-json";
import type { TUploadResult } from "@/lib/upload/upload-state";

export type { TUploadResult };

export interface TUploadFields {
  files: File[];
  title?: string;
  incidentId?: string;
  node?: string;
  tz?: string;
  year?: string;
  collected?: string;
}

/** Multipart field name for the files (repeated once per file). */
export const FILES_FIELD = "files";

export function buildUploadForm(f: TUploadFields): FormData {
  const form = new FormData();
  // text fields first: the server may read them before it streams the files
  for (const k of ["title", "incidentId", "node", "tz", "year", "collected"] as const) {
    const v = f[k]?.trim();
    if (v) form.append(k, v);
  }
  for (const file of f.files) form.append(FILES_FIELD, file, file.name);
  return form;
}

export function uploadWithProgress(
  url: string,
  form: FormData,
  onProgress: (loaded: number, total: number) => void,
): { promise: Promise<TUploadResult>; abort(): void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<TUploadResult>((resolve, reject) => {
    xhr.open("POST", url);
    xhr.responseType = "text";
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const b = body as Partial<TUploadResult> | null;
        if (b && typeof b.incidentId === "string" && typeof b.bundleId === "string") resolve({ incidentId: b.incidentId, bundleId: b.bundleId });
        else reject(new ApiClientError(xhr.status, "bad_response", "the server accepted the upload but did not say where it went"));
      } else {
        const hint = xhr.status === 413 ? "the upload is too large" : `upload failed (${xhr.status} ${xhr.statusText})`;
        reject(errorFromBody(xhr.status, body, hint));
      }
    };
    xhr.onerror = () => reject(new ApiClientError(0, "network", "network error: the upload did not reach the server"));
    xhr.onabort = () => reject(new ApiClientError(0, "aborted", "upload cancelled"));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
