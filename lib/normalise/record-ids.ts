/**
 * Which pod, sandbox and CNI operation a classified line is about (classify.ts `classifyRecord`):
 * from the record's fields when a format gives them, else from the texts the kubelet, the
 * runtimes and the CNI plugins print (each pattern names its source). Pure.
 */
import type { EventKind } from "../detect/types";
import type { K8sEventInfo } from "../parse/types";

/** The CNI operation a line is about (CNI spec verbs; `DEL` also for runtime stop/teardown texts). */
export type CniOp = "ADD" | "DEL";

const HEX64 = "[0-9a-f]{64}";
/** 1 at the char codes of 0-9 and a-f (a table lookup is cheaper than a chain of range tests) */
const HEX_DIGIT = new Uint8Array(128);
for (const c of "0123456789abcdef") HEX_DIGIT[c.charCodeAt(0)] = 1;
const isHex = (c: number) => c < 128 && HEX_DIGIT[c] === 1;
/**
 * True when `s` holds a run of at least 64 lowercase hex digits. Linear, and mostly sublinear:
 * every such run covers one of the positions 63, 127, ... (one in each 64), so only those are
 * probed, and a run is measured around a probe that is a hex digit (the regex backtracks on
 * hex-rich lines, and a test of every character would cost a read of the whole line).
 */
export function hasHex64(s: string): boolean {
  const n = s.length;
  for (let p = 63; p < n; ) {
    if (!isHex(s.charCodeAt(p))) {
      p += 64;
      continue;
    }
    let a = p;
    while (a > 0 && isHex(s.charCodeAt(a - 1))) a--;
    let b = p + 1;
    while (b < n && isHex(s.charCodeAt(b))) b++;
    if (b - a >= 64) return true;
    // s[b] is not hex: a later run starts past it, so it covers b + 64
    p = b + 64;
  }
  return false;
}

// RFC 1123 names; upper case tolerated (anonymised excerpts such as case 070 use it)
const NAME = "[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?";
const POD_FIELD_RE = new RegExp(`^${NAME}/${NAME}$`);
const POD_KV_RE = new RegExp(`\\bpod="(${NAME})/(${NAME})"`);
const METADATA_RE = new RegExp(`PodSandboxMetadata\\{Name:(${NAME}),Uid:[^,]*,Namespace:(${NAME})`);
// `for pod "<name>_<namespace>(<uid>)"`, also cut by a terminal inside the uid
const POD_UNDERSCORE_RE = new RegExp(`\\b(?:pod|for) "(${NAME})_(${NAME})(?:\\([^)]*\\))?"|\\b(?:pod|for) "(${NAME})_(${NAME})\\([0-9a-f-]*$`);
const CALICO_POD_RE = new RegExp(`\\bNamespace="(${NAME})"[^\\n]*?\\bPod="(${NAME})"|\\bPod="(${NAME})"[^\\n]*?\\bNamespace="(${NAME})"`);
const CRIO_POD_RE = new RegExp(`(?:Running pod sandbox: |infra container: )(${NAME})/(${NAME})/POD`);
const CRIO_NET_RE = new RegExp(`Got pod network &\\{Name:(${NAME}) Namespace:(${NAME})`);
/** containerd's sandbox name `<name>_<namespace>_<uid>_<attempt>` (`failed to reserve sandbox name "…"`), also cut after the uid's start */
const SANDBOX_NAME_RE = new RegExp(`sandbox name "(${NAME})_(${NAME})_[0-9a-f]`);
/** CRI-O's and dockershim's sandbox names: `k8s_<name>_<namespace>_<uid>_<attempt>`, `k8s_POD_<name>_<namespace>_<uid>_<attempt>` */
const K8S_SANDBOX_NAME_RE = new RegExp(`\\bk8s_(?:POD_)?(${NAME})_(${NAME})_[0-9a-f]{8}`);
/** `for pod "<name>"` without namespace (dockershim-era kubelet text messages) */
const POD_NAME_ONLY_RE = new RegExp(`\\bfor pod "(${NAME})"`);
/** CRI-O `Error adding pod <namespace>_<name> to CNI network` (and deleting … from) */
const CRIO_CNI_POD_RE = new RegExp(`[Ee]rror (?:adding|deleting) pod (${NAME})_(${NAME}) (?:to|from) CNI network`);
/** CNI_ARGS as plugins and multus print them: `K8S_POD_NAMESPACE=<ns>;K8S_POD_NAME=<name>` (either order) */
const CNI_ARGS_POD_RE =
  /K8S_POD_NAMESPACE=([A-Za-z0-9.-]+);(?:[^;\s]*;)*?K8S_POD_NAME=([A-Za-z0-9.-]+)|K8S_POD_NAME=([A-Za-z0-9.-]+);(?:[^;\s]*;)*?K8S_POD_NAMESPACE=([A-Za-z0-9.-]+)/;
/** `… to pod <namespace>/<name>` / `… for pod <namespace>/<name>` unquoted (aws-vpc-cni ipamd, kube-ovn) */
const IPAMD_POD_RE = new RegExp(`\\b(?:to|for) pod (${NAME})/(${NAME})\\b`);
/**
 * aws-vpc-cni: the plugin's `Failed to assign an IP address to pod <name>, namespace <ns> container <id>`
 * and ipamd's request `Received AddNetwork for NS <netns>, Pod <name>, NameSpace <ns>, Container <id>`
 */
const AWS_POD_RE = new RegExp(`\\b(?:to pod (${NAME}), namespace|Pod (${NAME}), NameSpace) (${NAME})\\b`);
/** the older event recorder's `Event(v1.ObjectReference{Kind:"Pod", Namespace:"<ns>", Name:"<name>", …` */
const OBJECT_REF_POD_RE = new RegExp(`^Event\\(v1\\.ObjectReference\\{Kind:"Pod", Namespace:"(${NAME})", Name:"(${NAME})"`);
/** ovnkube-node's CNI request `[<namespace>/<name> <sandbox>]` (`OVNK_CNI_REQUEST`) */
const OVNK_POD_RE = new RegExp(`^\\[(${NAME})/(${NAME}) [0-9a-f]{64}\\]`);
/** multus `[<namespace>/<name>/<uid>:<network>]` (uid optional) */
const MULTUS_POD_RE = new RegExp(`\\[(${NAME})/(${NAME})(?:/[0-9a-f-]*)?:[\\w.-]+\\]`);

/** Does `text` hold `literal`? */
function has(text: string, literal: string): boolean {
  return text.indexOf(literal) >= 0;
}

/** Words each of the text forms below holds: a text without any of them names no pod (one scan, not a dozen) */
const POD_HINT_RE = /pod|Pod|POD|Namespace|k8s_|\]: |\] (?:ADD|DEL) /;

/**
 * The pod a record names (`namespace/name`; a bare name when only that is known). The forms only
 * failure reports print (sandbox names, CNI plugins' wording, a name alone) are looked for on
 * signal records only: a plain log line does not pay for them.
 */
export function podOf(r: { k8sEvent?: K8sEventInfo | null }, text: string, fields: Record<string, string>, kind: EventKind): string | null {
  const f = fields.pod;
  if (f && POD_FIELD_RE.test(f)) return f;
  // an event recorder's `"Event occurred" object="<ns>/<name>" kind="Pod"`, or `Event(v1.ObjectReference{Kind:"Pod", …})` (recorded-event.ts)
  if (fields.kind === "Pod" && fields.object && POD_FIELD_RE.test(fields.object)) return fields.object;
  const ref = text.charCodeAt(0) === 69 ? OBJECT_REF_POD_RE.exec(text) : null;
  if (ref) return `${ref[1]}/${ref[2]}`;
  // kubelet JSON logging prints the pod as an object: {"name":…,"namespace":…}
  if (f && f.charCodeAt(0) === 123) {
    const m = /"name":"([^"]+)"/.exec(f);
    const n = /"namespace":"([^"]+)"/.exec(f);
    if (m && n) return `${n[1]}/${m[1]}`;
  }
  const ev = r.k8sEvent;
  if (ev && (ev.objectKind ?? "Pod") === "Pod" && ev.objectName) {
    // a table that shows no namespace (`kubectl get events` without -A, the namespace not on the pasted command line): the bare name
    return ev.namespace ? `${ev.namespace}/${ev.objectName}` : ev.objectName;
  }
  if (!POD_HINT_RE.test(text)) return null;
  // each regex runs only on a text that holds a literal all its matches hold (an indexOf is cheaper than a failing scan);
  // `pod` (lower case) is in the literals of five of them
  const pod = has(text, "pod");
  let m = pod && has(text, 'pod="') ? POD_KV_RE.exec(text) : null;
  if (m) return `${m[1]}/${m[2]}`;
  m = has(text, "PodSandboxMetadata{Name:") ? METADATA_RE.exec(text) : null;
  if (m) return `${m[2]}/${m[1]}`;
  m = (has(text, "/POD") ? CRIO_POD_RE.exec(text) : null) ?? (has(text, "Got pod network &{Name:") ? CRIO_NET_RE.exec(text) : null);
  if (m) return CRIO_NET_RE.test(m[0]) ? `${m[2]}/${m[1]}` : `${m[1]}/${m[2]}`;
  m = (pod && has(text, 'pod "')) || has(text, 'for "') ? POD_UNDERSCORE_RE.exec(text) : null;
  if (m) return m[1] !== undefined ? `${m[2]}/${m[1]}` : `${m[4]}/${m[3]}`;
  m = has(text, 'Pod="') && has(text, 'Namespace="') ? CALICO_POD_RE.exec(text) : null;
  if (m) return m[1] ? `${m[1]}/${m[2]}` : `${m[4]}/${m[3]}`;
  if (kind === "log") return fields.Namespace && fields.Pod ? `${fields.Namespace}/${fields.Pod}` : null;
  m = (has(text, 'sandbox name "') ? SANDBOX_NAME_RE.exec(text) : null) ?? (has(text, "k8s_") ? K8S_SANDBOX_NAME_RE.exec(text) : null);
  if (m) return `${m[2]}/${m[1]}`;
  m =
    (pod && has(text, " CNI network") ? CRIO_CNI_POD_RE.exec(text) : null) ??
    (has(text, "[") ? MULTUS_POD_RE.exec(text) : null) ??
    (pod && has(text, " pod ") ? IPAMD_POD_RE.exec(text) : null) ??
    (text.charCodeAt(0) === 91 ? OVNK_POD_RE.exec(text) : null);
  if (m) return `${m[1]}/${m[2]}`;
  m = has(text, ", namespace ") || has(text, ", NameSpace ") ? AWS_POD_RE.exec(text) : null;
  if (m) return `${m[3]}/${m[1] ?? m[2]}`;
  m = has(text, "K8S_POD_NAME=") ? CNI_ARGS_POD_RE.exec(text) : null;
  if (m) return m[1] !== undefined ? `${m[1]}/${m[2]}` : `${m[4]}/${m[3]}`;
  // the dockershim-era kubelet named the pod alone (`for pod "<name>"`): the bare name, matched to its namespaced key by the attempt grouping
  m = pod && has(text, 'for pod "') ? POD_NAME_ONLY_RE.exec(text) : null;
  if (m) return m[1];
  if (fields.Namespace && fields.Pod) return `${fields.Namespace}/${fields.Pod}`;
  return null;
}

const SANDBOX_RES: RegExp[] = [
  new RegExp(`podSandboxI[Dd]\\W{0,4}(?:\\{[^}]*?"ID"\\s*:\\s*")?(${HEX64})\\b`),
  new RegExp(`\\bsandbox(?:es)?(?: container| id)?[\\s"'\\\\:=/-]{0,4}(${HEX64})\\b`, "i"),
  new RegExp(`\\bContainerID="?(${HEX64})\\b`),
  new RegExp(`\\bRan pod sandbox (${HEX64})\\b`),
  new RegExp(`Got pod network &\\{[^}]*\\bID:(${HEX64})\\b`),
];
const SANDBOX_KINDS = /^(?:sandbox\.|cni\.(?:add|del)\.)/;

const HEX64_RE = new RegExp(HEX64);
const HEX64_WORD_RE = new RegExp(`\\b${HEX64}\\b`);

export function sandboxIdOf(kind: EventKind, text: string, fields: Record<string, string>): string | null {
  const f = fields.podSandboxID ?? fields.podSandboxId ?? fields.sandboxID;
  if (f) {
    const m = HEX64_RE.exec(f.toLowerCase());
    if (m) return m[0];
  }
  for (const re of SANDBOX_RES) {
    const m = re.exec(text);
    if (m) return m[1].toLowerCase();
  }
  if (SANDBOX_KINDS.test(kind)) {
    const m = HEX64_WORD_RE.exec(text);
    if (m) return m[0];
  }
  return null;
}

/**
 * The CNI operation markers, in priority order (at the same position the first listed wins):
 * `failed (add)` and `failed (delete|del)` in any case (spelled out as `[Ff][Aa]…`), then the
 * case-sensitive ADD and DEL texts. One alternation: its leftmost match is the earliest marker.
 */
const CNI_OP_RE = new RegExp(
  [
    /([Ff][Aa][Ii][Ll][Ee][Dd] \([Aa][Dd][Dd]\))/.source,
    /([Ff][Aa][Ii][Ll][Ee][Dd] \([Dd][Ee][Ll](?:[Ee][Tt][Ee])?\))/.source,
    // multus `error adding container to network`, `DelegateAdd`; aws-vpc-cni `AddNetwork gRPC call`; kube-ovn `failed to configure nic`
    // Azure CNI `ADD command completed … err:…`
    /(failed to (?:setup|set up) (?:network|sandbox container)|failed to set up pod "[^"]*" network|CNI ADD\b|[Ee]rror adding (?:pod|network|container to network)|error invoking (?:Conflist|Delegate)Add\b|AddNetwork gRPC call|failed to configure nic|Failed to configure container \S+ interface|\bADD command completed\b|[Ff]ailed to assign (?:an )?IP address to (?:pod|container))/
      .source,
    /(failed to (?:destroy|teardown|tear down) (?:network|pod)|failed to teardown pod "[^"]*" network|CNI DEL\b|KillPodSandbox|[Ee]rror deleting (?:pod|network)|error invoking (?:Conflist|Delegate)Del\b|DelNetwork gRPC call|\bDEL command completed\b)/
      .source,
  ].join("|"),
);

/** CNI operation a text is about: the earliest ADD or DEL marker in it (case 013 names both; the set-up failure comes first). */
export function cniOpOf(text: string): CniOp | null {
  const m = CNI_OP_RE.exec(text);
  if (!m) return null;
  return m[1] !== undefined || m[3] !== undefined ? "ADD" : "DEL";
}
