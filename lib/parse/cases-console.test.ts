/**
 * Component console formats and cloud exports at the parse level: the real-format cases 004
 * (istio install-cni, tabs turned into spaces) and 103 (Cloud Logging entries, pretty-printed),
 * and the space-separated variants of istio's zap console layout.
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file";
import { caseText } from "../../tests/cases/cases";
import { expectAccounting, recordIso as iso } from "../testing/parse-cases";

describe("case 004: istio install-cni, zap console with runs of spaces", () => {
  const name = "004-istio-install-cni-spaces.log";
  const f = parseFile(name, caseText(name));

  it("reads 4 records, scope install, level info, µs stamps floored", () => {
    expect(f.format).toBe("istio-cni");
    expect(f.kind).toBe("istio-cni");
    expect(f.counts).toMatchObject({ lines: 4, records: 4, skipped: 0, continuation: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2023-07-11T11:19:29.414Z", "2023-07-11T11:19:29.415Z", "2023-07-11T11:19:29.415Z", "2023-07-11T11:19:29.430Z"]);
    for (const r of f.records) {
      expect(r).toMatchObject({ component: "istio-cni", severity: 1, precision: "us", zoneAssumed: false, yearInferred: false });
      expect(r.fields?.scope).toBe("install");
    }
  });

  it("keeps each message whole: record 2 writes the conflist", () => {
    expect(f.records[0].message).toBe("CNI config file /host/etc/cni/net.d/05-cilium.conflist exists. Proceeding.");
    expect(f.records[1].message).toBe("Created CNI config /host/etc/cni/net.d/05-cilium.conflist");
    expect(f.records[3].message).toBe("Detect changes to the CNI configuration and binaries, attempt reinstalling...");
  });
});

describe("istio-cni agent, single spaces (a copy of the agent's output)", () => {
  // six lines written for this test in the shape the agent prints, tabs replaced by single spaces
  const text = [
    '2025-05-19T04:20:04.809762Z info cni-agent configuration requires updates, (re)writing CNI config file at "/host/etc/cni/net.d/05-cilium.conflist": istio-cni CNI config removed from CNI config file',
    "2025-05-19T04:20:04.811203Z info cni-agent created CNI config /host/etc/cni/net.d/05-cilium.conflist",
    "2025-05-19T04:20:04.811290Z info cni-agent Istio CNI configuration and binaries validated/reinstalled",
    "2025-05-19T04:20:04.818007Z info file modified: /host/etc/cni/net.d/.05-cilium.conflist2209817161",
    "2025-05-19T04:20:04.820411Z warn cni-agent detected changes to the node-level CNI setup, checking to see if configs or binaries need redeploying",
    "2025-05-19T04:20:04.871944Z error install failed to write CNI config: rename /host/etc/cni/net.d/05-cilium.conflist: device or resource busy",
  ].join("\n");
  const f = parseFile("istio-cni-node.log", text);

  it("reads 6 zap console records with their scopes", () => {
    expect(f.format).toBe("istio-cni");
    expect(f.counts).toMatchObject({ lines: 6, records: 6, skipped: 0 });
    expect(f.records.map((r) => r.fields?.scope ?? null)).toEqual(["cni-agent", "cni-agent", "cni-agent", null, "cni-agent", "install"]);
    expect(f.records.map((r) => r.severity)).toEqual([1, 1, 1, 1, 2, 3]);
    expect(f.records.every((r) => r.component === "istio-cni")).toBe(true);
    expect(iso(f.records[1])).toBe("2025-05-19T04:20:04.811Z");
  });

  it("keeps the message whole after the scope", () => {
    expect(f.records[0].message).toBe(
      'configuration requires updates, (re)writing CNI config file at "/host/etc/cni/net.d/05-cilium.conflist": istio-cni CNI config removed from CNI config file',
    );
    expect(f.records[1].message).toBe("created CNI config /host/etc/cni/net.d/05-cilium.conflist");
    expect(f.records[3].message).toBe("file modified: /host/etc/cni/net.d/.05-cilium.conflist2209817161");
  });
});

describe("istio zap console, tabs expanded to tab stops", () => {
  const text = [
    '2023-07-18T10:34:54.346071Z     info    FLAG: --ambient-enabled="false"',
    "2025-06-12T20:58:31.500067Z     info    cni-agent       CNI version: 1.26.1",
    "2025-06-12T20:58:31.500240Z     info    cni-agent       CNI install configuration:",
    "MountedCNINetDir: /host/etc/cni/net.d",
    "2025-06-12T20:58:31.500255Z     info    install Created CNI config /host/etc/cni/net.d/10-calico.conflist",
  ].join("\n");
  const f = parseFile("cni.log", text);

  it("a 7-letter scope padded with one space, a FLAG line without scope, a continuation", () => {
    expect(f.format).toBe("istio-cni");
    expect(f.counts).toMatchObject({ records: 4, continuation: 1, skipped: 0 });
    expect(f.records[0].fields).toBeUndefined();
    expect(f.records[0].message).toBe('FLAG: --ambient-enabled="false"');
    expect(f.records[1].fields?.scope).toBe("cni-agent");
    expect(f.records[2].message).toBe("CNI install configuration:\nMountedCNINetDir: /host/etc/cni/net.d");
    expect(f.records[3]).toMatchObject({ message: "Created CNI config /host/etc/cni/net.d/10-calico.conflist", fields: { scope: "install" } });
  });
});

describe("case 103: Cloud Logging entries, pretty-printed, newest first", () => {
  const name = "103-gcp-cloud-logging-export-jsonpayload-pretty.log";
  const f = parseFile(name, caseText(name));

  it("reads 36 lines as 3 records and 33 continuations", () => {
    expect(f.format).toBe("gcp-logging-json");
    expect(f.counts).toMatchObject({ lines: 36, parsed: 36, records: 3, continuation: 33, skipped: 0, banner: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
  });

  it("reverses the newest-first listing; the payload's level wins over the entry's severity", () => {
    expect(f.records.map(iso)).toEqual(["2021-06-04T20:11:07.442Z", "2021-06-04T20:11:07.449Z", "2021-06-04T20:11:07.449Z"]);
    expect(f.records.map((r) => r.line)).toEqual([25, 13, 1]);
    expect(f.records.map((r) => r.message)).toEqual(["Reconciling", "Reconciled", "Reconciling"]);
    expect(f.records.map((r) => r.fields?.component)).toEqual(["cni", "cni", "nodeagent"]);
    for (const r of f.records) {
      expect(r.severity).toBe(1);
      expect(r.component).toBe("istio-operator");
      expect(r.host).toBeUndefined();
      expect(r.fields).toMatchObject({
        logger: "controller",
        trigger: "istio-system/mesh",
        correlationID: "9c9b9d1d-d450-9794-904f-3d490f59d773",
        "entry.severity": "ERROR",
      });
    }
    expect(f.records[2]).toMatchObject({ line: 1, endLine: 12 });
  });
});

describe("Cloud Logging entries in a JSON array, oldest first", () => {
  const text = JSON.stringify(
    [
      {
        textPayload: 'I0301 10:00:00.100200    1820 kubelet.go:2321] "Starting kubelet main sync loop"',
        resource: { type: "k8s_node", labels: { node_name: "gke-a" } },
        timestamp: "2023-03-01T10:00:00.101Z",
        severity: "INFO",
        logName: "projects/p/logs/kubelet",
      },
      {
        textPayload: "plain text from a script",
        resource: { type: "k8s_node", labels: { node_name: "gke-a" } },
        timestamp: "2023-03-01T10:00:05.5Z",
        severity: "WARNING",
        logName: "projects/p/logs/node-problem-detector",
      },
    ],
    null,
    2,
  );
  const f = parseFile("export.json", text);

  it("keeps file order, completes the klog stamp from the entry, falls back on the entry's time and severity", () => {
    expect(f.format).toBe("gcp-logging-json");
    expect(f.counts.records).toBe(2);
    expect(f.counts.banner).toBe(1); // the `[` line
    expect(f.records.map(iso)).toEqual(["2023-03-01T10:00:00.100Z", "2023-03-01T10:00:05.500Z"]);
    expect(f.records[0]).toMatchObject({ component: "kubelet", host: "gke-a", severity: 1, message: "Starting kubelet main sync loop" });
    expect(f.records[1]).toMatchObject({ component: "node-problem-detector", severity: 2, message: "plain text from a script" });
  });
});

describe("other console layouts", () => {
  it("logrus terminal layout: seconds since start are no clock", () => {
    const f = parseFile(
      "crictl.txt",
      'FATA[0000] run pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "ab12": plugin type="calico" failed (add): pods "x" not found\n',
    );
    expect(f.format).toBe("logrus-text");
    expect(f.records[0]).toMatchObject({ ts: null, severity: 4, component: "crictl", fields: { elapsed: "0" } });
    expect(f.records[0].message.startsWith("run pod sandbox: rpc error")).toBe(true);
  });

  it("Weave Net", () => {
    const f = parseFile(
      "weave.log",
      "INFO: 2023/07/02 05:11:52.598601 Our name is 36:11:85:21:8c:f6(worker1)\nERRO: 2023/07/02 05:11:53.000101 Captured frame from MAC not known\n",
    );
    expect(f.format).toBe("weave");
    expect(f.records.map((r) => [iso(r), r.severity, r.component])).toEqual([
      ["2023-07-02T05:11:52.598Z", 1, "weave"],
      ["2023-07-02T05:11:53.000Z", 3, "weave"],
    ]);
  });

  it("Multus entrypoint with a JSON dump between its lines", () => {
    const text = [
      "2021-07-12T16:50:00+0000 Generating Multus configuration file using files in /host/etc/cni/net.d...",
      "2021-07-12T16:50:00+0000 Config file created @ /host/etc/cni/net.d/00-multus.conf",
      '{ "cniVersion": "0.3.1", "name": "multus-cni-network", "type": "multus" }',
      "2021-07-12T16:50:01+0000 Entering sleep (success)...",
    ].join("\n");
    const f = parseFile("kube-multus-ds.log", text);
    expect(f.format).toBe("multus");
    expect(f.counts).toMatchObject({ records: 3, continuation: 1, skipped: 0 });
    expect(iso(f.records[2])).toBe("2021-07-12T16:50:01.000Z");
  });

  it("journal lines carrying the kata shim, Weave and a coloured logrus line", () => {
    const text = [
      'May 19 04:20:05 node-p containerd[811]: time="2025-05-19T04:20:05.100200300Z" level=error msg="failed to create sandbox" name=containerd-shim-v2 pid=4410 sandbox=ab12 source=virtcontainers subsystem=sandbox',
      "May 19 04:20:06 node-p dockerd[700]: INFO: 2025/05/19 04:20:06.000300 Discovered remote MAC 2a:b3:aa:51:10:01 at 36:11:85:21:8c:f6(worker1)",
    ].join("\n");
    const f = parseFile("journal.txt", text, { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.records.map((r) => r.component)).toEqual(["kata", "docker"]);
    expect(f.records[1].message).toBe("Discovered remote MAC 2a:b3:aa:51:10:01 at 36:11:85:21:8c:f6(worker1)");
  });
});
