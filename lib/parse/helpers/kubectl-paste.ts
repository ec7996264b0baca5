/**
 * Shared pieces of the kubectl event printouts as people paste them (kubectl-events-table.ts,
 * describe-events.ts): the shapes of an age cell, a `Type` cell and an event source, the shell
 * prompt line that ran the command, and the frame k9s draws around its views.
 *
 * - Age cell: `duration.HumanDuration` / `ShortHumanDuration` of k8s.io/apimachinery
 *   (`45s`, `3m2s`, `12m`, `2h10m`, `3d4h`, `2y30d`), `<unknown>` for a zero stamp, `<invalid>` for a
 *   stamp in the future; describe and `kubectl events` add ` (xN over D)` (kubectl 1.7 printed
 *   ` (xN from D)` / ` (xN starting D)` for a few releases).
 * - Source: `kubelet, <host>` (kubectl 1.8 to 1.19 and `get events -o wide`), `{kubelet <host>}` /
 *   `{default-scheduler }` (kubectl up to 1.4), or the bare component (`kubelet`,
 *   `default-scheduler`).
 * - k9s copies: a line inside a k9s view starts with `│` (U+2502) and, padded, ends with one; its
 *   border lines are made of `┌─┐└─┘` and the view title.
 *
 * Patterns are compiled once here; nothing in this module reads a clock.
 */

/** One age as printed (no spaces): `45s`, `3m2s`, `2y30d`, `<unknown>`, `<invalid>`. */
export const AGE = String.raw`(?:<unknown>|<invalid>|\d+[smhdy](?:\d+[smhdy]){0,2})`;
/** An age cell: the last-seen age with an optional ` (xN over D)`. */
export const AGE_CELL = String.raw`${AGE}(?: \(x\d+ (?:over|from|starting) ${AGE}\))?`;
/** An event type. Kubernetes defines only these two. */
export const EVENT_TYPE = "(?:Normal|Warning)";
/** An event source: `{component host}`, `component, host`, or a bare component. */
export const SOURCE = String.raw`(?:\{[^}]*\}|[^\s,{]+, [^\s,]+|[^\s{]+)`;

const AGE_ONLY_RE = new RegExp(`^${AGE}$`);

/** true for one age token (`3m2s`, `<unknown>`). */
export function isAgeToken(s: string): boolean {
  return AGE_ONLY_RE.test(s);
}

/** A parsed source cell: the component and the host it names, if any. */
export interface EventSource {
  component: string;
  host: string | null;
}

/** Split a source cell (`kubelet, node-1`, `{kubelet node-1}`, `{default-scheduler }`, `kubelet`). */
export function parseSource(cell: string): EventSource | null {
  let s = cell.trim();
  if (s === "" || s === "<none>") return null;
  if (s.charCodeAt(0) === 123 && s.charCodeAt(s.length - 1) === 125) {
    s = s.slice(1, -1).trim();
    const sp = s.indexOf(" ");
    if (sp < 0) return s ? { component: s, host: null } : null;
    return { component: s.slice(0, sp), host: s.slice(sp + 1).trim() || null };
  }
  const comma = s.indexOf(",");
  if (comma > 0) return { component: s.slice(0, comma).trim(), host: s.slice(comma + 1).trim() || null };
  return { component: s, host: null };
}

/**
 * A describe `SubObjectPath` / table `SUBOBJECT` cell: the involved object's field path
 * (`spec.containers{nginx}`, `spec.initContainers{install-cni}`).
 */
export const FIELD_PATH_RE = /^(?:spec|status|metadata)\.[\w.]+(?:\{[^}]*\})?$|^[a-z]\w*\{[^}]*\}$/;

const BOX_V = 0x2502; // │

/**
 * The text of a line inside a k9s frame (`│ text   │` → ` text`), the line itself when it has no
 * frame. Only the frame's first character and a closing `│` with its padding are removed.
 */
export function unbox(line: string): string {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  if (line.charCodeAt(i) !== BOX_V) return line;
  let end = line.length;
  while (end > i + 1 && line.charCodeAt(end - 1) === 32) end--;
  if (end > i + 1 && line.charCodeAt(end - 1) === BOX_V) end--;
  let inner = line.slice(i + 1, end);
  // k9s draws one space between the frame and the text
  if (inner.charCodeAt(0) === 32) inner = inner.slice(1);
  return inner.replace(/\s+$/, "");
}

/** true for a k9s frame border (`┌──── Describe(default/web-1) ────┐`, `└────┘`). */
export function isBoxBorder(line: string): boolean {
  const c = line.trimStart().charCodeAt(0);
  if (c !== 0x250c && c !== 0x2514 && c !== 0x256d && c !== 0x2570) return false;
  const e = line.trimEnd();
  const z = e.charCodeAt(e.length - 1);
  return z === 0x2510 || z === 0x2518 || z === 0x256e || z === 0x256f;
}

/**
 * A shell prompt with a kubectl-family command after it (`$ kubectl get events -A`,
 * `[root@node-1 ~]# kubectl describe pod x`, `user@host:~$ k get ev`, `PS C:\> kubectl ...`,
 * `> oc describe pod x`). Only prompts that ran kubectl, oc, k3s/microk8s kubectl, kubecolor or the
 * `k` alias count: a bare `#` line may be a comment.
 */
const PROMPT_RE =
  /^\s*(?:\[[^\]\n]{1,80}\]\s?[#$%]|[\w.-]{1,64}@[\w.-]{1,64}(?::[^\s#$]{0,200})?\s?[#$%]|PS [^>]{1,200}>|[$#%>❯➜]|\([\w.-]+\)\s*[$#])\s*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:k3s|microk8s|minikube)\s+)?(?:kubectl|kubecolor|oc|k)(?:\.exe)?(?:\s|$)/;

/** true when the line is a shell prompt running a kubectl-family command. */
export function isKubectlPrompt(line: string): boolean {
  return PROMPT_RE.test(line);
}

/** Kinds as `kubectl get events` prints them (lowercased) → their API spelling. */
const KINDS: Readonly<Record<string, string>> = {
  pod: "Pod",
  node: "Node",
  deployment: "Deployment",
  replicaset: "ReplicaSet",
  replicationcontroller: "ReplicationController",
  daemonset: "DaemonSet",
  statefulset: "StatefulSet",
  job: "Job",
  cronjob: "CronJob",
  service: "Service",
  endpoints: "Endpoints",
  endpointslice: "EndpointSlice",
  persistentvolumeclaim: "PersistentVolumeClaim",
  persistentvolume: "PersistentVolume",
  namespace: "Namespace",
  horizontalpodautoscaler: "HorizontalPodAutoscaler",
  ingress: "Ingress",
  lease: "Lease",
  configmap: "ConfigMap",
  secret: "Secret",
  serviceaccount: "ServiceAccount",
  poddisruptionbudget: "PodDisruptionBudget",
  volumeattachment: "VolumeAttachment",
};

/** `node/ip-1` / `Pod/web-1` / `pod` → kind (API spelling when known) and name. */
export function splitObject(cell: string): { kind: string | null; name: string | null } {
  const s = cell.trim();
  if (s === "" || s === "<none>") return { kind: null, name: null };
  const slash = s.indexOf("/");
  if (slash < 0) return { kind: normKind(s), name: null };
  const rawKind = s.slice(0, slash);
  const name = s.slice(slash + 1) || null;
  return { kind: rawKind ? normKind(rawKind) : null, name };
}

/** A kind in its API spelling (`pod` → `Pod`; a `group` suffix such as `.apps` dropped). */
export function normKind(raw: string): string {
  const dot = raw.indexOf(".");
  const base = dot > 0 ? raw.slice(0, dot) : raw;
  return KINDS[base.toLowerCase()] ?? base;
}

/**
 * `Successfully assigned <ns>/<pod> to <node>` (scheduler since 1.12) or
 * `Successfully assigned <pod> to <node>` (older schedulers).
 */
export const ASSIGNED_RE = /Successfully assigned (?:([a-z0-9][-a-z0-9.]*)\/)?([a-z0-9][-a-z0-9.]*) to (\S+)/;
/** A CNI / kubelet message naming the pod as `"<name>_<namespace>"`. */
export const CNI_POD_RE = /\bpod "([a-z0-9][-a-z0-9.]*)_([a-z0-9][-a-z0-9.]*)"/;

/** Severity of an event type: warn for `Warning`, info otherwise. */
export function typeSeverity(type: string): 1 | 2 {
  return type === "Warning" ? 2 : 1;
}

/** `-n X`, `-nX`, `-n=X`, `--namespace X`, `--namespace=X` on a kubectl command line. */
const NS_FLAG_RE = /(?:^|\s)(?:-n\s*=?\s*|--namespace(?:=|\s+))([a-z0-9][-a-z0-9]{0,62})(?=\s|$)/;
/** `-A` / `--all-namespaces[=true]`, also in a group of short flags (`-Aw`, `-wA`). */
const ALL_NS_RE = /(?:^|\s)(?:-[a-zA-Z]*A[a-zA-Z]*|--all-namespaces(?:=true)?)(?=\s|$)/;

/**
 * The namespace a kubectl command line lists: `{ namespace, all: false }` for `-n X` /
 * `--namespace X`, `{ namespace: null, all: true }` for `-A` / `--all-namespaces`, and
 * `{ namespace: null, all: false }` when it names none (kubectl then lists the kubeconfig context's
 * namespace, `default` unless the context sets another).
 */
export function kubectlNamespace(command: string): { namespace: string | null; all: boolean } {
  const n = NS_FLAG_RE.exec(command);
  if (n) return { namespace: n[1], all: false };
  return { namespace: null, all: ALL_NS_RE.test(command) };
}
