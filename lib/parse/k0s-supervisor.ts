/**
 * k0s' supervisor log read as a file of its own (the k0s worker's console or log file, on Linux and
 * on Windows; upstream k0sproject/k0s `pkg/supervisor`): logrus text, each line of a child's
 * stdout/stderr logged as `msg` with `component=<child>` and `stream=`:
 *
 *     time="2024-01-31 14:52:57" level=info msg="E0131 14:52:57.936439    8516 remote_runtime.go:193] \"RunPodSandbox from runtime service failed\" err=…" component=kubelet.exe stream=stderr
 *     time="2024-01-31 14:52:50" level=info msg="Starting to supervise" component=containerd.exe
 *
 * The stamp has whole seconds and no zone. A child line that is a component line (klog, containerd
 * logrus, Calico) is that line: its own stamp (year from the supervisor's), level and message, and
 * the child's name as component (`kubelet.exe` → kubelet); see `unwrapSupervised`
 * (helpers/component.ts, which the journal envelope shares). The supervisor's own lines stay `k0s`.
 */
import { componentRecord, indentedContinuation } from "./helpers/component-line";
import { unwrapSupervised } from "./helpers/component";
import { parseCrioText } from "./crio-logrus";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec, LineResult } from "./types";

/** k0s' logrus stamp: `TimestampFormat: "2006-01-02 15:04:05"` (whole seconds, no zone). */
const STAMP_RE = /^time="\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}" level=\w+ msg=/;
/** A line about or of a child: the stamp, then `component=<child>` (and `stream=`) last. */
const LINE_RE = /^time="\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}" level=\w+ msg=.* component=[a-z][\w.-]*(?: stream=std(?:out|err))?\s*$/;

/** Format spec: the k0s supervisor's logrus lines around its children's output. */
export const k0sSupervisorSpec: FormatSpec = {
  name: "k0s-supervisor",
  kind: "k0s",
  sniff: (_path, lines) => sniffRatio(lines, LINE_RE),
  createParser() {
    let seen = false;
    return {
      parseLine(line: string): LineResult {
        const c = STAMP_RE.test(line) ? parseCrioText(line) : null;
        if (!c) return indentedContinuation(line, seen);
        seen = true;
        const u = c.fields?.component !== undefined ? unwrapSupervised(c, line) : c;
        return { type: "record", record: componentRecord(u, u.named === true && u.component ? u.component : "k0s", u.format === "klog") };
      },
    };
  },
  samples: [
    {
      line: 'time="2024-01-31 14:52:57" level=info msg="E0131 14:52:57.936439    8516 remote_runtime.go:193] \\"RunPodSandbox from runtime service failed\\" err=\\"rpc error: code = Unknown desc = failed to setup network for sandbox \\\\\\"9f20\\\\\\": hcnCreateEndpoint failed in Win32: The object already exists. (0x1392)\\"" component=kubelet.exe stream=stderr',
      expect: {
        time: { year: 2024, month: 1, day: 31, hour: 14, minute: 52, second: 57, ms: 936, offsetMin: null, precision: "us" },
        component: "kubelet",
        severity: 3,
        pid: 8516,
        fields: {
          err: 'rpc error: code = Unknown desc = failed to setup network for sandbox "9f20": hcnCreateEndpoint failed in Win32: The object already exists. (0x1392)',
        },
      },
    },
    {
      line: 'time="2024-01-31 14:52:50" level=info msg="Starting to supervise" component=containerd.exe',
      expect: { component: "k0s", severity: 1, message: "Starting to supervise" },
    },
    {
      line: 'time="2024-03-05 08:01:14" level=info msg="waiting for the API server" component=konnectivity stream=stdout',
      expect: {
        component: "konnectivity",
        severity: 1,
        message: "waiting for the API server",
        time: { year: 2024, month: 3, day: 5, hour: 8, minute: 1, second: 14, ms: 0, offsetMin: null, precision: "s" },
      },
    },
  ],
  notMine: [
    'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O, version: 1.31.4, git: abc"',
    'time="2024-02-01 09:15:02.482913 +0000 UTC m=+0.031" level=warning msg="unable to find cgroup for pod" pod=web-0',
    'time="2025-05-19T04:20:06Z" level=info msg="Starting k3s agent v1.31.4+k3s1 (a1b2c3d4)"',
    "E0131 14:52:57.936439    8516 remote_runtime.go:193] x",
  ],
};
