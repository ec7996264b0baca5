/**
 * The one list of log formats, each a spec with its own samples (after lnav's format
 * definitions). Order is sniff priority (journal envelopes, kernel, container runtime files,
 * component formats, Kubernetes events): `sniffFormat` (parse-file.ts) takes the first spec whose
 * `sniff` accepts a file. Adding a format = one new module + one line here; its samples and
 * notMine lines are then checked by registry.test.ts. Where two sniffs accept the same file, the
 * spec that must win says so in its `before` (with a witness file), and the test checks the order.
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
import { inotifywaitSpec } from "./inotifywait";
import { journalShortSpec } from "./journal-short";
import { journalShortIsoSpec } from "./journal-short-iso";
import { k8sEventsJsonSpec } from "./k8s-events-json";
import { klogSpec } from "./klog";
import { k8sMessageSpec } from "./k8s-message";
import { jupyterHubEventsSpec } from "./jupyterhub-events";
import { jenkinsPodEventsSpec } from "./jenkins-pod-events";
import { kubectlEventsColumnsSpec } from "./kubectl-events-columns";
import { kubectlEventsTableSpec } from "./kubectl-events-table";
import { syslogRfc3164Spec } from "./syslog-rfc3164";
import { syslogRfc5424Spec } from "./syslog-rfc5424";
import { talosDmesgSpec } from "./talos-dmesg";
import { ciliumJsonSpec } from "./cilium-json";
import { logrusJsonSpec } from "./logrus-json";
import { dockerJsonSpec } from "./docker-json";
import { goPanicSpec } from "./go-panic";
import { journalExportSpec } from "./journal-export";
import { journalJsonSpec } from "./journal-json";
import { journalJsonPrettySpec } from "./journal-json-pretty";
import { journalListBootsSpec } from "./journal-list-boots";
import { journalShortFullSpec } from "./journal-short-full";
import { journalVerboseSpec } from "./journal-verbose";
import { journalShortMonotonicSpec } from "./journal-short-monotonic";
import { journalShortUnixSpec } from "./journal-short-unix";
import { journalWithUnitSpec } from "./journal-with-unit";
import { k3sLogrusSpec } from "./k3s-logrus";
import { k0sSupervisorSpec } from "./k0s-supervisor";
import { k8sEventsYamlSpec } from "./k8s-events-yaml";
import { klogJsonSpec } from "./klog-json";
import { kubectlTimestampsSpec } from "./kubectl-timestamps";
import { lastRebootSpec } from "./last-reboot";
import { multusSpec } from "./multus";
import { awsVpcCniSeelogSpec } from "./aws-vpc-cni";
import { ztunnelSpec } from "./ztunnel";
import { zapJsonSpec } from "./zap-json";
import { zapConsoleSpec } from "./zap-console";
import { logrusTextSpec } from "./logrus-text";
import { weaveSpec } from "./weave";
import { azureCniSpec } from "./azure-cni";
import { linkerdCniSpec } from "./linkerd-cni";
import { ovsLogSpec } from "./ovs-log";
import { gcpLoggingJsonSpec } from "./gcp-logging";
import { gcloudLoggingYamlSpec, gcpConsoleSpec } from "./gcp-logging-text";
import { cloudwatchEventsJsonSpec, cloudwatchEventsTextSpec, cloudwatchInsightsCsvSpec } from "./cloudwatch";
import { cloudwatchTailSpec } from "./cloudwatch-tail";
import type { FormatSpec } from "./types";

/** All format specs, in sniff priority order. */
export const FORMAT_REGISTRY: readonly FormatSpec[] = [
  journalShortSpec,
  ztunnelSpec, // istio ztunnel
  journalShortIsoSpec,
  journalVerboseSpec, // verbose header: "[s="
  journalShortFullSpec,
  journalWithUnitSpec, // unit names in place of identifiers
  journalShortUnixSpec,
  journalShortMonotonicSpec,
  journalJsonSpec,
  journalJsonPrettySpec,
  journalExportSpec,
  journalListBootsSpec,
  syslogRfc3164Spec, // <PRI> then a short or short-iso line
  dmesgSpec, // raw `[seconds]` and `--ctime` stamps
  talosDmesgSpec, // talosctl dmesg, machined console
  lastRebootSpec,
  criLogSpec,
  dockerJsonSpec,
  istioCniSpec, // a 6-digit `Z` stamp then a level word
  zapConsoleSpec, // zap console of other loggers
  cloudwatchTailSpec, // `aws logs tail`
  awsVpcCniSeelogSpec, // AWS VPC CNI seelog-era ipamd.log / plugin.log (`<stamp> [LEVEL] msg`)
  kubectlTimestampsSpec, // `kubectl logs --timestamps`
  klogSpec, // klog header and file banner
  klogJsonSpec,
  k0sSupervisorSpec, // k0s: logrus around each child line, `component=<child>`
  containerdLogrusSpec, // logrus key=value, fractional seconds
  k3sLogrusSpec, // logrus key=value, whole seconds (k3s/rke2)
  crioLogrusSpec,
  calicoCniSpec,
  logrusTextSpec, // logrus terminal layout (`FATA[0000] …`)
  istioCniJsonSpec,
  azureCniSpec, // Azure CNI azure-vnet*.log (its zap-era JSON lines mix with the Go log lines)
  zapJsonSpec, // AWS VPC CNI and other zap JSON
  logrusJsonSpec, // logrus JSONFormatter: containerd, CRI-O, dockerd with JSON logging
  ciliumJsonSpec, // cilium slog JSON
  ciliumLogfmtSpec,
  multusSpec,
  weaveSpec, // Weave Net
  linkerdCniSpec, // linkerd-cni installer `[YYYY-MM-DD hh:mm:ss] msg`
  ovsLogSpec, // Open vSwitch / OVN vlog `stamp|seq|module|LEVEL|msg`
  inotifywaitSpec, // inotifywait -m output
  syslogRfc5424Spec,
  gcpLoggingJsonSpec, // Cloud Logging entries
  gcpConsoleSpec, // Logs Explorer expanded entries (unquoted keys)
  gcloudLoggingYamlSpec, // gcloud logging read YAML
  cloudwatchEventsJsonSpec, // aws logs filter-log-events / get-log-events JSON
  cloudwatchEventsTextSpec, // the same with --output text
  cloudwatchInsightsCsvSpec, // Logs Insights CSV download
  k8sEventsJsonSpec,
  k8sEventsYamlSpec,
  kubectlEventsColumnsSpec, // `-o custom-columns=` event tables with RFC 3339 times
  kubectlEventsTableSpec,
  describeEventsSpec, // `kubectl describe` Events sections
  k8sMessageSpec, // event messages quoted without row or time
  jupyterHubEventsSpec, // JupyterHub spawn-page progress events (`<time> [Warning] <message>`) and hub log lines
  jenkinsPodEventsSpec, // Jenkins Kubernetes plugin's pod events in a build console (`[Warning][ns/pod][Reason] message`)
  goPanicSpec, // Go panics / goroutine dumps
];

const BY_NAME = new Map(FORMAT_REGISTRY.map((s) => [s.name, s]));
if (BY_NAME.size !== FORMAT_REGISTRY.length) throw new Error("lib/parse/registry.ts: duplicate format name");

/** The spec registered under `name`, or undefined. */
export function formatByName(name: string): FormatSpec | undefined {
  return BY_NAME.get(name);
}
