/**
 * Azure CNI plugin logs `/var/log/azure-vnet.log`, `azure-vnet-ipam.log` (and the same logger's
 * `azure-vnet-telemetry.log`): upstream Azure/azure-container-networking `log/logger.go` (Go's
 * `log.LstdFlags` stamp, a `[pid] ` prefix added by the logger from v1.1.x on, the caller's
 * `[tag] ` in the message: `cni-net`, `cni-ipam`, `net`, `ipam`, `azure-vnet`, `Azure-Utils`, …).
 *
 *     2021/02/12 00:08:59 [3045] [cni-net] Processing ADD command with args {ContainerID:9a8b… Netns:/proc/28533/ns/net IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-1;… Path:/opt/cni/bin}.
 *     2021/02/12 00:08:59 [3045] [cni-net] ADD command completed for pod web-1 with IP:[] err:Failed to allocate pool: … No available addresses.
 *     2019/04/13 05:14:32 [cni-ipam] ADD command completed with result:<nil> err:Failed to allocate address: No available addresses.   (no pid)
 *     2023/08/11 02:14:30 [299160] [net] Restored state
 *     {"level":"info","ts":"2023-08-11T02:14:30.471Z","msg":"[cni-net] Processing ADD command","pid":299160,…}              (zap era, mixed in)
 *
 * Stamp: `YYYY/MM/DD hh:mm:ss` (optionally `.uuuuuu`), the node's local time, no zone. The logger
 * prints no level: records are info, except a `<CMD> command completed … err:<x>` whose `x` is not
 * `<nil>` (error, `fields.err`). The message is the text after the pid and tag, kept whole (the
 * tag in `fields.tag`). One plugin run is one pid: the pod (`K8S_POD_NAMESPACE`/`K8S_POD_NAME`)
 * and container id of its `Processing <CMD> command` line are set as `fields.pod` (`ns/name`),
 * `fields.containerID` and `fields.command` on that line and on the run's `command completed`
 * line (same pid; without pids, the last `Processing` line of the same tag). Since 2023 the plugin
 * writes zap JSON (`"ts"`, `"pid"`, `"component":"cni…"`), partly mixed with the old lines; those
 * JSON lines are read here too. Component `azure-cni`.
 */
import { type ComponentLine, componentRecord, indentedContinuation } from "./helpers/component-line";
import { parseZapJson } from "./zap-json";
import type { FormatSpec, LineParser, LineResult, ParsedRecord, WallTime } from "./types";

const LINE_RE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))? (?:\[(\d+)\] )?(?:\[([A-Za-z][\w .-]{0,40})\] )?(.*)$/;
const PROCESSING_RE = /^Processing ([A-Z]+) command with args \{ContainerID:(\S*) Netns:(\S*) IfName:(\S*) Args:(\S*)/;
const COMPLETED_RE = /^([A-Z]+) command completed\b/;
const NS_RE = /(?:^|;)K8S_POD_NAMESPACE=([^;\s]+)/;
const NAME_RE = /(?:^|;)K8S_POD_NAME=([^;\s]+)/;
/** Tags the Azure CNI/CNS logger prints; one of them must appear for the sniff to accept a file. */
const TAG_SNIFF =
  /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? (?:\[\d+\] )?\[(?:cni-net|cni-ipam|cni|net|ipam|azure-vnet|azure-vnet-ipam|Azure-[\w-]+|Telemetry|telemetry|platform|cns)\] /;
const SHAPE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \[/;
const ZAP_CNI = /^\{"level":"\w+","ts":.*(?:"component":"cni(?:-net|-ipam)?"|"msg":"\[cni-(?:net|ipam)\])/;

interface Run {
  command: string;
  containerID: string;
  pod: string | null;
}

/** Parse one line of the pre-zap layout; null when it is not one. `runs` carries the open plugin runs. */
function parseAzureLine(line: string, runs: Map<string, Run>): ComponentLine | null {
  const m = LINE_RE.exec(line);
  if (!m) return null;
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const frac = m[7];
  const time: WallTime = {
    year: Number(m[1]),
    month,
    day,
    hour,
    minute,
    second,
    ms: frac ? Math.floor(Number(`${frac}000000`.slice(0, 6)) / 1000) : 0,
    offsetMin: null,
    precision: frac ? (frac.length > 3 ? "us" : "ms") : "s",
  };
  const message = m[10];
  const out: ComponentLine = { time, severity: 1, message, component: "azure-cni" };
  const fields: Record<string, string> = {};
  let hasFields = false;
  if (m[9] !== undefined) {
    fields.tag = m[9];
    hasFields = true;
  }
  if (m[8] !== undefined) out.pid = Number(m[8]);
  const key = m[8] ?? `tag:${m[9] ?? ""}`;
  const c0 = message.charCodeAt(0);
  if (c0 === 80) {
    // P: Processing <CMD> command with args {…}
    const p = PROCESSING_RE.exec(message);
    if (p) {
      const ns = NS_RE.exec(p[5]);
      const name = NAME_RE.exec(p[5]);
      const run: Run = { command: p[1], containerID: p[2], pod: ns && name ? `${ns[1]}/${name[1]}` : null };
      runs.set(key, run);
      setRun(fields, run);
      if (p[3]) fields.netns = p[3];
      hasFields = true;
    }
  } else if (c0 >= 65 && c0 <= 90) {
    const c = COMPLETED_RE.exec(message);
    if (c) {
      const at = message.indexOf(" err:", c[0].length);
      if (at >= 0) {
        const err = message.slice(at + 5).replace(/\.$/, "");
        if (err !== "<nil>" && err !== "") {
          out.severity = 3;
          fields.err = err;
        }
      }
      fields.command = c[1];
      const run = runs.get(key);
      if (run && run.command === c[1]) setRun(fields, run);
      runs.delete(key);
      hasFields = true;
    }
  }
  if (fields.command === undefined && FAILED_RE.test(message)) {
    // the plugin's own error lines (`[net] Failed to create endpoint, err:…`): errors of the open run
    out.severity = 3;
    const run = runs.get(key);
    if (run) {
      setRun(fields, run);
      hasFields = true;
    }
  }
  if (hasFields) out.fields = fields;
  return out;
}

/** The logger prints no level; these texts are the plugin's errors. */
const FAILED_RE = /^(?:Failed to |Error |error )|, err:(?!<nil>)\S/;

/**
 * A zap-era line (`{"level":…,"msg":"[cni-net] ADD command completed","pid":…,"error":"…"}`): the
 * completion logs its error as a field at info level; a non-empty `error` makes it an error with
 * `fields.err` and `fields.command`, and the pod of the run's `Processing ADD command` line (same
 * `pid`, its `args` holding `K8S_POD_NAMESPACE`/`K8S_POD_NAME`) is set on both.
 */
function zapLine(line: string, runs: Map<string, Run>): ComponentLine | null {
  const c = parseZapJson(line);
  if (!c) return null;
  const f = c.fields ?? {};
  const key = f.pid ?? "";
  const p = /^(?:\[[\w-]+\] )?Processing ([A-Z]+) command\b/.exec(c.message);
  if (p && f.args) {
    const ns = NS_RE.exec(f.args);
    const name = NAME_RE.exec(f.args);
    const run: Run = { command: p[1], containerID: f.containerId ?? f.containerID ?? "", pod: ns && name ? `${ns[1]}/${name[1]}` : null };
    runs.set(key, run);
    c.fields = { ...f };
    setRun(c.fields, run);
    return c;
  }
  const done = /^(?:\[[\w-]+\] )?([A-Z]+) command completed\b/.exec(c.message);
  if (!done) return c;
  const fields: Record<string, string> = { ...f, command: done[1] };
  const err = f.error ?? f.err;
  if (err && err !== "<nil>") {
    c.severity = 3;
    fields.err = err;
  }
  const run = runs.get(key);
  if (run && run.command === done[1]) setRun(fields, run);
  runs.delete(key);
  c.fields = fields;
  return c;
}

function setRun(fields: Record<string, string>, run: Run): void {
  fields.command = run.command;
  if (run.containerID) fields.containerID = run.containerID;
  if (run.pod) fields.pod = run.pod;
}

class AzureCniParser implements LineParser {
  readonly settled = true;
  private readonly runs = new Map<string, Run>();
  private seen = false;
  parseLine(line: string): LineResult {
    const c0 = line.charCodeAt(0);
    let c: ComponentLine | null = null;
    if (c0 >= 48 && c0 <= 57) c = parseAzureLine(line, this.runs);
    else if (c0 === 123) c = zapLine(line, this.runs);
    if (!c) {
      // a panic or a wrapped value: indented text after a record
      return indentedContinuation(line, this.seen);
    }
    this.seen = true;
    const rec: ParsedRecord = componentRecord(c, "azure-cni", true);
    return { type: "record", record: rec };
  }
}

/** Format spec: Azure CNI plugin logs (azure-vnet.log, azure-vnet-ipam.log). */
export const azureCniSpec: FormatSpec = {
  name: "azure-cni",
  kind: "cni",
  sniff(_path, lines) {
    let hits = 0;
    let tagged = false;
    let total = 0;
    for (const l of lines) {
      const c = l.charCodeAt(0);
      if (c === 32 || c === 9) continue;
      total++;
      if (SHAPE.test(l)) {
        hits++;
        if (!tagged && TAG_SNIFF.test(l)) tagged = true;
      } else if (c === 123 && ZAP_CNI.test(l)) {
        hits++;
        tagged = true;
      }
    }
    return tagged && hits * 2 >= total;
  },
  createParser: () => new AzureCniParser(),
  samples: [
    {
      line: "2022/09/30 14:02:11 [4410] [cni-net] Processing ADD command with args {ContainerID:5c0d1e2f3a4b Netns:/var/run/netns/cni-77aa IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=shop;K8S_POD_NAME=cart-7f9c;K8S_POD_INFRA_CONTAINER_ID=5c0d1e2f3a4b Path:/opt/cni/bin}.",
      expect: {
        time: { year: 2022, month: 9, day: 30, hour: 14, minute: 2, second: 11, ms: 0, offsetMin: null, precision: "s" },
        component: "azure-cni",
        severity: 1,
        pid: 4410,
        message:
          "Processing ADD command with args {ContainerID:5c0d1e2f3a4b Netns:/var/run/netns/cni-77aa IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=shop;K8S_POD_NAME=cart-7f9c;K8S_POD_INFRA_CONTAINER_ID=5c0d1e2f3a4b Path:/opt/cni/bin}.",
        fields: { tag: "cni-net", command: "ADD", containerID: "5c0d1e2f3a4b", pod: "shop/cart-7f9c", netns: "/var/run/netns/cni-77aa" },
      },
    },
    {
      line: "2022/09/30 14:02:12 [4410] [cni-net] ADD command completed for pod cart-7f9c with IP:[] err:Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses.",
      context: [
        "2022/09/30 14:02:11 [4410] [cni-net] Processing ADD command with args {ContainerID:5c0d1e2f3a4b Netns:/var/run/netns/cni-77aa IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=shop;K8S_POD_NAME=cart-7f9c;K8S_POD_INFRA_CONTAINER_ID=5c0d1e2f3a4b Path:/opt/cni/bin}.",
      ],
      expect: {
        component: "azure-cni",
        severity: 3,
        pid: 4410,
        message:
          "ADD command completed for pod cart-7f9c with IP:[] err:Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses.",
        fields: {
          tag: "cni-net",
          err: "Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses",
          command: "ADD",
          containerID: "5c0d1e2f3a4b",
          pod: "shop/cart-7f9c",
        },
      },
    },
    {
      // older plugin: no pid; the run is matched by tag
      line: "2018/11/02 07:45:09 [cni-ipam] ADD command completed with result:<nil> err:Failed to allocate address: No available addresses.",
      context: [
        "2018/11/02 07:45:09 [cni-ipam] Processing ADD command with args {ContainerID:0a1b2c Netns:/proc/991/ns/net IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=kube-system;K8S_POD_NAME=metrics-server-5c8d Path:/opt/cni/bin}.",
        "2018/11/02 07:45:09 [ipam] Save succeeded.",
      ],
      expect: {
        time: { year: 2018, month: 11, day: 2, hour: 7, minute: 45, second: 9, ms: 0, offsetMin: null, precision: "s" },
        severity: 3,
        message: "ADD command completed with result:<nil> err:Failed to allocate address: No available addresses.",
        fields: {
          tag: "cni-ipam",
          err: "Failed to allocate address: No available addresses",
          command: "ADD",
          containerID: "0a1b2c",
          pod: "kube-system/metrics-server-5c8d",
        },
      },
    },
    {
      line: "2018/11/02 07:46:30 [cni-net] DEL command completed with err:<nil>.",
      expect: { severity: 1, message: "DEL command completed with err:<nil>.", fields: { tag: "cni-net", command: "DEL" } },
    },
    {
      line: "2022/09/30 14:02:11 [4410] Connected to telemetry service",
      context: ["2022/09/30 14:02:11 [4410] [cni-net] Plugin azure-vnet version v1.4.22."],
      expect: { component: "azure-cni", pid: 4410, severity: 1, message: "Connected to telemetry service" },
    },
    {
      line: '{"level":"error","ts":"2023-10-04T09:12:40.118Z","msg":"Failed to allocate IP","pid":8812,"component":"cni"}',
      context: ["2023/10/04 09:12:40 [8812] [net] Restored state", "2023/10/04 09:12:40 [8812] [cni-net] Plugin started."],
      expect: {
        time: { year: 2023, month: 10, day: 4, hour: 9, minute: 12, second: 40, ms: 118, offsetMin: 0, precision: "ms" },
        component: "azure-cni",
        severity: 3,
        message: "Failed to allocate IP",
        fields: { pid: "8812", component: "cni" },
      },
    },
    {
      // Windows (`C:\k\azure-vnet.log`): the plugin's own error line, in the open run
      line: "2023/01/02 03:04:06 [4520] [net] Failed to create endpoint, err:hnsCall failed in Win32: The object already exists. (0x1392).",
      context: [
        "2023/01/02 03:04:05 [4520] [cni-net] Processing ADD command with args {ContainerID:3c9e Netns:none IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=iis-7d5c8b9f-qx2lm Path:C:\\k\\azurecni\\bin}.",
      ],
      expect: {
        severity: 3,
        pid: 4520,
        message: "Failed to create endpoint, err:hnsCall failed in Win32: The object already exists. (0x1392).",
        fields: { tag: "net", command: "ADD", containerID: "3c9e", pod: "default/iis-7d5c8b9f-qx2lm" },
      },
    },
    {
      // zap era: the completion's error is a field at info level
      line: '{"level":"info","ts":"2023-09-11T14:17:30.483Z","msg":"[cni-net] ADD command completed","pid":9460,"component":"cni","pod":"win-pod1","error":"HNS failed with error : The network was not found."}',
      context: [
        '{"level":"info","ts":"2023-09-11T14:17:30.479Z","msg":"[cni-net] Processing ADD command","pid":9460,"component":"cni","containerId":"1ab9","args":"K8S_POD_NAME=win-pod1;IgnoreUnknown=1;K8S_POD_NAMESPACE=default"}',
      ],
      expect: {
        severity: 3,
        message: "[cni-net] ADD command completed",
        fields: {
          pid: "9460",
          component: "cni",
          pod: "default/win-pod1",
          error: "HNS failed with error : The network was not found.",
          err: "HNS failed with error : The network was not found.",
          command: "ADD",
          containerID: "1ab9",
        },
      },
    },
  ],
  notMine: [
    "I0519 04:20:10.100200       1 main.go:231] Created subnet manager",
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    "[2021-06-14 09:36:49] Created CNI config /host/etc/cni/net.d/10-calico.conflist",
    "INFO: 2023/07/02 05:11:52.239363 Command line options: map[]",
  ],
};
