/**
 * Events a component's event recorder logs as it records them (the kubelet's `event.go` lines), read
 * back as the event they name. Pure.
 */
import type { K8sEventInfo } from "../parse/types";

/**
 * The event a component's event recorder logs as it records it (client-go `tools/record`
 * `event.go`): structured `"Event occurred" object="<ns>/<name>" kind="Pod" … type="Warning"
 * reason="FailedCreatePodSandBox" message="…"`, or before structured logging `Event(v1.ObjectReference
 * {Kind:"Pod", Namespace:"<ns>", Name:"<name>", …}): type: 'Warning' reason: '<reason>' <message>`.
 * A kubelet log grepped for a reason holds only these lines; each is that event, timed by the line.
 */
const EVENT_OBJECT_REF = /^Event\(v1\.ObjectReference\{Kind:"(\w*)", Namespace:"([^"]*)", Name:"([^"]*)"[^}]*\}\): type: '(\w+)' reason: '(\w+)' ([\s\S]*)$/;

/** The event a recorder line names (`EVENT_OBJECT_REF`), with its message; null for other lines. */
export function recordedEvent(h: string, fields: Record<string, string>): (K8sEventInfo & { message: string }) | null {
  let reason: string;
  let type: string;
  let message: string;
  let kind: string | null = null;
  let namespace: string | null = null;
  let name: string | null = null;
  if (h.startsWith("Event occurred") && fields.reason) {
    reason = fields.reason;
    type = fields.type ?? "Normal";
    message = fields.message ?? "";
    kind = fields.kind ?? null;
    const o = fields.object ?? "";
    const slash = o.indexOf("/");
    if (slash > 0) [namespace, name] = [o.slice(0, slash), o.slice(slash + 1)];
    else if (o) name = o;
  } else {
    const m = h.charCodeAt(0) === 69 ? EVENT_OBJECT_REF.exec(h) : null;
    if (!m) return null;
    [kind, namespace, name, type, reason, message] = [m[1] || null, m[2] || null, m[3] || null, m[4], m[5], m[6]];
  }
  return { reason, type, count: 1, namespace, objectKind: kind, objectName: name, node: null, firstMs: null, lastMs: null, message };
}
