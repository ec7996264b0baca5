/**
 * Kubernetes event and kubelet messages pasted on their own, without the table, the describe row,
 * the journal prefix or the time around them, as reviewers quote them in a bug report:
 *
 *     Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "…": …
 *     (combined from similar events): Failed to create pod sandbox: rpc error: …
 *     Error syncing pod, skipping: failed to "CreatePodSandbox" for "web-0_default(…)" with CreatePodSandboxError: "…"
 *     Warning  FailedCreatePodSandBox  Failed to create pod sandbox: …        (a row whose age column was cut away)
 *     Warning FailedCreatePodSandBox: Failed create pod sandbox: …           (deploy tools' `<type> <reason>: <message>`, zendesk/samson#3273)
 *
 * The messages are the kubelet's event texts (kubernetes `pkg/kubelet/events` reasons and their
 * messages, `kuberuntime_manager.go`, `pod_workers.go`); a line starting with one is a record
 * without a time (a reviewer's quote carries none), as an event of the reason its text belongs to
 * (`Failed to create pod sandbox` → FailedCreatePodSandBox), so the classifier counts it like the
 * event row it was cut from. Lines that are not a new message continue the record before them (a
 * message hard-wrapped by the page, joined after one blank: the one the break took), unless they
 * start like a log record (a time, a level: paste.ts `RECORD_START`). A message
 * copied from a page that escaped it (`Get &#34;http://…&#34;`) is read with its character
 * references decoded (helpers/html-entities.ts). The runtime's error the event wraps, quoted on
 * its own (`failed to setup network for sandbox …`, dockershim's `failed to set up sandbox
 * container "…"`), and the older wording `Failed create pod sandbox` are that event's messages too.
 * Records without a time place nothing on a timeline: the file is read and its failures counted as
 * attempts without a time (lib/detect/untimed-attempts.ts), but no window can be drawn from them.
 */
import { decodeEntities } from "./helpers/html-entities";
import { RECORD_START } from "./paste";
import type { FormatSpec, K8sEventInfo, LineParser, LineResult, ParsedRecord } from "./types";

/** Event reasons by the start of their message (kubelet event texts). */
const MESSAGE_REASONS: ReadonlyArray<[RegExp, string, "Warning" | "Normal"]> = [
  // `Failed create pod sandbox` is the kubelet's wording before 1.10
  [/^Failed (?:to )?create pod sandbox\b/, "FailedCreatePodSandBox", "Warning"],
  // the runtime's error the event wraps, quoted without the kubelet's words: containerd's, dockershim's
  [
    /^(?:rpc error: code = \w+ desc = )?(?:failed to (?:setup|set up) network for sandbox\b|failed to set up sandbox container "|NetworkPlugin cni failed to set up pod\b)/i,
    "FailedCreatePodSandBox",
    "Warning",
  ],
  [/^Error syncing pod\b/, "FailedSync", "Warning"],
  [/^Failed to (?:kill|stop) pod\b|^error killing pod\b/i, "FailedKillPod", "Warning"],
  [/^Pod sandbox changed, it will be killed and re-created\b/, "SandboxChanged", "Normal"],
  [/^(?:Container runtime network not ready|network is not ready)\b/, "NetworkNotReady", "Warning"],
];

/** `(combined from similar events): `, the event recorder's prefix for aggregated events */
const COMBINED = /^\(combined from similar events\):\s*/;
/** an event row whose columns before the message were cut: type, reason (a colon after it in a tool's one-line form) */
const TYPE_REASON = /^(Warning|Normal)\s+([A-Z][A-Za-z]+):?\s+(?=\S)/;

/** The message and its event facts when `line` starts a kubelet event message; null otherwise. */
export function parseK8sMessage(line: string): { message: string; reason: string; type: string } | null {
  let s = decodeEntities(line.trim());
  let reason: string | null = null;
  let type: string | null = null;
  const tr = TYPE_REASON.exec(s);
  if (tr) {
    type = tr[1];
    reason = tr[2];
    s = s.slice(tr[0].length);
  }
  const body = s.replace(COMBINED, "");
  for (const [re, r, t] of MESSAGE_REASONS) {
    if (re.test(body)) return { message: s, reason: reason ?? r, type: type ?? t };
  }
  return null;
}

function recordOf(m: { message: string; reason: string; type: string }): ParsedRecord {
  const k8sEvent: K8sEventInfo = {
    reason: m.reason,
    type: m.type,
    count: 1,
    namespace: null,
    objectKind: null,
    objectName: null,
    node: null,
    firstMs: null,
    lastMs: null,
  };
  return { time: null, component: "k8s-events", severity: m.type === "Warning" ? 2 : 1, message: m.message, k8sEvent };
}

class K8sMessageParser implements LineParser {
  readonly settled = true;
  private seen = false;
  parseLine(line: string): LineResult {
    const m = parseK8sMessage(line);
    if (m) {
      this.seen = true;
      return { type: "record", record: recordOf(m) };
    }
    // a page wraps at blanks: the piece joins the message after one; a log record's start is no piece
    if (!this.seen || RECORD_START.test(line)) return null;
    return { type: "continuation", text: decodeEntities(line.trim()), glue: " " };
  }
}

/** Format spec: kubelet event messages quoted without their row or time. */
export const k8sMessageSpec: FormatSpec = {
  name: "k8s-message",
  kind: "k8s-events",
  sniff: (_path, lines) => lines.length > 0 && parseK8sMessage(lines[0]) !== null,
  createParser: () => new K8sMessageParser(),
  samples: [
    {
      line: 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "6f1c0e2d": plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
      expect: {
        time: null,
        component: "k8s-events",
        severity: 2,
        message:
          'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "6f1c0e2d": plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: null,
          firstMs: null,
          lastMs: null,
        },
      },
    },
    {
      line: '(combined from similar events): Error syncing pod, skipping: failed to "CreatePodSandbox" for "web-0_default(5b1e)" with CreatePodSandboxError: "cni config uninitialized"',
      expect: {
        time: null,
        k8sEvent: {
          reason: "FailedSync",
          type: "Warning",
          count: 1,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: null,
          firstMs: null,
          lastMs: null,
        },
      },
    },
    {
      line: "failed to setup network for sandbox failed (add): unable to connect to Cilium agent: Get &#34;http://localhost/v1/config&#34;: dial unix /var/run/cilium/cilium.sock: connect: no such file or directory",
      expect: {
        time: null,
        severity: 2,
        message:
          'failed to setup network for sandbox failed (add): unable to connect to Cilium agent: Get "http://localhost/v1/config": dial unix /var/run/cilium/cilium.sock: connect: no such file or directory',
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: null,
          firstMs: null,
          lastMs: null,
        },
      },
    },
    {
      line: 'Failed create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "9c2f" network for pod "db-0": NetworkPlugin cni failed to set up pod "db-0_data" network: dial tcp 127.0.0.1:6784: connect: connection refused',
      expect: {
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: null,
          firstMs: null,
          lastMs: null,
        },
      },
    },
    {
      line: "Warning  FailedCreatePodSandBox  Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
      expect: { message: "Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded" },
    },
    {
      line: 'Warning FailedCreatePodSandBox: Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "web-0_default" network: open /run/flannel/subnet.env: no such file or directory',
      expect: {
        severity: 2,
        message:
          'Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "web-0_default" network: open /run/flannel/subnet.env: no such file or directory',
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: null,
          firstMs: null,
          lastMs: null,
        },
      },
    },
  ],
  notMine: [
    "  Warning  FailedCreatePodSandBox  2m (x12 over 5m)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = x",
    'E0314 02:10:05.412345    1234 remote_runtime.go:176] "RunPodSandbox from runtime service failed" err="rpc error"',
    "Mar 14 02:10:05 node-x kubelet[1234]: Failed to create pod sandbox: rpc error: code = Unknown desc = x",
    "2m          Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: rpc error",
  ],
};
