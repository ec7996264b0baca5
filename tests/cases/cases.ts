/**
 * Test support: the real-format cases of this folder (excerpts of real node logs from public bug
 * reports, each with its expected values in `expect/<name>.json`; README.md describes them). A
 * missing case fails with a message that names the folder.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Folder of the case files: this one. */
export const CASES_DIR = __dirname;

/** Bytes of one case file (`name` relative to this folder); throws when it is not there. */
export function caseBytes(name: string): Buffer {
  const file = path.join(CASES_DIR, name);
  if (!existsSync(file)) throw new Error(`real-format case ${name} not found in ${CASES_DIR}`);
  return readFileSync(file);
}

/** Text of one case file (UTF-8). */
export function caseText(name: string): string {
  return caseBytes(name).toString("utf8");
}

/** Every case file of this folder (`*.log`), sorted by name. */
export function caseNames(): string[] {
  return readdirSync(CASES_DIR)
    .filter((n) => n.endsWith(".log"))
    .sort();
}

/**
 * The upload values a reviewer gives with one case (README.md's table): the year of year-less
 * stamps, the zone of zone-less stamps, the collection time kubectl's ages count back from (ISO
 * 8601), as the CLI's `--year`, `--tz` and `--collected` and the upload form take them.
 */
export interface CaseUpload {
  year?: number;
  tz?: string;
  collected?: string;
}

/** Upload values by case file name; a case not listed needs none. */
export const CASE_UPLOADS: Readonly<Record<string, CaseUpload>> = {
  "001-calico-nodename-stopsandbox-journald.log": { year: 2025 },
  "012-crictl-runp-calico-klog-and-logrus-fata.log": { year: 2023 },
  "013-describe-events-sandboxchanged-x10.log": { collected: "2020-07-08T10:00:00Z" },
  "015-weave-after-reboot-describe-events.log": { collected: "2019-03-01T12:00:00Z" },
  "040-get-events-all-namespaces-starting-kubelet.log": { collected: "2019-04-03T10:00:00Z" },
  "041-describe-x72-and-journald-go-monotonic-clock.log": { collected: "2018-12-21T10:10:00Z", tz: "Asia/Shanghai" },
  "044-describe-calico-nodename-x158-over-6m.log": { collected: "2018-04-12T08:00:00Z" },
  "069-journalctl-reverse-order-pager-truncated.log": { year: 2025 },
  "074-describe-multus-shim-sock-refused-15s.log": { collected: "2024-05-01T09:00:00Z" },
  "079-klog-calico-nodename-triple.log": { year: 2020 },
  "091-after-reboot-flannel-klog-out-of-order-timestamps.log": { year: 2021 },
  "112-dmesg-T-german-weekday-cni0-veth-churn.log": { tz: "Europe/Berlin" },
  "116-after-reboot-crio-pod-sandbox-name-already-exists.log": { year: 2024 },
  "121-k3s-in-docker-describe-ttrpc-closed-12s.log": { collected: "2020-06-22T08:00:00Z" },
  "124-syslog-pri-prefix-sandbox-address-already-in-use.log": { year: 2019 },
  "136-k3s-in-docker-klog-then-timestamp-prefixed-logrus-netns-gone.log": { year: 2024 },
  "140-describe-bare-kubelet-source-no-node-x279-combined.log": { collected: "2020-10-19T09:00:00Z" },
  "201-kube-ovn-describe-from-mid-row-daemon-refused.log": { collected: "2023-05-10T09:00:00Z" },
  "202-ovn-k-event-hand-wrapped-in-prose.log": { collected: "2023-05-10T09:00:00Z" },
  "205-minikube-logs-sections-bridge-addr.log": { year: 2024 },
  "206-openshift-sdn-journal-quoted-error-next-entry.log": { year: 2024 },
  "601-journal-grep-runpodsandbox-cilium-cni-missing-ids-elided.log": { year: 2023 },
  "602-windows-kubelet-err-log-hns-endpoint-exists.log": { year: 2023 },
};

/** A case's upload values as ingest options (lib/ingest/analyse-bundle.ts `IngestOptions`, without `uploadMs`). */
export function caseOptions(name: string): { year?: number; tz?: string; collectedMs?: number } {
  const u = CASE_UPLOADS[name] ?? {};
  return {
    ...(u.year !== undefined ? { year: u.year } : {}),
    ...(u.tz !== undefined ? { tz: u.tz } : {}),
    ...(u.collected !== undefined ? { collectedMs: Date.parse(u.collected) } : {}),
  };
}
