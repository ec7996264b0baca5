/**
 * The collector layouts, in detection priority: `describeBundle` (lib/bundle/collectors.ts) gives a
 * group of files the first layout whose `detect` accepts it, so a specific layout comes before a
 * general one (`journalctl-archive`, any archive of journal text, is last). Adding a layout = one
 * new module in this folder + one line here; its samples are then checked by registry.test.ts.
 */
import { aksPeriscope } from "./aks-periscope";
import { bottlerocketLogdog } from "./bottlerocket-logdog";
import { eksLogCollector } from "./eks-log-collector";
import { journalctlArchive } from "./journalctl-archive";
import { kindExportLogs } from "./kind-export-logs";
import { kubectlClusterInfoDump } from "./kubectl-cluster-info-dump";
import { mustGather } from "./must-gather";
import { rancherLogsCollector } from "./rancher-logs-collector";
import { sosreport } from "./sosreport";
import { supportBundle } from "./support-bundle";
import { talosSupport } from "./talos-support";
import type { CollectorSpec } from "./types";

/** Every collector layout, in detection priority. */
export const COLLECTORS: readonly CollectorSpec[] = [
  eksLogCollector,
  rancherLogsCollector,
  kindExportLogs,
  sosreport,
  mustGather,
  supportBundle,
  aksPeriscope,
  bottlerocketLogdog,
  talosSupport,
  kubectlClusterInfoDump,
  journalctlArchive,
];
