"use client";
/**
 * Live status of a bundle still being parsed: polls `GET /api/bundles/:id` and refreshes
 * the page (server data) when it is ready or failed.
 */
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { isBundleDone, useBundleStatusQuery } from "@/components/data/use-bundle-status-query";
import { ProgressBar } from "@/components/progress-bar";

export function BundleProgress(p: { bundleId: string; initial: { status: string; phase: string; progress: number } }) {
  const router = useRouter();
  const q = useBundleStatusQuery(p.bundleId, 1000);
  const s = q.data ?? p.initial;
  const done = isBundleDone(q.data);
  useEffect(() => {
    if (done) router.refresh();
  }, [done, router]);
  return <ProgressBar label={`${s.status} · ${s.phase}`} value={s.progress} testId="bundle-progress" />;
}
