import { describe, expect, it } from "vitest";
import { parseKlogText } from "../parse/klog";
import { fieldsOfMessage, fieldsText, messageFieldsAt } from "./message-fields";

/** klog lines as the kubelet writes them (structured message, Go-quoted values, an object value). */
const LINES = [
  `E0314 02:12:41.108211    2817 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"4cff53b86489ea787146a8618a73eb9d1ac42fc09e4167c050dfd6b99edc81a5\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"`,
  `E0314 02:12:41.108302    2817 kuberuntime_manager.go:1168] "CreatePodSandbox for pod failed" err="rpc error: code = Unknown" pod="monitoring/otel-collector-agent-hbnbx"`,
  `I0314 02:10:05.991020    2817 kubelet.go:408] "Kubelet version" kubeletVersion="v1.31.4"`,
  `I0314 02:10:07.000101    2817 kubelet.go:2321] "SyncLoop ADD" source="api" pods=["kube-system/calico-node-bjrkf","kube-system/kube-proxy-7x2lq"]`,
  `I0314 02:10:07.000101    2817 status_manager.go:851] "Failed to get status for pod" podUID="46a0b31a-c222-4f35-bf72-8ca767a94fee" pod="kube-system/coredns-6d8c7f8b9-psj8n" err="Get \\"https://10.0.0.1:443/api/v1/namespaces/kube-system/pods/coredns\\": dial tcp 10.0.0.1:443: connect: connection refused"`,
];

describe("message-fields", () => {
  it("finds where a klog message's pairs start and reads the same fields back", () => {
    for (const line of LINES) {
      const rec = parseKlogText(line)!;
      expect(rec.fields).toBeDefined();
      const at = messageFieldsAt(rec.message, rec.fields!);
      expect(at).not.toBeNull();
      expect(fieldsOfMessage(rec.message, at!)).toEqual(rec.fields);
    }
    const rec = parseKlogText(LINES[1])!;
    expect(messageFieldsAt(rec.message, rec.fields!)).toBe("CreatePodSandbox for pod failed ".length);
    expect(fieldsOfMessage(rec.message, rec.message.indexOf("err="))).toEqual({
      err: "rpc error: code = Unknown",
      pod: "monitoring/otel-collector-agent-hbnbx",
    });
  });

  it("keeps fields the message does not hold exactly", () => {
    // logrus: the message is msg only
    expect(messageFieldsAt("starting containerd", { revision: "6fd3beb5", version: "v1.7.27" })).toBeNull();
    // a pair added after parsing (a line prefix's fields)
    const rec = parseKlogText(LINES[2])!;
    expect(messageFieldsAt(rec.message, { ...rec.fields!, prefixHost: "ip-10-0-0-1" })).toBeNull();
    // a value that differs from the text, and one that is not a string
    expect(messageFieldsAt(rec.message, { kubeletVersion: "v1.31.5" })).toBeNull();
    expect(messageFieldsAt('Started k8s={"a":1}', { k8s: { a: 1 } })).toBeNull();
    expect(messageFieldsAt("no fields", null)).toBeNull();
    expect(messageFieldsAt("no fields", {})).toBeNull();
  });

  it("writes fields kept apart as key=value text after the message", () => {
    // containerd (logrus): the error is a field, not part of msg
    const json = JSON.stringify({
      error: 'plugin type="calico" failed (delete): stat /var/lib/calico/nodename: no such file or directory',
      pod: "default/web-0",
    });
    expect(fieldsText(json, 2000)).toBe(
      'error="plugin type=\\"calico\\" failed (delete): stat /var/lib/calico/nodename: no such file or directory" pod=default/web-0',
    );
    // a Kubernetes event's structured copy is left out; numbers are written as JSON
    expect(fieldsText(JSON.stringify({ reason: "FailedCreatePodSandBox", count: 3, k8s: { reason: "x" } }), 2000)).toBe(
      "reason=FailedCreatePodSandBox count=3",
    );
    expect(fieldsText(JSON.stringify({ a: "x".repeat(50) }), 10)).toBe("a=xxxxxxxx");
    expect(fieldsText(null, 100)).toBeNull();
    expect(fieldsText("{not json", 100)).toBeNull();
    expect(fieldsText("[1,2]", 100)).toBeNull();
    expect(fieldsText(JSON.stringify({ k8s: {} }), 100)).toBeNull();
  });
});
