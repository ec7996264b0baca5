/**
 * Kubernetes events of an agent pod as the Jenkins Kubernetes plugin streams them into a build's
 * console while the pod is provisioned (jenkinsci/kubernetes-plugin `TaskListenerEventWatcher`,
 * `"[%s][%s/%s][%s] %s%n"`: the event's type, its object's namespace and name, its reason, one line
 * of its message; a message with line breaks prints one such line per line):
 *
 *     Created Pod: ci/build-42-x7k2p-m4pww
 *     [Normal][ci/build-42-x7k2p-m4pww][Scheduled] Successfully assigned ci/build-42-x7k2p-m4pww to worker-3
 *     [Warning][ci/build-42-x7k2p-m4pww][FailedCreatePodSandBox] Failed to create pod sandbox: rpc error: …
 *
 * The lines carry no time (the plugin prints none; a Timestamper stamp before them is the console's
 * print time, a prefix layer's, never the event's), so each event is a record without a time, its
 * pod the object named, counted like an event row (lib/detect/untimed-attempts.ts). A line with the
 * same type, object and reason as the record before it that starts no kubelet event message
 * (k8s-message.ts `parseK8sMessage`), under a record whose message is one, is the next line of that
 * message (Cilium's `…cilium.sock: connect: no such file or directory` then `Is the agent
 * running?`); otherwise each line is an event (two sandbox failures in a row are two events). The
 * plugin's `Created Pod: <ns>/<name>` line above them is a banner. Component `k8s-events`.
 */
import { parseK8sMessage } from "./k8s-message";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec, K8sEventInfo, LineParser, LineResult, ParsedRecord } from "./types";

/** `[<type>][<namespace>/<name>][<reason>] <message line>` */
const LINE_RE = /^\[(Normal|Warning)\]\[([a-z0-9][a-z0-9.-]*)\/([a-z0-9][a-z0-9.-]*)\]\[([A-Z][A-Za-z]+)\] ?(.*)$/;
/** the plugin's line before the pod's events */
const CREATED_RE = /^Created Pod: (?:\S+ )?[a-z0-9][a-z0-9.-]*\/[a-z0-9][a-z0-9.-]*\s*$/;

function recordOf(m: RegExpExecArray): ParsedRecord {
  const k8sEvent: K8sEventInfo = {
    reason: m[4],
    type: m[1],
    count: 1,
    namespace: m[2],
    objectKind: "Pod",
    objectName: m[3],
    node: null,
    firstMs: null,
    lastMs: null,
  };
  return { time: null, component: "k8s-events", severity: m[1] === "Warning" ? 2 : 1, message: m[5], k8sEvent };
}

class JenkinsPodEventsParser implements LineParser {
  readonly settled = true;
  /** the prefix of the record before (`[Warning][ns/pod][Reason]`) when its message is a kubelet event message */
  private openPrefix: string | null = null;

  parseLine(line: string): LineResult {
    const m = LINE_RE.exec(line);
    if (!m) {
      if (CREATED_RE.test(line)) {
        this.openPrefix = null;
        return { type: "banner", banner: { type: "header" } };
      }
      return null;
    }
    const prefix = line.slice(0, line.length - m[5].length);
    if (this.openPrefix !== null && prefix === this.openPrefix && m[5] !== "" && parseK8sMessage(m[5]) === null) {
      return { type: "continuation", text: m[5] };
    }
    this.openPrefix = parseK8sMessage(m[5]) !== null ? prefix : null;
    return { type: "record", record: recordOf(m) };
  }
}

/** Format spec: the Jenkins Kubernetes plugin's pod event lines in a build console. */
export const jenkinsPodEventsSpec: FormatSpec = {
  name: "jenkins-pod-events",
  kind: "k8s-events",
  sniff: (_path, lines) => sniffRatio(lines, LINE_RE),
  createParser: () => new JenkinsPodEventsParser(),
  samples: [
    {
      line: '[Warning][ci/build-42-x7k2p-m4pww][FailedCreatePodSandBox] Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "4c1e5a3b": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
      expect: {
        time: null,
        component: "k8s-events",
        severity: 2,
        message:
          'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "4c1e5a3b": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: "ci",
          objectKind: "Pod",
          objectName: "build-42-x7k2p-m4pww",
          node: null,
          firstMs: null,
          lastMs: null,
        },
      },
    },
    {
      line: "[Normal][kubernetes-plugin-test/pp-20-pm7l0-chmxk-m4pww][Scheduled] Successfully assigned kubernetes-plugin-test/pp-20-pm7l0-chmxk-m4pww to docker-desktop",
      expect: { time: null, severity: 1, message: "Successfully assigned kubernetes-plugin-test/pp-20-pm7l0-chmxk-m4pww to docker-desktop" },
    },
    { line: "Created Pod: ci/build-42-x7k2p-m4pww", expect: { banner: { type: "header" } } },
  ],
  notMine: [
    "[Pipeline] podTemplate",
    "[2020-04-22T16:16:19.063Z] Created Pod: ci/build-42-x7k2p-m4pww",
    "  Warning  FailedCreatePodSandBox  2m (x12 over 5m)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = x",
    "[pod/calico-node-x7k2p/calico-node] 2025-05-19 04:20:11.410 [INFO][4123] felix/int_dataplane.go 1950: x",
  ],
};
