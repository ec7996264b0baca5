/**
 * One node of many lines, for the progress test and the bench (tests/ingest-progress.suite.ts,
 * scripts/bench-progress.ts): an EKS log collector archive (`eks_<node>_<date>-UTC.tar.gz`, the
 * layout lib/bundle/collectors.ts places by path) holding the node's kubelet journal
 * (`kubelet/kubelet.log`, journalctl `short` lines carrying klog text, about 230 bytes each) and its
 * containerd journal (`containerd/containerd-log.txt`, logrus text, about 200 bytes each), two
 * lines of kubelet to one of containerd, 7 ms apart, one boot. A few lines in a hundred are
 * warnings or errors (an image pull failing, a sandbox not ready), so the detectors and the
 * pattern miner have work. One node: the ingest of the whole bundle is that node's work, on one
 * thread, which is the case where a phase's progress has the least to move by.
 *
 * Pure and deterministic: the same `lines`, the same bytes.
 */
import { buildTarGz } from "../bundle/tar-build";
import { journalShort, klog, logrus } from "./line-format";

export const BIG_NODE = "ip-10-30-0-9.ec2.internal";

/** 2026-03-14 02:00:00 UTC, µs */
const START_US = Date.UTC(2026, 2, 14, 2, 0, 0) * 1000;
/** 2026-03-14 04:00:00 UTC: the archive's files' mtime (the collection time) */
const COLLECTED_MS = Date.UTC(2026, 2, 14, 4, 0, 0);

/** The kubelet and containerd journal text of `lines` lines in all (two thirds kubelet). */
export function bigNodeFiles(lines: number): Array<{ path: string; content: string }> {
  const kubelet: string[] = [];
  const containerd: string[] = [];
  for (let i = 0; i < lines; i++) {
    const us = START_US + i * 7000;
    const pod = `default/app-${i % 500}-7d9f8b6c4-${(i % 97).toString(36).padStart(5, "x")}`;
    const id = (i * 2654435761).toString(16).padStart(12, "0").slice(-12);
    if (i % 3 !== 2) {
      const text =
        i % 61 === 0
          ? klog("E", us, 2099, "pod_workers.go:1301", "Error syncing pod, skipping", [
              ["err", `failed to "StartContainer" for "app" with ImagePullBackOff: "Back-off pulling image \\"registry.example/app:${i % 7}\\""`],
              ["pod", pod],
            ])
          : klog("I", us, 2099, "kubelet.go:2457", "SyncLoop (PLEG): event for pod", [
              ["pod", pod],
              ["event", { raw: `{"ID":"${id}","Type":"ContainerStarted","Data":"${id}${id}"}` }],
            ]);
      kubelet.push(journalShort(us, BIG_NODE, "kubelet", 2099, text));
    } else {
      const text =
        i % 53 === 2
          ? logrus(us, 0, "error", "RunPodSandbox for &PodSandboxMetadata failed", [
              ["error", `rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": plugin type="calico" failed (add)`],
            ])
          : logrus(us, 0, "info", "StartContainer returns successfully", [["containerID", `${id}${id}${id}`]]);
      containerd.push(journalShort(us, BIG_NODE, "containerd", 1811, text));
    }
  }
  return [
    { path: "kubelet/kubelet.log", content: `${kubelet.join("\n")}\n` },
    { path: "containerd/containerd-log.txt", content: `${containerd.join("\n")}\n` },
  ];
}

/** `bigNodeFiles(lines)` as the node's collector archive: its name and bytes. */
export function bigNodeBundle(lines: number): { name: string; data: Buffer } {
  const files = bigNodeFiles(lines).map((f) => ({ path: `./${f.path}`, content: f.content, mtimeMs: COLLECTED_MS }));
  return { name: `eks_${BIG_NODE}_2026-03-14_0400-UTC.tar.gz`, data: buildTarGz(files) };
}
