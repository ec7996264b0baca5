"use client";
/** The upload panel's progress: the upload bar, then the parse bar (polling the bundle), or the error with "dismiss". */
import Link from "next/link";
import type { TBundleStatus } from "@/components/data/use-bundle-status-query";
import { ProgressBar } from "@/components/progress-bar";
import { phaseLabel } from "@/lib/ingest/progress";
import { parseLabel, type TUploadStage } from "@/lib/upload/upload-state";
import { fmtBytes, fmtCount } from "@/lib/view/format";

export function UploadStatus(p: { stage: TUploadStage; status: TBundleStatus | undefined; opening: boolean; onDismiss(): void }) {
  const { stage, status: s } = p;
  if (stage.kind === "uploading")
    return (
      <ProgressBar
        testId="upload-progress"
        label={`uploading ${fmtBytes(stage.loaded)} of ${fmtBytes(stage.total)}`}
        value={stage.total ? stage.loaded / stage.total : null}
      />
    );
  if (stage.kind === "parsing")
    return (
      <>
        <ProgressBar testId="upload-progress" label="uploaded" value={1} tone="ok" />
        <ProgressBar testId="parse-progress" label={parseLabel(s, p.opening, phaseLabel)} value={s ? (s.status === "ready" ? 1 : s.progress) : null} />
        {s?.counts && typeof s.counts.events === "number" && <p className="muted small">{fmtCount(s.counts.events)} events so far</p>}
        <p className="small">
          <Link href={`/i/${encodeURIComponent(stage.result.incidentId)}`}>open the incident</Link> (its nodes show there as they are found)
        </p>
      </>
    );
  if (stage.kind === "error")
    return (
      <div className="error-box" role="alert" data-testid="upload-error">
        <strong>Could not {stage.result ? "parse" : "upload"} the bundle.</strong> {stage.message}
        <div className="row-gap">
          {stage.result && <Link href={`/i/${encodeURIComponent(stage.result.incidentId)}`}>see what was read in the incident</Link>}
          <button type="button" className="btn small" data-testid="upload-dismiss" onClick={p.onDismiss} disabled={!!stage.dismissing}>
            {stage.result && stage.newIncident ? (stage.dismissing ? "deleting…" : "dismiss and delete the incident") : "dismiss"}
          </button>
        </div>
      </div>
    );
  return null;
}
