/**
 * Normalise one parsed record into the fields the timeline and the detectors use
 * (kind, lane, pod, sandbox id, error class; docs/definitions.md "Event kinds and lanes").
 * Pure: values in, values out.
 *
 * Message texts recognised, with their sources (the upstream code named below; real-format
 * cases under tests/cases):
 * - kubelet (klog, kubernetes/kubernetes `pkg/kubelet/kuberuntime`, cri-client `log.go`):
 *   "RunPodSandbox from runtime service failed", "Failed to create sandbox for pod",
 *   "CreatePodSandbox for pod failed", "Error syncing pod, skipping" (with
 *   `CreatePodSandbox` / `KillPodSandbox` in `err`), "StopPodSandbox from runtime
 *   service failed", "Failed to stop sandbox", "killPodWithSyncResult failed",
 *   "Container runtime network not ready", "Kubelet version", "Starting/Started kubelet",
 *   PLEG / runtime-not-ready reports, runtime calls (`ListPodSandbox ... from runtime service
 *   failed`) timing out or refused (cases 001, 009, 070);
 * - containerd (logrus, containerd `internal/cri/server/instrumented_service.go`,
 *   `sandbox_run.go`): "RunPodSandbox for &PodSandboxMetadata{...}" start /
 *   "... failed, error" / "... returns sandbox id", "StopPodSandbox for ... failed",
 *   "Failed to destroy network for sandbox", "starting containerd",
 *   "containerd successfully booted in" (case 056, 070); runtime health at level error: "failed to
 *   handle container TaskExit event", "Failed to handle backOff event" (its error names the
 *   TaskExit), "Failed to handle event stream", ttrpc's "received message on inactive stream"
 *   (containerd/ttrpc `client.go`) and "ttrpc: closed";
 * - CRI-O (logrus; texts not yet checked against cri-o's source): "Starting CRI-O",
 *   "Running pod sandbox: ns/name/POD", "Ran pod sandbox <id> with infra container",
 *   "Error adding/deleting pod ... CNI network";
 * - Calico (projectcalico/calico `cni-plugin/pkg/plugin/plugin.go`: "Final result of CNI
 *   ADD was an error."; `cni-plugin/pkg/install/install.go`: "Created
 *   /host/etc/cni/net.d/<name>"; `node/pkg/lifecycle/startup/startup.go`: "Using node
 *   name: <n>" right after the nodename file is written, "Calico started successfully");
 * - CNI config file writes and removals of Cilium, istio-cni, linkerd-cni, Multus and Calico's
 *   installer, and `inotifywait -m` output on the config directory: the rules of
 *   lib/normalise/config-writes.ts (`cni.config.written` / `cni.config.removed`);
 * - istio-cni: "wrote kubeconfig file";
 * - flannel: "Wrote subnet file to /run/flannel/subnet.env";
 * - kernel: "Linux version ..." (first kernel message of a boot);
 * - Kubernetes events by reason: FailedCreatePodSandBox, FailedKillPod, NetworkNotReady,
 *   others `k8s.event` (SandboxChanged and Rebooted keep their pod / boot id).
 */
import type { EventKind, Lane } from "../detect/types";
import type { K8sEventInfo } from "../parse/types";
import { errorClassOf, errorClassOfUnescaped } from "./error-class";
import { splitStructured, unescapeNested } from "./go-text";
import { componentSpec } from "../model/components";
import { FAILURE_KINDS } from "../model/event-kinds";
import { kindOf } from "./kinds";
import { type CniOp, cniOpOf, hasHex64, podOf, sandboxIdOf } from "./record-ids";

export type { CniOp } from "./record-ids";

/** What `classifyRecord` reads: a subset of `ParsedRecord` (lib/parse/types.ts). */
export interface ClassifyInput {
  /** kubelet, containerd, crio, cni-calico, istio-cni, cilium, flannel, k8s-events, systemd, kernel, unknown, ... */
  component: string;
  /** syslog identifier (`kubelet`, `kubenswrapper`, `containerd`, `systemd`, `kernel`, ...) */
  ident?: string | null;
  /** the component's message (klog message with its pairs, logrus msg, event message) */
  message: string;
  /** unescaped structured fields (klog `err`/`pod`/`podSandboxID`, logrus `error`, ...) */
  fields?: Record<string, string> | null;
  k8sEvent?: K8sEventInfo | null;
  /** 0 debug, 1 info, 2 warn, 3 error, 4 fatal */
  severity: number;
}

/** What `classifyRecord` returns: the normalised Event columns (docs/definitions.md "Event kinds and lanes"). */
export interface Classification {
  kind: EventKind;
  lane: Lane;
  /** `namespace/name` */
  pod: string | null;
  /** 64 lowercase hex */
  sandboxId: string | null;
  /** see `errorClassOf`; set for failure kinds and for error/fatal lines */
  errorClass: string | null;
  /** journal boot id (32 hex, dashes stripped) named by a `Rebooted` event */
  rebootBootId?: string | null;
}

/** Headlines only the kubelet's CRI client (kubelet, crictl) prints (kubernetes `pkg/kubelet/kuberuntime`, cri-client `remote_runtime.go`). */
const KUBELET_CRI_HEADLINE =
  /^(?:RunPodSandbox from runtime service failed|[Cc]reatePodSandbox for pod|Failed to create sandbox for pod|Error syncing pod, skipping|StopPodSandbox from runtime service failed|Failed to stop sandbox|killPodWithSyncResult failed)/;
const CNI_OP_HINT =
  /\(add\)|\(del|set ?up|destroy|tear ?down|KillPodSandbox|CNI (?:ADD|DEL)|[Ee]rror (?:adding|deleting)|invoking (?:Conflist|Delegate)(?:Add|Del)|(?:Add|Del)Network gRPC|configure nic|(?:ADD|DEL) command completed|assign (?:an )?IP address to|configure container \S+ interface/;
const CALICO_CALLER_RE = /^(?:[\w.-]+\/)?(?:[\w.-]+\.go|<nil>) (?:\d+|<nil>): /;
const FAILURE_KIND_SET: ReadonlySet<string> = new Set(FAILURE_KINDS);
/** the boot id a `Rebooted` event names (its node's new boot) */
const REBOOT_BOOT_ID_RE = /boot id:?\s*([0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12})/i;

/**
 * Classify one record. Never throws; an unrecognised line is `{ kind: "log" }` in
 * the lane of its component.
 */
export function classifyRecord(r: ClassifyInput): Classification {
  const split = splitStructured(r.message ?? "");
  const fields = mergedFields(split.fields, r.fields);
  // a Calico caller the parser left in place (`cni-installer/<nil> <nil>: `: Calico's logutils print `<nil>` for an unknown caller)
  const headline = withoutCalicoCaller((split.headline || r.message || "").trim());
  const raw = rawText(r);
  const text = unescapeNested(raw);
  let lane = laneOf(r, headline, text);
  // the kubelet's (and crictl's) CRI client texts say who wrote them, whatever a file's name suggested
  if ((lane === "cni-plugin" || lane === "cni-agent" || lane === "other") && KUBELET_CRI_HEADLINE.test(headline)) lane = "kubelet";
  const kind = kindOf(r, lane, headline, text, fields);
  const pod = podOf(r, text, fields, kind);
  const sandboxId = hasHex64(text) || fields.podSandboxID ? sandboxIdOf(kind, text, fields) : null;
  let errorClass: string | null = null;
  if (FAILURE_KIND_SET.has(kind) || r.severity >= 3) {
    // the cause: the error field, else a known cause anywhere in the line, else the bare message
    const errText = fields.err ?? fields.error ?? (r.k8sEvent ? r.message : null);
    errorClass = errText ? errorClassOf(errText) : null;
    if (!errorClass || errorClass.startsWith("sig:")) {
      // `text` is `raw` unescaped: not unescaped a second time
      const anywhere = errorClassOfUnescaped(text);
      if (anywhere && !anywhere.startsWith("sig:") && anywhere !== "truncated") errorClass = anywhere;
    }
    if (!errorClass) errorClass = errorClassOf(bareMessage(headline, fields));
  }
  const out: Classification = { kind, lane, pod, sandboxId, errorClass };
  if (r.k8sEvent?.reason === "Rebooted") {
    const m = REBOOT_BOOT_ID_RE.exec(text);
    out.rebootBootId = m ? m[1].replace(/-/g, "").toLowerCase() : null;
  }
  return out;
}

/**
 * Every text a record carries: its message, then the parser's field values the message does not
 * already print (klog messages print their pairs; logrus messages do not).
 */
function rawText(r: ClassifyInput): string {
  const message = r.message ?? "";
  let raw = message;
  if (r.fields) {
    const rf = r.fields;
    for (const k of Object.keys(rf)) {
      const v = rf[k];
      if (v && !printsPair(message, k)) raw += " " + v;
    }
  }
  return raw;
}

/** Does `message` hold `key=` (`message.includes(key + "=")` without building that string per field)? */
function printsPair(message: string, key: string): boolean {
  const n = key.length;
  for (let i = message.indexOf(key); i >= 0; i = message.indexOf(key, i + 1)) if (message.charCodeAt(i + n) === 61) return true;
  return false;
}

/**
 * The CNI operation a record is about, when it says (`failed (add)`, `set up`, `destroy network`,
 * ...; `cniOpOf` on the record's text with all levels of Go quoting removed). Not part of
 * `classifyRecord`'s result: no Event column stores it, and two scans of every line's text for it
 * were a tenth of the classifier's time on a kubelet log.
 */
export function recordCniOp(r: ClassifyInput): CniOp | null {
  const text = unescapeNested(rawText(r));
  return CNI_OP_HINT.test(text) ? cniOpOf(text) : null;
}

/**
 * The fields of a record: those split from its message, overridden by the parser's. Neither is
 * changed by the classifier, so when one side is empty the other is used as it is (no copy;
 * `split` is `splitStructured`'s own object, empty or not).
 */
function mergedFields(split: Record<string, string>, parsed: Record<string, string> | null | undefined): Record<string, string> {
  if (!parsed || isEmpty(parsed)) return split;
  if (isEmpty(split)) return parsed;
  return { ...split, ...parsed };
}

/** No own enumerable key (what a spread would copy). */
function isEmpty(o: Record<string, string>): boolean {
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) return false;
  return true;
}

/**
 * `h` without a leading Calico caller (`CALICO_CALLER_RE`). The caller holds no blank and ends
 * in `.go` or `<nil>`, so a headline whose first blank follows neither has none (no regex run).
 */
function withoutCalicoCaller(h: string): string {
  const sp = h.indexOf(" ");
  if (sp <= 0) return h;
  const c = h.charCodeAt(sp - 1);
  if (c !== 111 && c !== 62) return h; // o (.go), > (<nil>)
  return h.replace(CALICO_CALLER_RE, "");
}

/** The message without its trailing `key=value` pairs (parsers print klog messages as `msg k=v ...`). */
function bareMessage(headline: string, fields: Record<string, string>): string {
  let cut = headline.length;
  for (const k of Object.keys(fields)) {
    const i = headline.indexOf(` ${k}=`);
    if (i >= 0 && i < cut) cut = i;
  }
  return headline.slice(0, cut);
}

/**
 * Lines of one failure do not all state its cause (case 001: klog "Failed to stop
 * sandbox" carries only the sandbox id, its neighbours carry the Calico error). After
 * classifying a node's records, give a line that names a sandbox and has no known
 * cause (null or `sig:` class) the fixed class of another line of the same sandbox
 * within `joinMs` (default 1000 ms: lines of one failure lie within 1 s; docs/definitions.md
 * "Attempt"). Returns the classes in input order; the input is not changed.
 */
export function inheritErrorClasses(
  records: ReadonlyArray<{ ts: number | null; sandboxId: string | null; errorClass: string | null }>,
  joinMs = 1000,
): Array<string | null> {
  const out = records.map((r) => r.errorClass);
  const bySandbox = new Map<string, number[]>();
  records.forEach((r, i) => {
    if (!r.sandboxId) return;
    const list = bySandbox.get(r.sandboxId);
    if (list) list.push(i);
    else bySandbox.set(r.sandboxId, [i]);
  });
  const known = (c: string | null) => !!c && !c.startsWith("sig:") && c !== "truncated";
  for (const list of bySandbox.values()) {
    for (const i of list) {
      if (known(records[i].errorClass)) continue;
      let best: { cls: string; d: number } | null = null;
      for (const j of list) {
        const c = records[j].errorClass;
        if (!known(c)) continue;
        const a = records[i].ts;
        const b = records[j].ts;
        const d = a === null || b === null ? 0 : Math.abs(a - b);
        if (d <= joinMs && (!best || d < best.d)) best = { cls: c!, d };
      }
      if (best) out[i] = best.cls;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------
// lanes

/**
 * Lane of a record: its component's (lib/model/components.ts), else its syslog identifier's, else
 * `other`; Kubernetes events are `events`. A program whose plugin and agent share a name (Calico)
 * puts its agent's texts in `cni-agent`.
 */
export function laneOf(r: Pick<ClassifyInput, "component" | "ident" | "k8sEvent">, headline = "", text = ""): Lane {
  if (r.k8sEvent) return "events";
  const own = componentSpec(r.component);
  const spec = own && own.lane !== "other" ? own : (componentSpec(r.ident) ?? own);
  if (!spec) return "other";
  if (spec.agentText && (spec.agentText.test(headline) || spec.agentText.test(text))) return "cni-agent";
  return spec.lane;
}
