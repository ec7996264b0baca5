/**
 * The real-format cases (tests/cases: excerpts of public bug reports, each with
 * tests/cases/expect/<name>.json) through the in-memory ingest (`analyseBundle`) and the
 * detectors, each file alone as a reviewer would upload it: no `--node`, only the upload values
 * a reviewer would give (year, zone, collection time). Checked: records, records with a time of
 * their own, sandbox attempts in failure windows and those without a time (in no window), the
 * error class and the first and last failure, and the node (named by the text, or named after the upload and marked so).
 */
import { describe, expect, it } from "vitest";
import type { BootEvent } from "../lib/detect/types";
import type { IngestOptions } from "../lib/ingest/analyse-bundle";
import { detectBoot } from "../lib/ingest/detect-boot";
import { analyseBundle } from "../lib/ingest/reference";
import { uploadNodeName } from "../lib/ingest/settle";
import { untimedAttempts } from "../lib/detect/untimed-attempts";
import { toBootEvent } from "../lib/model/boot-event";
import { parseFile } from "../lib/parse/parse-file";
import { caseBytes, caseNames, caseOptions, caseText } from "./cases/cases";

const UPLOAD_MS = Date.UTC(2026, 11, 1, 12, 0, 0);

interface CaseExpect {
  /** node named by the text; undefined: named after the upload */
  node?: string;
  /** several nodes the text names (a describe naming one, a journal another), sorted; overrides `node` */
  nodes?: string[];
  /** error class of the failures: a slug, `sig:` for a signature, or null for none */
  errorClass?: string | null;
  /** the failure lines' class is found on lines of this kind (default: attempts in windows) */
  failureKind?: string;
}

const CASES: Record<string, CaseExpect> = {
  "001-calico-nodename-stopsandbox-journald.log": {
    node: "node-p",
    errorClass: "calico-nodename-missing",
    failureKind: "sandbox.stop.failed",
  },
  "002-istio-cni-json-rewrite-loop.log": { errorClass: null },
  "003-cilium-agent-logfmt-regenerate-loop.log": { errorClass: null },
  "004-istio-install-cni-spaces.log": { errorClass: null },
  "006-cni-agent-tabs-rewrite-multiline-kubeconfig.log": { errorClass: null },
  "008-kubectl-logs-prefix-glued-lines.log": { errorClass: null },
  "009-kubelet-cni-not-initialized-5s-journal-header.log": { node: "node-p", errorClass: "cni-config-uninitialized", failureKind: "network.not-ready" },
  "012-crictl-runp-calico-klog-and-logrus-fata.log": { errorClass: "sig:" },
  "013-describe-events-sandboxchanged-x10.log": {
    node: "node-p-000000",
    errorClass: "netplugin-no-error-message",
  },
  "015-weave-after-reboot-describe-events.log": { node: "node-a0", errorClass: "weave-ipam-unreachable" },
  "017-journald-localized-month-embedded-containerd.log": { node: "node-p.localdomain", errorClass: null },
  "027-aws-cni-plugin-log-bracket-level.log": { errorClass: "ipam-exhausted" },
  "040-get-events-all-namespaces-starting-kubelet.log": { node: "node-p-0000", errorClass: null },
  "041-describe-x72-and-journald-go-monotonic-clock.log": {
    nodes: ["10.116.72.65", "node-p"],
    errorClass: "sandbox-image-invalid",
  },
  "044-describe-calico-nodename-x158-over-6m.log": {
    node: "node-p-0000000000000000000",
    errorClass: "calico-nodename-missing",
  },
  "055-rke2-after-reboot-html-entities.log": { errorClass: "cilium-agent-unreachable" },
  "056-kind-journald-containerd-kubelet-cilium-cni-retry.log": { node: "kind-worker", errorClass: "sig:" },
  "066-after-poweroff-istio-cni-kubeconfig-enoent-wrapped.log": { errorClass: "istio-cni-kubeconfig-missing" },
  "069-journalctl-reverse-order-pager-truncated.log": { node: "node", errorClass: "sig:failed to reserve sandbox name" },
  "070-syslog-kubelet-containerd-deadline.log": { node: "NodeA", errorClass: "context-deadline-exceeded" },
  "074-describe-multus-shim-sock-refused-15s.log": { errorClass: "multus-daemon-unreachable" },
  "079-klog-calico-nodename-triple.log": { errorClass: "calico-nodename-missing" },
  "091-after-reboot-flannel-klog-out-of-order-timestamps.log": { errorClass: null },
  "100-journalctl-o-verbose-kubelet.log": { errorClass: null },
  "103-gcp-cloud-logging-export-jsonpayload-pretty.log": { errorClass: null },
  "107-kmsg-pri-kubelet-crashloop-5s.log": { errorClass: null },
  "112-dmesg-T-german-weekday-cni0-veth-churn.log": { errorClass: null },
  "114-journald-french-month-header-create-container-deadline.log": {
    node: "node-p",
    errorClass: "context-deadline-exceeded",
    failureKind: "runtime.unhealthy",
  },
  "116-after-reboot-crio-pod-sandbox-name-already-exists.log": { node: "node-a0", errorClass: "sandbox-name-exists" },
  "118-jupyterhub-spawn-event-hardwrapped-calico-nodename.log": { errorClass: "calico-nodename-missing" },
  "121-k3s-in-docker-describe-ttrpc-closed-12s.log": { node: "054837d7fc21", errorClass: "sig:" },
  "124-syslog-pri-prefix-sandbox-address-already-in-use.log": { node: "node-p", errorClass: "sig:" },
  "130-talos-kubelet-json-epoch-ms-host-prefix-runtime-eof-wrapped.log": {
    node: "10.200.193.195",
    errorClass: "runtime-unreachable",
    failureKind: "runtime.unhealthy",
  },
  "136-k3s-in-docker-klog-then-timestamp-prefixed-logrus-netns-gone.log": { errorClass: "netns-gone" },
  "140-describe-bare-kubelet-source-no-node-x279-combined.log": { errorClass: "calico-nodename-missing" },
  "201-kube-ovn-describe-from-mid-row-daemon-refused.log": {
    node: "edge-wk12",
    errorClass: "cni-agent-unreachable",
  },
  "202-ovn-k-event-hand-wrapped-in-prose.log": {
    node: "ovn-worker3",
    errorClass: "cni-pod-address-pending",
  },
  "203-get-events-json-cut-both-ends-flannel-subnet.log": { node: "worker-7", errorClass: "flannel-subnet-missing" },
  "204-gcloud-logging-read-event-payload-cilium.log": { node: "gke-shop-pool-2-9a8b7c6d-w3e4", errorClass: "cilium-agent-unreachable" },
  "205-minikube-logs-sections-bridge-addr.log": { node: "minikube", errorClass: "sig:" },
  "206-openshift-sdn-journal-quoted-error-next-entry.log": { node: "worker-2.ocp.example.com", errorClass: "ipam-exhausted" },
  "601-journal-grep-runpodsandbox-cilium-cni-missing-ids-elided.log": { node: "worker-2", errorClass: "cni-plugin-not-found" },
  "602-windows-kubelet-err-log-hns-endpoint-exists.log": { node: "win-node-1", errorClass: "hns-endpoint-exists" },
  "603-k0s-windows-worker-console-kubelet-exe-hns-network-missing.log": { errorClass: "hns-network-missing" },
  "604-calico-windows-cni-log-hns-network-not-found.log": { errorClass: "hns-network-missing" },
  "605-azure-vnet-windows-hns-then-zap-completion.log": { errorClass: "hns-endpoint-exists" },
  "606-linkerd-cni-install-untimed-right-padded-80.log": { errorClass: null },
  "607-linkerd-cni-bracketed-stamps-padded-watch-banners.log": { errorClass: null },
  "608-cri-log-calico-node-go-panic-p-pieces.log": { errorClass: null },
  "609-inotifywait-r-timefmt-banners-subdirs.log": { errorClass: null },
  "710-journalctl-colour-codes-calico-nodename.log": { node: "node-c", errorClass: "calico-nodename-missing" },
  "711-journalctl-colour-codes-esc-lost.log": { node: "node-c", errorClass: "calico-nodename-missing" },
  "712-containerd-json-log-format-calico-nodename.log": { errorClass: "calico-nodename-missing" },
  "713-loki-logcli-common-labels-kubelet-cilium-agent-down.log": { node: "ip-10-0-31-7.eu-west-1.compute.internal", errorClass: "cilium-agent-unreachable" },
  "714-get-events-custom-columns-iso-flannel-subnet.log": { node: "worker-3", errorClass: "flannel-subnet-missing" },
};

interface Expected {
  records: number;
  timestamped: number;
  sandboxFailures: number;
  firstFailure: string | null;
  lastFailure: string | null;
}

function expected(name: string): Expected {
  return JSON.parse(caseText(`expect/${name.replace(/\.log$/, ".json")}`)) as Expected;
}

/** One case through the in-memory ingest and the detectors. */
function ingestCase(name: string, opts: Partial<IngestOptions>) {
  const a = analyseBundle([{ path: name, upload: name, status: "read", data: caseBytes(name) }], { uploadMs: UPLOAD_MS, ...opts });
  const byBoot = new Map<string, BootEvent[]>();
  a.events.forEach((e, i) => {
    if (e.node === null || e.boot === null) return;
    const key = `${e.node}\t${e.boot}`;
    const list = byBoot.get(key) ?? [];
    list.push(toBootEvent(e, i + 1, e.fileIdx + 1));
    byBoot.set(key, list);
  });
  const findings = [...a.nodes].flatMap(([node, boots]) =>
    boots.flatMap(
      (b, i) => detectBoot({ node, bootKey: b.bootKey, start: b.start, end: b.end, startApprox: b.startApprox }, byBoot.get(`${node}\t${i}`) ?? []).findings,
    ),
  );
  return { a, findings };
}

/** Records with a time of their own: a stamp, or seconds since boot; not one counted back from a kubectl age. */
function timestamped(name: string, opts: Partial<IngestOptions>): number {
  const f = parseFile(name, caseText(name), { ...opts, uploadMs: UPLOAD_MS });
  return f.records.filter((r) => (r.ts !== null && r.k8sEvent?.lastUncertaintyMs === undefined) || r.fields?.uptime !== undefined).length;
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

it("every case file of tests/cases has its row here", () => {
  expect(caseNames()).toEqual(Object.keys(CASES).sort());
});

describe.each(Object.entries(CASES))("case %s", (name, c) => {
  const want = expected(name);
  // the upload values a reviewer gives (tests/cases/cases.ts CASE_UPLOADS)
  const opts: Partial<IngestOptions> = caseOptions(name);

  it("reads every record, with its own time where it has one", () => {
    const { a } = ingestCase(name, opts);
    expect(a.files[0].counts.records).toBe(want.records);
    expect(timestamped(name, opts)).toBe(want.timestamped);
    const c = a.files[0].counts;
    expect(c.records - c.noTimestamp - c.aged + c.sinceBoot).toBe(want.timestamped);
  });

  it("puts its events on the node the text names, else on one named after the upload", () => {
    const { a } = ingestCase(name, opts);
    const nodes = [...new Set(a.events.map((e) => e.node))].sort();
    if (c.nodes) {
      expect(nodes).toEqual(c.nodes);
      expect([...(a.unnamed ?? [])]).toEqual([]);
      return;
    }
    const node = c.node ?? uploadNodeName(name);
    expect(nodes).toEqual([node]);
    expect([...(a.unnamed ?? [])]).toEqual(c.node ? [] : [node]);
  });

  it("counts the sandbox attempts, their class and the first and last failure", () => {
    const { a, findings } = ingestCase(name, opts);
    const windows = findings.filter((f) => f.detector === "sandbox-failure-window");
    // failures whose lines have no time are in no window: counted apart, per node
    const untimed = [...new Set(a.events.map((e) => e.node))].map((node) =>
      untimedAttempts(a.events.flatMap((e, i) => (e.node === node ? [toBootEvent(e, i + 1, e.fileIdx + 1)] : []))),
    );
    const attempts = windows.reduce((s, w) => s + (w.metrics.attempts as number), 0) + untimed.reduce((s, u) => s + u.attempts, 0);
    expect(attempts).toBe(want.sandboxFailures);
    if (c.errorClass === null) {
      expect(windows).toEqual([]);
      return;
    }
    if (windows.length === 0 && !c.failureKind) {
      // every failure without a time: their class, and no first or last failure
      for (const u of untimed.filter((x) => x.attempts > 0)) expect(u.errorClass?.startsWith(c.errorClass!)).toBe(true);
      expect(want.firstFailure).toBeNull();
      expect(want.lastFailure).toBeNull();
      return;
    }
    let classes: string[];
    let first: number | null;
    let last: number | null;
    if (!c.failureKind) {
      classes = windows.map((w) => w.metrics.errorClass as string);
      first = Math.min(...windows.map((w) => w.start));
      last = Math.max(...windows.map((w) => w.start + (w.metrics.lastAttemptAfterBootS as number) * 1000 - (w.metrics.openedAfterBootS as number) * 1000));
      // several lines of one attempt: the last failure is the attempt's last line
      const lines = a.events.filter((e) => e.kind === "sandbox.create.failed" && e.ts !== null);
      const k8sLast = lines.map((e) => ((e.fields?.k8s as { lastMs?: number } | undefined)?.lastMs ?? e.ts) as number);
      last = Math.max(last, ...k8sLast);
    } else {
      const lines = a.events.filter((e) => e.kind === c.failureKind && e.ts !== null);
      classes = [...new Set(lines.map((e) => e.errorClass ?? "none"))];
      first = Math.min(...lines.map((e) => e.ts!));
      last = Math.max(...lines.map((e) => e.ts!));
    }
    for (const cls of classes) expect(cls.startsWith(c.errorClass!) || cls === c.errorClass).toBe(true);
    expect(iso(first)).toBe(want.firstFailure);
    expect(iso(last)).toBe(want.lastFailure);
  });
});

describe("the istio-cni agent log as kubectl logs printed it, fields separated by spaces", () => {
  /** `n` rewrites of Cilium's conflist by the istio-cni agent, `periodS` apart: announcement, then completion 2 ms later. */
  function agentLog(n: number, periodS: number): string {
    const start = Date.UTC(2025, 4, 19, 4, 20, 4, 809);
    const stamp = (ms: number, us: number) => `${new Date(ms).toISOString().slice(0, 23)}${String(us).padStart(3, "0")}Z`;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const t = start + Math.round(i * periodS * 1000);
      lines.push(`${stamp(t, 762)} info cni-agent configuration requires updates, (re)writing CNI config file at "/host/etc/cni/net.d/05-cilium.conflist"`);
      lines.push(`${stamp(t + 2, 118)} info cni-agent created CNI config /host/etc/cni/net.d/05-cilium.conflist`);
    }
    return `${lines.join("\n")}\n`;
  }

  it("200 rewrites 0.4 s apart are a conflist rewrite loop by one writer at 2.5 writes/s", () => {
    const a = analyseBundle([{ path: "istio-cni-node.log", upload: "istio-cni-node.log", status: "read", data: Buffer.from(agentLog(200, 0.4)) }], {
      uploadMs: UPLOAD_MS,
    });
    expect(a.files[0]).toMatchObject({ format: "istio-cni", counts: { records: 400, skipped: 0 } });
    const [node] = [...a.nodes.keys()];
    const boot = a.nodes.get(node)![0];
    const events = a.events.map((e, i) => toBootEvent(e, i + 1, 1));
    const loops = detectBoot({ node, bootKey: boot.bootKey, start: boot.start, end: boot.end }, events).findings.filter(
      (f) => f.detector === "conflist-rewrite-loop",
    );
    expect(loops).toHaveLength(1);
    expect(loops[0].metrics).toMatchObject({
      path: "/etc/cni/net.d/05-cilium.conflist",
      writes: 200,
      writers: ["istio-cni"],
      writesPerS: 2.5,
      durationS: 79.6,
    });
  });

  it("with Cilium's slog lines between them (a write 0.2 s after each of istio-cni's): two writers, 399 turns, 5 writes/s together", () => {
    const start = Date.UTC(2025, 4, 19, 4, 20, 4, 809);
    const cilium: string[] = [];
    for (let i = 0; i < 200; i++) {
      const t = new Date(start + 2 + i * 400 + 200).toISOString();
      const slog = `time=${t.replace("Z", "531Z")} level=info source=/go/src/github.com/cilium/cilium/daemon/cmd/cni/config.go:355 msg="Wrote CNI configuration file" module=agent.infra.cni-config destination=/host/etc/cni/net.d/05-cilium.conflist`;
      cilium.push(`${t.replace("Z", "612345Z")} stderr F ${slog}`);
    }
    const a = analyseBundle(
      [
        { path: "istio-cni-node.log", upload: "istio-cni-node.log", status: "read", data: Buffer.from(agentLog(200, 0.4)) },
        {
          path: "var/log/pods/kube-system_cilium-x7k2p_0b7e/cilium-agent/0.log",
          upload: "cilium-agent.log",
          status: "read",
          data: Buffer.from(`${cilium.join("\n")}\n`),
        },
      ],
      { uploadMs: UPLOAD_MS },
    );
    expect(a.files.map((f) => f.counts.records)).toEqual([400, 200]);
    const [node] = [...a.nodes.keys()];
    const boot = a.nodes.get(node)![0];
    const events = a.events.map((e, i) => toBootEvent(e, i + 1, e.fileIdx + 1));
    const loops = detectBoot({ node, bootKey: boot.bootKey, start: boot.start, end: boot.end }, events).findings.filter(
      (f) => f.detector === "conflist-rewrite-loop",
    );
    expect(loops).toHaveLength(1);
    expect(loops[0].metrics).toMatchObject({
      path: "/etc/cni/net.d/05-cilium.conflist",
      writes: 400,
      writers: ["istio-cni", "cilium"],
      writesByWriter: { "istio-cni": 200, cilium: 200 },
      turns: 399,
      writesPerS: 5,
      durationS: 79.8,
    });
    expect(loops[0].explanation).toContain("Two agents overwrite each other");
  });
});
