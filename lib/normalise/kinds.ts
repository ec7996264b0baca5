/**
 * Event kinds of records by the texts their components print (docs/definitions.md "Event kinds
 * and lanes"), for classify.ts `classifyRecord`; the sources of the texts are listed there and at
 * each pattern. The patterns are module constants: a regular-expression literal inside a function
 * is a new RegExp object each time it is evaluated, several per record. Pure.
 */
import type { EventKind, Lane } from "../detect/types";
import type { K8sEventInfo } from "../parse/types";
import { configWriteOf } from "./config-writes";
import { recordedEvent } from "./recorded-event";
import { cniOpOf } from "./record-ids";

/** What `kindOf` reads of a record (classify.ts `ClassifyInput`). */
export interface KindInput {
  component: string;
  message: string;
  severity: number;
  k8sEvent?: K8sEventInfo | null;
}

const LINUX_VERSION_RE = /^Linux version \d/;
const CRIO_HEADLINE_RE = /^(?:Starting CRI-O|Running pod sandbox:|Ran pod sandbox )/;
/**
 * The kind of a classified record (classify.ts `classifyRecord`): from its lane, headline (the
 * message without its pairs), unescaped text and fields. `log` when no text is recognised.
 */
export function kindOf(r: KindInput, lane: Lane, headline: string, text: string, fields: Record<string, string>): EventKind {
  if (r.k8sEvent) return eventKind(r.k8sEvent, text);
  const c = (r.component ?? "").toLowerCase();
  if (lane === "kernel") {
    if (LINUX_VERSION_RE.test(headline)) return "kernel.start";
    return "log";
  }
  if (lane === "kubelet") {
    // the kubelet's own record of an event it emits: the event's kind when it is a signal (a plain event stays a log line)
    const ev = recordedEvent(headline, fields);
    const evKind = ev ? eventKind(ev, ev.message) : null;
    if (evKind !== null && evKind !== "k8s.event") return evKind;
    return kubeletKind(headline, text, r.severity) ?? "log";
  }
  if (lane === "runtime") {
    if (c === "crio" || c === "cri-o" || CRIO_HEADLINE_RE.test(headline)) {
      const k = crioKind(headline, text);
      if (k) return k;
    }
    return containerdKind(headline, text, r.severity, fields) ?? "log";
  }
  if (lane === "cni-plugin" || lane === "cni-agent" || c === "inotifywait") {
    const w = configWriteOf({ component: r.component, message: r.message, fields });
    if (w) return w.role === "remove" ? "cni.config.removed" : "cni.config.written";
    return c === "inotifywait" ? "log" : (cniKind(headline, text, r.severity) ?? "log");
  }
  // unknown component: try the strongest markers only
  return containerdKind(headline, text, r.severity, fields) ?? kubeletKind(headline, text, r.severity) ?? "log";
}

const EVENT_PULL_FAILED_RE = /^Failed to pull image\b/;
const SYNC_CREATE_FAILED_RE = /failed to "?CreatePodSandbox"?|CreatePodSandboxError|failed to "?SetupNetwork"?|SetupNetworkError/;
const SYNC_KILL_FAILED_RE = /failed to "?KillPodSandbox"?|KillPodSandboxError/;
const KILL_POD_SANDBOX_RE = /KillPodSandbox/;
function eventKind(ev: K8sEventInfo, text: string): EventKind {
  switch (ev.reason) {
    // the kubelet's image manager: `Failed to pull image "<image>": <cause>` (reason `Failed`, like a container's other failures)
    case "Failed":
      return EVENT_PULL_FAILED_RE.test(text) ? "image.pull.failed" : "k8s.event";
    case "FailedCreatePodSandBox":
      return "sandbox.create.failed";
    // kubelets before 1.8 reported every sync error as FailedSync, a sandbox's among them
    case "FailedSync":
      if (SYNC_CREATE_FAILED_RE.test(text)) return "sandbox.create.failed";
      return SYNC_KILL_FAILED_RE.test(text) ? "sandbox.stop.failed" : "k8s.event";
    case "FailedKillPod":
      return "sandbox.stop.failed";
    case "NetworkNotReady":
      return "network.not-ready";
    default:
      return KILL_POD_SANDBOX_RE.test(text) && ev.type === "Warning" ? "sandbox.stop.failed" : "k8s.event";
  }
}

const RUN_SANDBOX_FAILED_RE = /^RunPodSandbox from runtime service failed/;
const CRICTL_RUNP_FAILED_RE = /^(?:running container: )?run pod sandbox(?: failed)?: /;
const RPC_SETUP_NETWORK_FAILED_RE = /^rpc error: code = \w+ desc = failed to (?:setup|set up) network for sandbox "/;
const CREATE_SANDBOX_FAILED_RE = /^[Cc]reatePodSandbox for pod (?:failed|"[^"]*" failed)/;
const CREATE_SANDBOX_FOR_POD_RE = /^[Cc]reatePodSandbox for pod "/;
const FAILED_CREATE_SANDBOX_RE = /^Failed to create sandbox for pod/;
const ERROR_SYNCING_POD_RE = /^Error syncing pod\b/;
const SYNC_CREATE_FAILED_TEXT_RE = /failed to "?CreatePodSandbox"?|CreatePodSandboxError|FailedCreatePodSandBox|failed to "?SetupNetwork"?|SetupNetworkError/;
const STOP_SANDBOX_FAILED_RE = /^StopPodSandbox from runtime service failed/;
const FAILED_STOP_SANDBOX_RE = /^Failed to stop sandbox/;
const KILL_POD_FAILED_RE = /^killPodWithSyncResult failed/;
const KILL_POD_SANDBOX_HEAD_RE = /^KillPodSandbox/;
const NETWORK_NOT_READY_RE = /^Container runtime network not ready/;
const KUBELET_PULL_FAILED_RE = /^Failed to pull image\b|^Pull image "[^"]*" failed/;
const KUBELET_VERSION_RE = /^Kubelet version\b/;
const KUBELET_STARTING_RE = /^(?:Starting|Started) kubelet\.?$/i;
const RUNTIME_DOWN_RE = /PLEG is not healthy|container runtime is down|Container runtime not ready|container runtime status check may not have completed yet/i;
const RUNTIME_REFUSED_RE = /code = Unavailable desc = connection error|(?:containerd|crio)\.sock: connect:/i;
const RUNTIME_SOCKET_CLOSED_RE = /error reading from server: EOF|(?:containerd|crio)\.sock: read: connection reset by peer/;
const CALL_UNAVAILABLE_RE = /DeadlineExceeded|code = Unavailable/;
const SANDBOX_CREATED_RE = /^Created PodSandbox for pod/;
function kubeletKind(h: string, text: string, severity: number): EventKind | null {
  if (RUN_SANDBOX_FAILED_RE.test(h)) return "sandbox.create.failed";
  // crictl's own report of a sandbox it could not create (`FATA[0000] run pod sandbox: rpc error: …`)
  if (CRICTL_RUNP_FAILED_RE.test(h)) return "sandbox.create.failed";
  // the runtime's error on a line of its own (a klog `err=<` block's line, kept alone by a grep)
  if (RPC_SETUP_NETWORK_FAILED_RE.test(h)) return "sandbox.create.failed";
  // structured (`CreatePodSandbox for pod failed`) and dockershim-era text (`CreatePodSandbox for pod "<name>_<ns>(<uid>)" failed: ...`,
  // `createPodSandbox ...`), also cut by a terminal before its `failed`
  if (CREATE_SANDBOX_FAILED_RE.test(h) || (severity >= 3 && CREATE_SANDBOX_FOR_POD_RE.test(h))) return "sandbox.create.failed";
  if (FAILED_CREATE_SANDBOX_RE.test(h)) return "sandbox.create.failed";
  // `Error syncing pod, skipping` (structured) and `Error syncing pod <uid> ("<name>_<ns>(<uid>)"), skipping: ...` (text);
  // kubelets before the CRI (1.5 and older) set the network up in a `SetupNetwork` step of the sync
  if (ERROR_SYNCING_POD_RE.test(h)) {
    if (SYNC_CREATE_FAILED_TEXT_RE.test(text)) return "sandbox.create.failed";
    if (SYNC_KILL_FAILED_RE.test(text)) return "sandbox.stop.failed";
    return null;
  }
  if (STOP_SANDBOX_FAILED_RE.test(h)) return "sandbox.stop.failed";
  if (FAILED_STOP_SANDBOX_RE.test(h)) return "sandbox.stop.failed";
  if (KILL_POD_FAILED_RE.test(h)) return "sandbox.stop.failed";
  if (KILL_POD_SANDBOX_HEAD_RE.test(h) && severity >= 3) return "sandbox.stop.failed";
  if (NETWORK_NOT_READY_RE.test(h)) return "network.not-ready";
  // one failed pull (kubernetes `pkg/kubelet/kuberuntime/kuberuntime_image.go`, older kubelets `Pull image "<image>" failed`);
  // the CRI client's own `PullImage … from image service failed` echoes the same pull and stays a log line
  if (KUBELET_PULL_FAILED_RE.test(h)) return "image.pull.failed";
  if (KUBELET_VERSION_RE.test(h) || KUBELET_STARTING_RE.test(h)) return "kubelet.started";
  if (RUNTIME_DOWN_RE.test(text)) return "runtime.unhealthy";
  if (severity >= 3 && RUNTIME_REFUSED_RE.test(text)) return "runtime.unhealthy";
  // the runtime's socket closing under a watch or a call, whatever level the line was logged at (cAdvisor logs it at info)
  if (RUNTIME_SOCKET_CLOSED_RE.test(text)) return "runtime.unhealthy";
  // runtime calls other than sandbox create/stop timing out or refused (remote_runtime.go / cri-client log.go)
  if (severity >= 3 && CRI_CALL_FAILED.test(h) && CALL_UNAVAILABLE_RE.test(text)) return "runtime.unhealthy";
  if (SANDBOX_CREATED_RE.test(h)) return "sandbox.created";
  return null;
}

/**
 * The kubelet's CRI client reporting a runtime call other than RunPodSandbox / StopPodSandbox
 * failing, text and structured (kubernetes `pkg/kubelet/remote/remote_runtime.go`, cri-client
 * `remote_runtime.go`): `ListPodSandbox with filter … from runtime service failed`,
 * `CreateContainer in sandbox "<id>" from runtime service failed`, `StartContainer "<id>" from
 * runtime service failed`, `ExecSync <id> '<cmd>' from runtime service failed`, `Status from
 * runtime service failed`, ...
 */
const CRI_CALL_FAILED =
  /^(?:ListPodSandbox|ListContainers|ContainerStatus|PodSandboxStatus|ListPodSandboxStats|PodSandboxStats|ListContainerStats|ContainerStats|Status|Version|CreateContainer|StartContainer|StopContainer|RemoveContainer|RemovePodSandbox|UpdateContainerResources|ReopenContainerLog|ExecSync|Exec|Attach|PortForward|ListImages|ImageStatus|RemoveImage|ImageFsInfo|UpdateRuntimeConfig|CheckpointContainer)\b[^:]*? from (?:runtime|image) service failed/;

const CTR_RUN_FAILED_RE = /^RunPodSandbox for .*\bfailed, error\b/;
const CTR_RUN_RETURNS_RE = /^RunPodSandbox for .*returns sandbox id/;
const CTR_RUN_RE = /^RunPodSandbox for /;
const CTR_STOP_FAILED_RE = /^StopPodSandbox for .*\bfailed\b/;
const CTR_STOP_RETURNS_RE = /^StopPodSandbox for .*returns successfully/;
const CTR_TEARDOWN_FAILED_RE = /^(?:Failed to destroy network for sandbox|Failed to teardown network|Failed to tear down network)/i;
const CTR_TEARDOWN_DONE_RE = /^TearDown network for sandbox .*successfully/;
const CTR_STARTING_RE = /^starting containerd\b/;
const CTR_BOOTED_RE = /^containerd successfully booted\b/;
const CTR_PULL_FAILED_RE = /^PullImage "[^"]*" failed\b/;
const CTR_CNI_NOT_READY_RE = /failed to load cni during init|cni config load failed|cni plugin not initialized|no network config found in/i;
const CTR_UNHEALTHY_RE =
  /failed to handle (?:container )?TaskExit event|failed to (?:send|publish|forward) event|event stream|ttrpc: closed|ttrpc: received message on inactive stream|ttrpc: failed to handle message|shim (?:disconnected|exited)|timeout waiting for .*shim|failed to (?:stop|delete) sandbox .*deadline/i;
function containerdKind(h: string, text: string, severity: number, fields: Record<string, string>): EventKind | null {
  if (CTR_RUN_FAILED_RE.test(h)) return "sandbox.create.failed";
  if (CTR_RUN_RETURNS_RE.test(h)) return "sandbox.created";
  // the failure line cut by a pager before its `failed, error`: its level still says so
  if (severity >= 3 && CTR_RUN_RE.test(h)) return "sandbox.create.failed";
  if (CTR_RUN_RE.test(h)) return "sandbox.create.start";
  if (CTR_STOP_FAILED_RE.test(h)) return "sandbox.stop.failed";
  if (CTR_STOP_RETURNS_RE.test(h)) return "sandbox.stop";
  if (CTR_TEARDOWN_FAILED_RE.test(h)) return "sandbox.stop.failed";
  if (CTR_TEARDOWN_DONE_RE.test(h)) return "sandbox.stop";
  if (CTR_STARTING_RE.test(h) || CTR_BOOTED_RE.test(h)) return "runtime.started";
  // containerd's CRI image service (`internal/cri/server/images/image_pull.go`: `PullImage %q failed`)
  if (CTR_PULL_FAILED_RE.test(h)) return "image.pull.failed";
  if (CTR_CNI_NOT_READY_RE.test(text)) return "network.not-ready";
  if (severity >= 3 && CTR_UNHEALTHY_RE.test(text)) return "runtime.unhealthy";
  void fields;
  return null;
}

const CRIO_STARTING_RE = /^Starting CRI-O\b/;
const CRIO_RUNNING_RE = /^Running pod sandbox: /;
const CRIO_RAN_RE = /^Ran pod sandbox [0-9a-f]{64}\b/;
const CRIO_STOPPED_RE = /^Stopped pod sandbox\b/;
const CRIO_ADD_ERROR_RE = /[Ee]rror adding (?:pod|network)\b/;
const CRIO_DEL_ERROR_RE = /[Ee]rror deleting (?:pod|network)\b|error stopping network on cleanup/;
function crioKind(h: string, text: string): EventKind | null {
  if (CRIO_STARTING_RE.test(h)) return "runtime.started";
  if (CRIO_RUNNING_RE.test(h)) return "sandbox.create.start";
  if (CRIO_RAN_RE.test(h)) return "sandbox.created";
  if (CRIO_STOPPED_RE.test(h)) return "sandbox.stop";
  if (CRIO_ADD_ERROR_RE.test(text)) return "cni.add.failed";
  if (CRIO_DEL_ERROR_RE.test(text)) return "cni.del.failed";
  return null;
}

const CNI_ADD_RESULT_RE = /Final result of CNI ADD was an error/i;
const CNI_DEL_RESULT_RE = /Final result of CNI DEL was an error/i;
const CALICO_NODE_NAME_RE = /^Using node name: /;
const CALICO_STARTED_RE = /^Calico started successfully/;
const ISTIO_KUBECONFIG_RE = /^wrote kubeconfig file\b/i;
const FLANNEL_SUBNET_RE = /^Wrote subnet file to /;
function cniKind(h: string, text: string, severity: number): EventKind | null {
  if (CNI_ADD_RESULT_RE.test(text)) return "cni.add.failed";
  if (CNI_DEL_RESULT_RE.test(text)) return "cni.del.failed";
  // the agent made the node's CNI usable
  if (CALICO_NODE_NAME_RE.test(h) || CALICO_STARTED_RE.test(h)) return "cni.ready";
  if (ISTIO_KUBECONFIG_RE.test(h)) return "cni.ready";
  if (FLANNEL_SUBNET_RE.test(h)) return "cni.ready";
  // aws-vpc-cni: the plugin's ADD request, ipamd's AddNetwork request from it (the pod's network set-up starting), ipamd's reply
  if (AWS_ADD_REQUEST.test(h)) return "sandbox.create.start";
  const ovnk = OVNK_CNI_REQUEST.exec(h);
  if (ovnk) {
    if (ovnk[2] === "starting") return ovnk[1] === "ADD" ? "sandbox.create.start" : null;
    const err = OVNK_ERR.exec(h);
    if (err && err[1] !== "<nil>") return ovnk[1] === "ADD" ? "cni.add.failed" : ovnk[1] === "DEL" ? "cni.del.failed" : null;
    return null;
  }
  const reply = AWS_IPAMD_REPLY.exec(h);
  if (reply) return awsReplyFailed(h) ? (reply[1] === "Add" ? "cni.add.failed" : "cni.del.failed") : null;
  if (severity >= 3) {
    const op = cniOpOf(text);
    if (op === "ADD") return "cni.add.failed";
    if (op === "DEL") return "cni.del.failed";
  }
  return null;
}

/**
 * aws-vpc-cni's ipamd answering the CNI plugin's gRPC call (amazon-vpc-cni-k8s
 * `pkg/ipamd/rpc_handler.go`; `ipamd.log`, always at info):
 *
 *     Send AddNetworkReply: IPv4Addr , DeviceNumber: 0, err: assignPodIPv4AddressUnsafe: no available IP addresses   (v1.5, seelog)
 *     Send AddNetworkReply: IPv4Addr 10.0.1.7, IPv6Addr: , DeviceNumber: 0, err: <nil>                               (v1.7+, zap JSON)
 *     Send AddNetworkReply: Success: false IPAddr: [], err: datastore: no available IP/Prefix addresses              (v1.16+)
 *     Send AddNetworkReply: Failed to get pod: pods "web-0" not found                                                (early return)
 *     Send DelNetworkReply: IPv4Addr 10.0.1.7, DeviceNumber: 0, err: <nil>
 *
 * The request it answers (`Received AddNetwork for NS …, Pod …, NameSpace …, Container …` /
 * `…, Sandbox <id>, ifname eth0`) is logged before it, and is a `sandbox.create.start` naming the
 * pod and the sandbox, as the plugin's `Received CNI add request` is: the attempt model gives an
 * answer that names neither the pod and sandbox of the request it answers
 * (lib/detect/attempts.ts). The plugin's own lines (`plugin.log`) of the same failure follow
 * within milliseconds and join it as one attempt.
 */
const AWS_IPAMD_REPLY = /^Send (Add|Del)NetworkReply: /;
/**
 * ovnkube-node's CNI server (ovn-kubernetes go-controller/pkg/cni `cni.go` HandleCNIRequest, both at
 * info): `[<ns>/<pod> <sandbox>] ADD starting CNI request …` (the pod's network set-up starting, as
 * aws-vpc-cni's request is) and `[<ns>/<pod> <sandbox>] ADD finished CNI request …, result "…", err
 * <error>` (`err <nil>` when it worked). Groups: the command, starting/finished.
 */
const OVNK_CNI_REQUEST = /^\[[^\]\s]+ [0-9a-f]{64}\] (ADD|DEL|CHECK) (starting|finished) CNI request\b/;
const OVNK_ERR = /, err ([\s\S]+)$/;
/** The plugin's `Received CNI add request: ContainerID(<id>) … Args(…K8S_POD_NAME=…)` and ipamd's `Received AddNetwork for NS …` (same sources). */
const AWS_ADD_REQUEST = /^Received (?:CNI add request: ContainerID\(|AddNetwork for NS )/;

const AWS_SUCCESS_FALSE_RE = /\bSuccess: false\b/;
const AWS_SUCCESS_TRUE_RE = /\bSuccess: true\b/;
const AWS_ERR_NIL_RE = /\berr: <nil>\s*$/;
/** The reply reports a failure: `Success: false`, or no `Success: true` and an `err` that is not `<nil>` (or none at all). */
function awsReplyFailed(h: string): boolean {
  if (AWS_SUCCESS_FALSE_RE.test(h)) return true;
  if (AWS_SUCCESS_TRUE_RE.test(h)) return false;
  return !AWS_ERR_NIL_RE.test(h);
}
