/**
 * Node collectors through the real pipeline (unpack, lib/bundle/collectors.ts, parse, boots, COPY
 * into PostgreSQL, report): one small bundle per collector that gathers one node's logs (the EKS
 * log collector, Rancher's, kind's export, sos report, AKS Periscope, Bottlerocket logdog,
 * talosctl support), built on the fly with the collector's real file names and line formats,
 * asserting the collector, the nodes, each file's kind (and status for duplicates and noise), the
 * boots, and that every file's line accounting adds up.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { buildTar, buildTarGz, type TarMember } from "../lib/bundle/tar-build";
import { buildZip } from "../lib/bundle/zip-build";
import { bundleWarnings } from "../lib/incidents/bundle-warnings";
import { boots, byPath, collectorDb, CUR, dashed, expectAccounting, HEX, klog, PREV } from "./collectors-fixture";

const { db, ingest } = collectorDb();

describe("node collector layouts through the pipeline", () => {
  it("EKS log collector: journal hostname as node, instance id as alias, noise and duplicates dropped, year from the archive name", async () => {
    const host = "ip-10-20-30-40.ec2.internal";
    const kubelet = [
      `May 19 04:10:00 ${host} kubelet[2100]: ${klog("I", "04:10:00", "100000", 2100, '"Starting kubelet main sync loop"')}`,
      `May 19 04:18:50 ${host} kubelet[2100]: ${klog("I", "04:18:50", "000000", 2100, '"Shutting down"')}`,
      `-- Boot ${CUR} --`,
      `May 19 04:19:40 ${host} kubelet[2817]: ${klog("I", "04:19:40", "512344", 2817, '"Starting kubelet main sync loop"')}`,
      `May 19 04:20:09 ${host} kubelet[2817]: ${klog("E", "04:20:09", "001877", 2817, '"Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"')}`,
    ].join("\n");
    const containerd = [
      "Warning: Journal has been rotated since unit was started. Log output is incomplete or unavailable.",
      `May 19 04:09:55 ${host} containerd[700]: time="2025-05-19T04:09:55.000000001Z" level=info msg="starting containerd" revision=abc version=v1.7.27`,
      `-- Boot ${CUR} --`,
      `May 19 04:19:35 ${host} containerd[811]: time="2025-05-19T04:19:35.931046219Z" level=info msg="starting containerd" revision=abc version=v1.7.27`,
      `May 19 04:19:36 ${host} containerd[811]: time="2025-05-19T04:19:36.100000000Z" level=info msg="containerd successfully booted in 0.168s"`,
      `May 19 04:31:05 ${host} containerd[811]: time="2025-05-19T04:31:05.000000000Z" level=info msg="=== BEGIN goroutine stack dump ==="`,
      `May 19 04:31:05 ${host} containerd[811]: goroutine 1 [chan receive, 11 minutes]:`,
      `May 19 04:31:05 ${host} containerd[811]: main.main()`,
      `May 19 04:31:05 ${host} containerd[811]:         /go/src/github.com/containerd/containerd/cmd/containerd/main.go:39 +0x25`,
      `May 19 04:31:05 ${host} containerd[811]: === END goroutine stack dump ===`,
    ].join("\n");
    const aws = `2025-05-19T04:20:01.000000001Z stdout F {"level":"info","ts":"2025-05-19T04:20:01.000Z","caller":"entrypoint.sh","msg":"Successfully copied CNI plugin binary and config file."}\n`;
    const tgz = buildTarGz([
      { path: "./kubelet/kubelet.log", content: kubelet },
      { path: "./containerd/containerd-log.txt", content: containerd },
      { path: "./containerd/containerd.811.stacks.log", content: "goroutine 1 [running]:\nmain.main()\n" },
      { path: "./system/instance-id.txt", content: "i-0abc123def4567890\n" },
      {
        path: "./system/last_reboot.txt",
        content:
          "reboot   system boot  6.1.134-150.224. Mon May 19 04:19   still running\nreboot   system boot  6.1.134-150.224. Mon May 12 00:00 - 04:18 (7+04:18)\n\nwtmp begins Thu May  1 00:00:02 2025\n",
      },
      {
        path: "./kernel/dmesg.current",
        content: "[    0.000000] Linux version 6.1.134-150.224.amzn2023.x86_64\n[    5.120000] ena 0000:00:05.0 eth0: ENA device version: 0.10\n",
      },
      {
        path: "./var_log/aws-routed-eni/ipamd.log",
        content:
          '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs having 2 secondary IPs and 1 Prefixes"}\n{"level":"error","ts":"2025-05-19T13:20:08.902+0900","caller":"ipamd/ipamd.go:900","msg":"Failed to get ENI"}\n',
      },
      { path: `./var_log/aws-node-abcde_kube-system_aws-node-${HEX("a")}.log`, content: aws },
      { path: "./var_log/kube-system_aws-node-abcde_0f0e1d2c-0000-4000-8000-000000000001/aws-node/0.log", content: aws },
    ]);
    const r = await ingest([{ name: "eks_i-0abc123def4567890_2025-05-19_0431-UTC_0.7.9.tar.gz", data: tgz }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("eks-log-collector");
    expect(r.nodes.map((n) => [n.name, n.aliases])).toEqual([[host, ["i-0abc123def4567890"]]]);
    const f = byPath(r);
    expect(f["kubelet/kubelet.log"]).toMatchObject({
      status: "read",
      kind: "kubelet",
      format: "journal-short",
      node: host,
      records: 4,
      banner: 1,
      yearSource: "collected",
    });
    expect(f["containerd/containerd-log.txt"]).toMatchObject({
      status: "read",
      kind: "containerd",
      records: 3,
      banner: 1,
      skipped: 6,
      skippedByReason: { "journalctl-warning": 1, "collector-stack-dump": 5 },
    });
    expect(f["containerd/containerd.811.stacks.log"]).toMatchObject({ status: "skipped", reason: "collector-stack-dump" });
    // what the collector holds on purpose (its dump, journalctl's warning, instance-id.txt) is no warning
    expect(bundleWarnings({ status: "ready", counts: {}, files: r.files.map((x) => ({ ...x, reason: x.reason ?? null })) })).toEqual([]);
    expect(f["system/last_reboot.txt"]).toMatchObject({ kind: "wtmp", format: "last-reboot", records: 2 });
    expect(f["kernel/dmesg.current"]).toMatchObject({ kind: "kernel", format: "dmesg", records: 2, noTimestamp: 2 });
    expect(f["var_log/aws-routed-eni/ipamd.log"]).toMatchObject({ kind: "aws-vpc-cni", format: "zap-json", records: 2, node: host });
    // the containers/ copy and the pods/ copy hold the same bytes: one is a duplicate of the other
    const copies = [
      f[`var_log/aws-node-abcde_kube-system_aws-node-${HEX("a")}.log`],
      f["var_log/kube-system_aws-node-abcde_0f0e1d2c-0000-4000-8000-000000000001/aws-node/0.log"],
    ];
    expect(copies.map((c) => c.status).sort()).toEqual(["duplicate", "read"]);
    expect(copies.find((c) => c.status === "duplicate")!.duplicateOf).toBe(copies.find((c) => c.status === "read")!.path);
    expect(boots(r, host)).toEqual([
      { id: "inferred-1", start: "2025-05-12T00:00:00.000Z", detectedBy: "last-reboot" },
      { id: CUR, start: "2025-05-19T04:19:35.931Z", detectedBy: "separator" },
    ]);
    // the dump's lines are not events; the warning neither
    const msgs = await db().sql.query<{ message: string }>(
      `SELECT e.message FROM "Event" e JOIN "SourceFile" s ON s.id = e."fileId" WHERE s.path = 'containerd/containerd-log.txt' ORDER BY e.line`,
    );
    expect(msgs.map((m) => m.message)).toEqual(["starting containerd", "starting containerd", "containerd successfully booted in 0.168s"]);
  });

  it("Rancher logs collector: node from the top folder, rke2 klog file with its header, kubectl tables anchored on systeminfo/date", async () => {
    const top = "ip-10-20-30-40-2025-05-19_04_31_02";
    const tgz = buildTarGz([
      { path: `./${top}/collector-output.log`, content: "Collecting logs\n" },
      { path: `./${top}/systeminfo/date`, content: "Mon May 19 04:31:02 UTC 2025\n" },
      {
        path: `./${top}/systeminfo/dmesg`,
        content: "[Mon May 19 04:19:31 2025] Linux version 6.1.0-21-cloud-amd64\n[Mon May 19 04:19:33 2025] ena 0000:00:05.0 eth0: ENA device version: 0.10\n",
      },
      {
        path: `./${top}/journald/rke2-agent`,
        content: [
          `May 19 04:12:00 ip-10-20-30-40 rke2[1500]: time="2025-05-19T04:12:00Z" level=info msg="Starting rke2 agent v1.31.4+rke2r1"`,
          `-- Boot ${CUR} --`,
          `May 19 04:19:45 ip-10-20-30-40 rke2[900]: time="2025-05-19T04:19:45Z" level=info msg="Starting rke2 agent v1.31.4+rke2r1"`,
        ].join("\n"),
      },
      {
        path: `./${top}/rke2/agent-logs/kubelet.log`,
        content: [
          "Log file created at: 2025/05/19 04:19:50",
          "Running on machine: ip-10-20-30-40",
          "Binary: Built with gc go1.23.6 for linux/amd64",
          "Log line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg",
          klog("I", "04:19:50", "100000", 1234, '"Starting kubelet main sync loop"'),
          klog(
            "E",
            "04:20:09",
            "001877",
            1234,
            '"Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
          ),
        ].join("\n"),
      },
      { path: `./${top}/rke2/containerd.log`, content: 'time="2025-05-19T04:19:47.000000001Z" level=info msg="starting containerd" version=v1.7.23-k3s2\n' },
      {
        path: `./${top}/rke2/kubectl/events`,
        content: `NAMESPACE   LAST SEEN   TYPE      REASON     OBJECT                  MESSAGE\ndefault     10m         Warning   Rebooted   node/ip-10-20-30-40     Node ip-10-20-30-40 has been rebooted, boot id: ${dashed(CUR)}\n`,
      },
    ]);
    const r = await ingest([{ name: `${top}.tar.gz`, data: tgz }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("rancher-logs-collector");
    expect(r.nodes.map((n) => n.name)).toEqual(["ip-10-20-30-40"]);
    const f = byPath(r);
    const p = (s: string) => f[`${top}/${s}`];
    expect(p("systeminfo/dmesg")).toMatchObject({ kind: "kernel", records: 2, node: "ip-10-20-30-40" });
    expect(p("journald/rke2-agent")).toMatchObject({ kind: "rke2", format: "journal-short", records: 2, banner: 1 });
    expect(p("rke2/agent-logs/kubelet.log")).toMatchObject({ kind: "kubelet", format: "klog", records: 2, banner: 4, yearSource: "header" });
    expect(p("rke2/containerd.log")).toMatchObject({ kind: "containerd", format: "containerd-logrus" });
    expect(p("rke2/kubectl/events")).toMatchObject({ kind: "k8s-events", format: "kubectl-events-table", records: 1 });
    expect(boots(r, "ip-10-20-30-40")).toEqual([
      { id: "inferred-1", start: "2025-05-19T04:12:00.000Z", detectedBy: "first-event" },
      { id: CUR, start: "2025-05-19T04:19:31.000Z", detectedBy: "separator" },
    ]);
  });

  it("kind export logs (zipped): a node per folder, unit dumps and container copies dropped as duplicates", async () => {
    const journal = (node: string, pidK: number) =>
      [
        `Feb 15 23:20:00 ${node} kernel: Linux version 6.5.0-1014-azure`,
        `Feb 15 23:20:05 ${node} containerd[${pidK}]: time="2024-02-15T23:20:05.100000000Z" level=info msg="starting containerd" version=v1.7.13`,
        `Feb 15 23:20:09 ${node} kubelet[${pidK + 100}]: ${klog("I", "23:20:09", "000001", pidK + 100, '"Starting kubelet main sync loop"').replace("0519", "0215")}`,
      ].join("\n");
    const unit = (node: string, pidK: number, ident: "containerd" | "kubelet") =>
      journal(node, pidK)
        .split("\n")
        .filter((l) => l.includes(` ${ident}[`))
        .join("\n");
    const cri =
      '2024-02-15T23:21:00.000000001Z stderr F level=info msg="Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist" subsys=cni-config\n';
    const zip = buildZip([
      { path: "kind-logs/kind-version.txt", content: "kind v0.22.0 go1.21.7 linux/amd64\n" },
      { path: "kind-logs/docker-info.txt", content: "Client: Docker Engine\n" },
      ...["kind-control-plane", "kind-worker"].flatMap((n, i) => [
        { path: `kind-logs/${n}/journal.log`, content: journal(n, 700 + i) },
        { path: `kind-logs/${n}/kubelet.log`, content: unit(n, 700 + i, "kubelet") },
        { path: `kind-logs/${n}/containerd.log`, content: unit(n, 700 + i, "containerd") },
        {
          path: `kind-logs/${n}/serial.log`,
          content: `systemd 252.22-1~deb12u1 running in system mode\nWelcome to Debian GNU/Linux 12 (bookworm)!\nSet hostname to <${n}>.\n`,
        },
        { path: `kind-logs/${n}/kubernetes-version.txt`, content: "v1.29.2\n" },
      ]),
      { path: `kind-logs/kind-worker/containers/cilium-x2x9q_kube-system_cilium-agent-${HEX("b")}.log`, content: cri },
      { path: "kind-logs/kind-worker/pods/kube-system_cilium-x2x9q_0f0e1d2c-0000-4000-8000-000000000002/cilium-agent/0.log", content: cri },
    ]);
    const r = await ingest([{ name: "kind-logs.zip", data: zip }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("kind-export-logs");
    expect(r.nodes.map((n) => n.name)).toEqual(["kind-control-plane", "kind-worker"]);
    const f = byPath(r);
    for (const n of ["kind-control-plane", "kind-worker"]) {
      expect(f[`kind-logs/${n}/journal.log`]).toMatchObject({ status: "read", kind: "journal", node: n, records: 3 });
      expect(f[`kind-logs/${n}/kubelet.log`]).toMatchObject({ status: "duplicate", duplicateOf: `kind-logs/${n}/journal.log` });
      expect(f[`kind-logs/${n}/containerd.log`]).toMatchObject({ status: "duplicate", duplicateOf: `kind-logs/${n}/journal.log` });
      expect(f[`kind-logs/${n}/serial.log`]).toMatchObject({ status: "read", format: "unknown" });
      expect(boots(r, n)).toEqual([{ id: "inferred-1", start: "2024-02-15T23:20:00.000Z", detectedBy: "kernel-start" }]);
    }
    const copies = [
      f[`kind-logs/kind-worker/containers/cilium-x2x9q_kube-system_cilium-agent-${HEX("b")}.log`],
      f["kind-logs/kind-worker/pods/kube-system_cilium-x2x9q_0f0e1d2c-0000-4000-8000-000000000002/cilium-agent/0.log"],
    ];
    expect(copies.map((c) => c.status).sort()).toEqual(["duplicate", "read"]);
    expect(copies.find((c) => c.status === "read")).toMatchObject({ kind: "cilium", node: "kind-worker" });
  });

  it("sos report (.tar.xz, sos 4.10): separators name the boot before them, list-boots names the current boot, overlapping dumps dropped", async () => {
    const top = "sosreport-ip-10-20-30-40-2025-05-19-abcdefg";
    const h = "ip-10-20-30-40";
    const whole = [
      `May 12 00:00:03 ${h} kernel: Linux version 6.1.134-150.224.amzn2023.x86_64`,
      `May 19 04:10:00 ${h} kubelet[2100]: ${klog("I", "04:10:00", "100000", 2100, '"Starting kubelet main sync loop"')}`,
      `May 19 04:18:52 ${h} systemd[1]: Shutting down.`,
      `-- Boot ${PREV} --`,
      `May 19 04:19:31 ${h} kernel: Linux version 6.1.134-150.224.amzn2023.x86_64`,
      `May 19 04:19:40 ${h} kubelet[2817]: ${klog("I", "04:19:40", "512344", 2817, '"Starting kubelet main sync loop"')}`,
      `May 19 04:31:10 ${h} systemd[1]: Started sosreport.`,
    ];
    const members: TarMember[] = [
      { path: `${top}/version.txt`, content: "sosreport: 4.10.0\n" },
      { path: `${top}/sos_commands/host/hostname`, content: `${h}\n` },
      { path: `${top}/sos_commands/date/date`, content: "Mon May 19 04:31:12 UTC 2025\n" },
      { path: `${top}/sos_commands/logs/journalctl_--no-pager`, content: whole.join("\n") },
      { path: `${top}/sos_commands/logs/journalctl_--no-pager_--boot_-1`, content: whole.slice(0, 3).join("\n") },
      { path: `${top}/sos_commands/kubernetes/journalctl_--no-pager_--unit_kubelet`, content: [whole[1], `-- Boot ${PREV} --`, whole[5]].join("\n") },
      {
        path: `${top}/sos_commands/systemd/journalctl_--list-boots`,
        content: `IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY\n -1 ${PREV} Mon 2025-05-12 00:00:03 UTC Mon 2025-05-19 04:18:52 UTC\n  0 ${CUR} Mon 2025-05-19 04:19:31 UTC Mon 2025-05-19 04:31:10 UTC\n`,
      },
    ];
    const tar = buildTar(members);
    // sos's default compression; xz-utils is a test requirement (`.ci/run` installs it)
    const data = execFileSync("xz", ["-z", "-c", "-T1"], { input: tar });
    const name = `${top}.tar.xz`;
    const r = await ingest([{ name, data }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("sosreport");
    expect(r.nodes.map((n) => n.name)).toEqual([h]);
    const f = byPath(r);
    const p = (s: string) => f[`${top}/${s}`];
    expect(p("sos_commands/logs/journalctl_--no-pager")).toMatchObject({ status: "read", kind: "journal", records: 6, banner: 1, yearSource: "collected" });
    expect(p("sos_commands/logs/journalctl_--no-pager_--boot_-1")).toMatchObject({
      status: "duplicate",
      duplicateOf: `${top}/sos_commands/logs/journalctl_--no-pager`,
    });
    expect(p("sos_commands/kubernetes/journalctl_--no-pager_--unit_kubelet")).toMatchObject({ status: "duplicate" });
    expect(p("sos_commands/systemd/journalctl_--list-boots")).toMatchObject({ kind: "list-boots", format: "journal-list-boots", records: 2, banner: 1 });
    expect(boots(r, h)).toEqual([
      { id: PREV, start: "2025-05-12T00:00:03.000Z", detectedBy: "boot-id" },
      { id: CUR, start: "2025-05-19T04:19:31.000Z", detectedBy: "separator" },
    ]);
  });

  it("AKS Periscope (downloaded blob folder, zipped): a node per folder under the run id, year from the run id", async () => {
    const run = "2025-05-19T04-31-02Z";
    const j = (h: string, t: string, pid: number) => `May 19 ${t} ${h} kubelet[${pid}]: ${klog("I", t, "000001", pid, '"Starting kubelet main sync loop"')}`;
    const zip = buildZip([
      {
        path: `${run}/aks-nodepool1-12345678-vmss000000/kubelet`,
        content: `-- Logs begin at Mon 2025-05-12 00:00:03 UTC, end at Mon 2025-05-19 04:31:00 UTC. --\n${j("aks-nodepool1-12345678-vmss000000", "04:19:50", 3000)}\n`,
      },
      { path: `${run}/aks-nodepool1-12345678-vmss000001/kubelet`, content: `${j("aks-nodepool1-12345678-vmss000001", "04:18:10", 3100)}\n` },
      { path: `${run}/aks-nodepool1-12345678-vmss000001/var_log_azure_cluster-provision.log`, content: "provisioning done\n" },
    ]);
    const r = await ingest([{ name: "periscope.zip", data: zip }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("aks-periscope");
    expect(r.nodes.map((n) => n.name)).toEqual(["aks-nodepool1-12345678-vmss000000", "aks-nodepool1-12345678-vmss000001"]);
    const f = byPath(r);
    expect(f[`${run}/aks-nodepool1-12345678-vmss000000/kubelet`]).toMatchObject({ kind: "kubelet", banner: 1, yearSource: "banner" });
    expect(f[`${run}/aks-nodepool1-12345678-vmss000001/kubelet`]).toMatchObject({ kind: "kubelet", yearSource: "collected" });
    expect(f[`${run}/aks-nodepool1-12345678-vmss000001/var_log_azure_cluster-provision.log`]).toMatchObject({
      node: "aks-nodepool1-12345678-vmss000001",
      format: "unknown",
    });
    expect(boots(r, "aks-nodepool1-12345678-vmss000001")).toEqual([{ id: "inferred-1", start: "2025-05-19T04:18:10.000Z", detectedBy: "first-event" }]);
  });

  it("Bottlerocket logdog: node from the journal, journalctl.errors a duplicate, boots from separators and journalctl-boots (year from it)", async () => {
    const h = "ip-10-20-30-40.us-west-2.compute.internal";
    const journal = [
      `May 12 00:00:03 ${h} kernel: Linux version 6.1.134`,
      `May 19 04:18:40 ${h} kubelet[2100]: ${klog("E", "04:18:40", "000001", 2100, '"Failed to update node status"')}`,
      `-- Boot ${CUR} --`,
      `May 19 04:19:31 ${h} kernel: Linux version 6.1.134`,
      `May 19 04:19:45 ${h} kubelet[2817]: ${klog("I", "04:19:45", "000001", 2817, '"Starting kubelet main sync loop"')}`,
    ];
    const tgz = buildTarGz([
      { path: "bottlerocket-logs/journalctl.log", content: journal.join("\n") },
      { path: "bottlerocket-logs/journalctl.errors", content: journal[1] },
      {
        path: "bottlerocket-logs/journalctl-boots",
        content: `-1 ${PREV} Mon 2025-05-12 00:00:03 UTC\u2014Mon 2025-05-19 04:18:52 UTC\n 0 ${CUR} Mon 2025-05-19 04:19:31 UTC\u2014Mon 2025-05-19 04:31:00 UTC\n`,
      },
      { path: "bottlerocket-logs/dmesg", content: "[    0.000000] Linux version 6.1.134\n" },
      { path: "bottlerocket-logs/os-release", content: "NAME=Bottlerocket\nVERSION_ID=1.20.0\n" },
    ]);
    const r = await ingest([{ name: "bottlerocket-logs.tar.gz", data: tgz }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("bottlerocket-logdog");
    expect(r.nodes.map((n) => n.name)).toEqual([h]);
    const f = byPath(r);
    expect(f["bottlerocket-logs/journalctl.log"]).toMatchObject({ status: "read", kind: "journal", records: 4, yearSource: "collected" });
    expect(f["bottlerocket-logs/journalctl.errors"]).toMatchObject({ status: "duplicate", duplicateOf: "bottlerocket-logs/journalctl.log" });
    expect(f["bottlerocket-logs/journalctl-boots"]).toMatchObject({ kind: "list-boots", records: 2 });
    expect(boots(r, h)).toEqual([
      { id: PREV, start: "2025-05-12T00:00:03.000Z", detectedBy: "first-event" },
      { id: CUR, start: "2025-05-19T04:19:31.000Z", detectedBy: "separator" },
    ]);
  });

  it("talosctl support (zip): the node from its hostname resource, the address folder an alias, state files skipped, boot from dmesg", async () => {
    const node = "10.5.0.2";
    const zip = buildZip([
      {
        path: `${node}/dmesg.log`,
        content: [
          "kern:  notice: [2025-05-19T04:19:31.000000000Z]: Linux version 6.6.32-talos (@buildkitsandbox) (gcc (GCC) 13.2.0, GNU ld (GNU Binutils) 2.42) #1 SMP Mon Jun  3 15:09:46 UTC 2024",
          "user: warning: [2025-05-19T04:19:40.512034871Z]: [talos] service[kubelet](Running): Started task kubelet (PID 2656) for container kubelet",
        ].join("\n"),
      },
      {
        path: `${node}/cri.log`,
        content:
          '{"level":"info","msg":"starting containerd","revision":"88aa2f531d6c2922003cc7929e51daf1c14caa0a","time":"2025-05-19T04:19:35.000000001Z","version":"v2.0.1"}\n',
      },
      {
        path: `${node}/kubelet.log`,
        content: '{"ts":1747628385000.123,"caller":"kubelet/kubelet.go:2412","msg":"Starting kubelet main sync loop","v":0}\n',
      },
      { path: `${node}/kubelet.state`, content: "ID         kubelet\nSTATE      Running\nHEALTH     OK\n" },
      {
        path: `${node}/kube-system/kube-flannel.log`,
        content: "2025-05-19T04:19:45.000000000Z stderr F I0519 04:19:45.000000       1 main.go:212] CLI flags config: {etcdEndpoints:http://127.0.0.1:4001}\n",
      },
      {
        path: `${node}/talosResources/hostnamestatuses.net.talos.dev.yaml`,
        content:
          'metadata:\n    namespace: network\n    type: HostnameStatuses.net.talos.dev\n    id: hostname\nspec:\n    hostname: talos-worker-1\n    domainname: ""\n',
      },
      { path: `${node}/summary`, content: "Client:\n\tTag: v1.7.4\n" },
      { path: "cluster/kubernetesResources/nodes.yaml", content: "apiVersion: v1\nitems: []\nkind: List\n" },
    ]);
    const r = await ingest([{ name: "support.zip", data: zip }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("talos-support");
    expect(r.nodes.map((n) => n.name)).toEqual(["talos-worker-1"]);
    const f = byPath(r);
    expect(f[`${node}/dmesg.log`]).toMatchObject({ format: "talos-dmesg", node: "talos-worker-1", records: 2 });
    expect(f[`${node}/kubelet.log`]).toMatchObject({ format: "klog-json", node: "talos-worker-1", records: 1 });
    expect(f[`${node}/cri.log`]).toMatchObject({ node: "talos-worker-1", records: 1, kind: "containerd" });
    expect(f[`${node}/kube-system/kube-flannel.log`]).toMatchObject({ format: "cri-log", node: "talos-worker-1", records: 1 });
    for (const p of [
      `${node}/kubelet.state`,
      `${node}/talosResources/hostnamestatuses.net.talos.dev.yaml`,
      `${node}/summary`,
      "cluster/kubernetesResources/nodes.yaml",
    ])
      expect(f[p], p).toMatchObject({ status: "skipped", reason: "collector-state" });
    expect(boots(r, "talos-worker-1").map((b) => [b.start, b.detectedBy])).toEqual([["2025-05-19T04:19:31.000Z", "kernel-start"]]);
  });
});
