/**
 * `image-pull-storm` on journals in the real format (tests/detector-inputs/): after a reboot the
 * kubelet (klog inside journald) and containerd (logrus) both report each failed pull, the
 * registry's name not resolving; the cause table's samples each give their own cause.
 */
import { describe, expect, it } from "vitest";
import { findingsOfText } from "../ingest/rule-samples";
import { rules } from "../ingest/rule-files";
import { PULL_CAUSES, pullCauseOf } from "./image-pull-causes";
import { partsOf } from "./parts";
import { detectorInput } from "@/tests/detector-inputs/inputs";

const T0 = Date.UTC(2026, 2, 14, 2, 0, 0);
const stamp = (s: number) => `Mar 14 ${new Date(T0 + s * 1000).toISOString().slice(11, 19)}`;
const klog = (s: number) => `0314 ${new Date(T0 + s * 1000).toISOString().slice(11, 19)}.250000`;
const iso = (s: number) => new Date(T0 + s * 1000 + 200).toISOString().replace("Z", "000000Z");
const cause = (image: string) =>
  `failed to pull and unpack image \\"${image}\\": failed to resolve reference \\"${image}\\": failed to do request: Head \\"https://registry-1.docker.io/v2/manifests/latest\\": dial tcp: lookup registry-1.docker.io on 10.0.0.2:53: no such host`;

/** A boot (kernel banner at T+0) and each pull's failure as containerd and the kubelet log it. */
function journal(pulls: Array<[number, string]>): string {
  const lines = [`${stamp(0)} node-a kernel: Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1`];
  lines.push(`${stamp(8)} node-a containerd[700]: time="${iso(8)}" level=info msg="starting containerd" revision=1 version=1.7.13`);
  for (const [s, image] of pulls) {
    lines.push(`${stamp(s)} node-a containerd[700]: time="${iso(s)}" level=error msg="PullImage \\"${image}\\" failed" error="${cause(image)}"`);
    lines.push(
      `${stamp(s)} node-a kubelet[812]: E${klog(s)}     812 kuberuntime_image.go:53] "Failed to pull image" err="rpc error: code = Unknown desc = ${cause(image)}" image="${image}"`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const CALICO = "docker.io/calico/node:v3.27.0";
const CNI = "docker.io/calico/cni:v3.27.0";
const APP = "docker.io/library/nginx:1.25";

describe("image-pull-storm", () => {
  it("counts each pull once however many components report it, and folds the images into one finding", () => {
    // the kubelet's backoff: 10, 20, 40 s between one image's tries, each pull logged by containerd and the kubelet
    const found = findingsOfText(detectorInput("image-pull-storm-journal.log"), "journal.log", rules()).filter((f) => f.detector === "image-pull-storm");
    expect(found).toHaveLength(1);
    const [f] = found;
    expect(f.metrics).toMatchObject({ failedPulls: 9, images: 3, peakPulls: 9, peakAfterBootS: 40.2, pullCause: "name-unresolved" });
    expect(f.title).toBe("Image pull storm: 9 failed pulls of 3 images from T+40.200 s (the registry's name did not resolve)");
    expect(f.severity).toBe("medium");
    // both lines of every pull are its evidence
    expect(f.evidence).toHaveLength(18);
    expect(partsOf(f.metrics).map((p) => [p.key, p.pulls, p.firstAfterBootS, p.lastAfterBootS, p.cause])).toEqual([
      [CALICO, 4, 40.2, 110.2, "name-unresolved"],
      [CNI, 3, 41.2, 71.2, "name-unresolved"],
      [APP, 2, 42.2, 52.2, "name-unresolved"],
    ]);
  });

  it("one image retrying a bad tag is no storm, nor are pulls that begin long after boot", () => {
    const one: Array<[number, string]> = [40, 50, 70, 110, 190].map((s) => [s, APP]);
    expect(findingsOfText(journal(one), "journal.log", rules()).filter((f) => f.detector === "image-pull-storm")).toEqual([]);
    const late: Array<[number, string]> = [3600, 3601, 3602, 3610, 3611, 3612].map((s, i) => [s, [CALICO, CNI, APP][i % 3]]);
    expect(findingsOfText(journal(late), "journal.log", rules()).filter((f) => f.detector === "image-pull-storm")).toEqual([]);
  });

  it("each cause of the table is given by its own sample line", () => {
    for (const c of PULL_CAUSES) expect(pullCauseOf(c.sample)?.key, c.key).toBe(c.key);
  });
});
