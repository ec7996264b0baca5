/**
 * The one list of log formats (STYLE.md "Log formats as data with their own samples"). Order is
 * sniff priority, as in FORMATS.md 5b (journal envelopes, kernel, container runtime files,
 * component formats, Kubernetes events): `sniffFormat` (parse-file.ts) takes the first spec whose
 * `sniff` accepts a file. Adding a format = one new module + one line here; its samples and
 * notMine lines are then checked by registry.test.ts.
 */
import { calicoCniSpec } from "./calico-cni";
import { ciliumLogfmtSpec } from "./cilium-logfmt";
import { containerdLogrusSpec } from "./containerd-logrus";
import { criLogSpec } from "./cri-log";
import { crioLogrusSpec } from "./crio-logrus";
import { describeEventsSpec } from "./describe-events";
import { dmesgSpec } from "./dmesg";
import { istioCniSpec } from "./istio-cni";
import { istioCniJsonSpec } from "./istio-cni-json";
import { journalShortSpec } from "./journal-short";
import { journalShortIsoSpec } from "./journal-short-iso";
import { k8sEventsJsonSpec } from "./k8s-events-json";
import { klogSpec } from "./klog";
import { kubectlEventsTableSpec } from "./kubectl-events-table";
import { syslogRfc5424Spec } from "./syslog-rfc5424";
import type { FormatSpec } from "./types";

/** All format specs, in sniff priority order. */
export const FORMAT_REGISTRY: readonly FormatSpec[] = [
  journalShortSpec, // JS
  journalShortIsoSpec, // JI
  dmesgSpec, // DR, DC
  criLogSpec, // CR
  klogSpec, // KH, KL
  containerdLogrusSpec, // LC
  crioLogrusSpec, // LO
  calicoCniSpec, // CL
  istioCniSpec, // IS
  istioCniJsonSpec, // IJ
  ciliumLogfmtSpec, // CI
  syslogRfc5424Spec, // R5
  k8sEventsJsonSpec, // EJ
  kubectlEventsTableSpec, // ET
  describeEventsSpec, // ED, ER
];

const BY_NAME = new Map(FORMAT_REGISTRY.map((s) => [s.name, s]));
if (BY_NAME.size !== FORMAT_REGISTRY.length) throw new Error("lib/parse/registry.ts: duplicate format name");

/** The spec registered under `name`, or undefined. */
export function formatByName(name: string): FormatSpec | undefined {
  return BY_NAME.get(name);
}
