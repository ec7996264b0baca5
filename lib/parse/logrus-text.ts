/**
 * logrus's terminal layout (upstream sirupsen/logrus `text_formatter.go`, `printColored`): what
 * crictl, the docker CLI, k3s/k3d, kata-runtime and other logrus programs print when stderr is a
 * terminal, so what a pasted terminal session shows.
 *
 *     FATA[0000] run pod sandbox: rpc error: code = Unknown desc = failed to setup network …
 *     INFO[0005] Waiting for kubelet to be ready             node=node-p
 *     WARN[2024-01-01T00:00:00Z] Unable to read /etc/rancher/k3s/k3s.yaml
 *     ERROR[2024-01-01 10:00:00] failed to start                                    (DisableLevelTruncation)
 *     \x1b[31mERRO\x1b[0m[0012] listing pods: context deadline exceeded            (colours kept by the copy)
 *
 * The level is uppercased and cut to 4 letters (TRAC DEBU INFO WARN ERRO FATA PANI; the full word
 * with `DisableLevelTruncation`). The bracket holds either the seconds since the process started
 * (`%04d`: a counter, NOT a clock: the record has no time, `fields.elapsed` keeps it) or the full
 * timestamp (`FullTimestamp`, layout `TimestampFormat`, RFC3339 by default; a layout that cannot be
 * read leaves the record without time and the text in `fields.stamp`). The message is padded to 44
 * columns, then each field is printed as ` key=value` (values quoted with `%q` when needed).
 * ANSI colour codes are removed first.
 *
 * Component: from the path (crictl, k3s, rke2, docker, kata, containerd); else `crictl` when the
 * message starts with one of crictl's own error prefixes (`run pod sandbox:`, `getting sandbox
 * status`, `connect: connect endpoint`, …); else `logrus`. A k3s/rke2/`logrus` line whose message is
 * one of containerd's own (`RunPodSandbox for &PodSandboxMetadata{…} failed, error`, `shim
 * reaped`, …: early k3s ran containerd in-process and printed its lines with full timestamps) is
 * `containerd`.
 */
import { type ComponentLine, componentLineParser, isContainerdMessage } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { splitTrailingPairs } from "./helpers/text-scan";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, Severity, WallTime } from "./types";
import { componentFromPath } from "../model/components";

const LEVELS: Readonly<Record<string, Severity>> = {
  TRAC: 0,
  TRACE: 0,
  DEBU: 0,
  DEBUG: 0,
  INFO: 1,
  WARN: 2,
  WARNING: 2,
  ERRO: 3,
  ERROR: 3,
  FATA: 4,
  FATAL: 4,
  PANI: 4,
  PANIC: 4,
};

const ANSI_RE = /\x1b\[[0-9;]*m/g;
const HEAD_RE = /^(TRACE?|DEBUG?|INFO|WARN(?:ING)?|ERRO(?:R)?|FATA(?:L)?|PANI(?:C)?)\[([^\]\n]{1,64})\] ?(.*)$/;
const GO_TIME_RE = /^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?) ([+-]\d{2}):?(\d{2})(?: [A-Za-z]{1,6}|[+-]\d{2})?(?: m=[+-][\d.]+)?$/;
const CRICTL_PREFIX_RE =
  /^(?:run pod sandbox|getting (?:the )?(?:pod )?sandbox status|getting status of|listing (?:pod sandboxes|containers|images|pods)|connect: connect endpoint|validate service connection|creating container|starting the container|stopping the pod sandbox|removing the pod sandbox|load podSandboxConfig|execing command in container|unable to determine runtime API version|pulling image|no such (?:pod|container)|Getting the status of the pod sandbox)\b/;

/**
 * Read a stamp printed by Go: RFC3339 / ISO (via `parseIsoStamp`), or `time.Time.String()`
 * (`2024-01-01 00:00:00.123456789 +0000 UTC`, optionally ` m=+0.01`). Null when neither.
 */
export function parseGoTimeText(v: string): WallTime | null {
  const iso = parseIsoStamp(v);
  if (iso) return iso;
  const m = GO_TIME_RE.exec(v);
  if (!m) return null;
  return parseIsoStamp(`${m[1]}${m[2]}:${m[3]}`);
}

/** Parse one logrus terminal-layout line; null when `s` is not one. */
export function parseLogrusTerminal(line: string): ComponentLine | null {
  const s = line.charCodeAt(0) === 27 || line.indexOf("\x1b") >= 0 ? line.replace(ANSI_RE, "") : line;
  const c0 = s.charCodeAt(0);
  if (c0 < 65 || c0 > 90) return null;
  const m = HEAD_RE.exec(s);
  if (!m) return null;
  const severity = LEVELS[m[1]];
  if (severity === undefined) return null;
  const stamp = m[2];
  let time: WallTime | null = null;
  const fields: Record<string, string> = {};
  let hasFields = false;
  if (/^\d{4,}$/.test(stamp)) {
    fields.elapsed = String(Number(stamp));
    hasFields = true;
  } else {
    time = parseGoTimeText(stamp);
    if (!time) {
      fields.stamp = stamp;
      hasFields = true;
    }
  }
  let message = m[3];
  if (message.indexOf("=") >= 0) {
    const pairs: Record<string, string> = {};
    const at = splitTrailingPairs(message, 0, pairs);
    if (at >= 0) {
      message = message.slice(0, at);
      Object.assign(fields, pairs);
      hasFields = true;
    }
  }
  message = message.trimEnd();
  const out: ComponentLine = { time, severity, message, component: CRICTL_PREFIX_RE.test(message) ? "crictl" : null };
  if (hasFields) out.fields = fields;
  return out;
}

/** Component of a logrus terminal-layout file from its path, or null. */
const fileComponent = (path: string | undefined): string | null => componentFromPath(path, ["crictl", "rke2", "k3s", "kata", "docker", "containerd"]);

/** The record's component: the path's, else the line's (crictl), else `logrus`; containerd's own messages are containerd's. */
function recordComponent(c: ComponentLine, file: string | null): string {
  const component = file ?? c.component ?? "logrus";
  // containerd embedded in k3s/rke2 (or any logrus program) prints its own messages through the same logger
  return (component === "k3s" || component === "rke2" || component === "logrus") && isContainerdMessage(c.message) ? "containerd" : component;
}

const SNIFF = /^(?:\x1b\[[0-9;]*m)?(?:TRACE?|DEBUG?|INFO|WARN(?:ING)?|ERROR?|FATA(?:L)?|PANI(?:C)?)(?:\x1b\[0m)?\[(?:\d{4,}|\d{4}-\d{2}-\d{2}[^\]]*)\] /;

/** Format spec: logrus terminal layout (`INFO[0000] …`, `WARN[<timestamp>] …`). */
export const logrusTextSpec: FormatSpec = {
  name: "logrus-text",
  kind: "logrus",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser: componentLineParser({ parse: parseLogrusTerminal, writer: fileComponent, componentOf: recordComponent, continuation: "indented" }),
  samples: [
    {
      line: 'FATA[0002] run pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9b2c": plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
      expect: {
        time: null,
        component: "crictl",
        severity: 4,
        message:
          'run pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9b2c": plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
        fields: { elapsed: "2" },
      },
    },
    {
      line: "INFO[0005] Waiting for node to be registered              node=node-p retries=3",
      path: "k3s/k3s-agent.log",
      expect: {
        time: null,
        component: "k3s",
        severity: 1,
        message: "Waiting for node to be registered",
        fields: { elapsed: "5", node: "node-p", retries: "3" },
      },
    },
    {
      line: "WARN[2024-01-15T08:30:12+01:00] Unable to read /etc/rancher/k3s/k3s.yaml, please start server with --write-kubeconfig-mode to modify kube config permissions",
      expect: {
        time: { year: 2024, month: 1, day: 15, hour: 8, minute: 30, second: 12, ms: 0, offsetMin: 60, precision: "s" },
        component: "logrus",
        severity: 2,
        message: "Unable to read /etc/rancher/k3s/k3s.yaml, please start server with --write-kubeconfig-mode to modify kube config permissions",
      },
    },
    {
      line: '\x1b[31mERRO\x1b[0m[0012] listing pods: context deadline exceeded       \x1b[31merror\x1b[0m="rpc error"',
      expect: { time: null, severity: 3, message: "listing pods: context deadline exceeded", fields: { elapsed: "12", error: "rpc error" } },
    },
    {
      // early k3s: embedded containerd's CRI line through the same logger, full timestamp
      line: 'ERRO[2019-03-11T09:15:02.447120931+01:00] RunPodSandbox for &PodSandboxMetadata{Name:traefik-6876857645-x2x9z,Uid:aa2c,Namespace:kube-system,Attempt:0,} failed, error  error="failed to setup network for sandbox \\"3f1e\\": open /run/flannel/subnet.env: no such file or directory"',
      path: "k3s-server.log",
      expect: {
        time: { year: 2019, month: 3, day: 11, hour: 9, minute: 15, second: 2, ms: 447, offsetMin: 60, precision: "ns" },
        component: "containerd",
        severity: 3,
        message: "RunPodSandbox for &PodSandboxMetadata{Name:traefik-6876857645-x2x9z,Uid:aa2c,Namespace:kube-system,Attempt:0,} failed, error",
        fields: { error: 'failed to setup network for sandbox "3f1e": open /run/flannel/subnet.env: no such file or directory' },
      },
    },
  ],
  notMine: [
    'E0829 11:20:58.614213   99461 remote_runtime.go:222] "RunPodSandbox from runtime service failed"',
    'time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd"',
    "INFO: 2023/07/02 05:11:52.239363 Command line options: map[]",
    "root@node-p:~# crictl runp pod-config.json",
  ],
};
