/** `kubectl get events -o json` pastes cut at both ends: pretty lists, object streams, objects one per line. */
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file";

const MSG =
  'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \\"9a8b\\": plugin type=\\"flannel\\" failed (add): open /run/flannel/subnet.env: no such file or directory';

function event(count: number, first: string, last: string): string {
  return `{"apiVersion": "v1", "count": ${count}, "firstTimestamp": "${first}", "involvedObject": {"kind": "Pod", "name": "api-x", "namespace": "prod"}, "kind": "Event", "lastTimestamp": "${last}", "message": "${MSG}", "reason": "FailedCreatePodSandBox", "source": {"component": "kubelet", "host": "worker-7"}, "type": "Warning"}`;
}

describe("JSON events cut at both ends", () => {
  const objs = [
    event(1, "2024-03-05T08:01:12Z", "2024-03-05T08:01:12Z"),
    event(2, "2024-03-05T08:01:12Z", "2024-03-05T08:01:40Z"),
    event(3, "2024-03-05T08:01:12Z", "2024-03-05T08:02:10Z"),
    event(1, "2024-03-05T08:03:00Z", "2024-03-05T08:03:00Z"),
  ];

  it("one object per line, the first cut at its start and the last at its end: the whole ones read, nothing unread", () => {
    const text = objs.join("\n");
    const f = parseFile("events.json", `${text.slice(40, text.length - 30)}\n`, {});
    expect(f.format).toBe("k8s-events-json");
    expect(f.counts).toMatchObject({ lines: 4, records: 2, banner: 1, continuation: 1, skipped: 0 });
    expect(f.records.map((r) => r.k8sEvent?.count)).toEqual([2, 3]);
  });

  it("pretty objects one after another (a watch), cut inside the first: its rest is the head", () => {
    const pretty = objs.map((o) => JSON.stringify(JSON.parse(o), null, 4)).join("\n");
    const lines = pretty.split("\n");
    const f = parseFile("events.json", lines.slice(8, -6).join("\n"), {});
    expect(f.format).toBe("k8s-events-json");
    expect(f.counts.skipped).toBe(0);
    expect(f.records.map((r) => [r.k8sEvent?.count, r.k8sEvent?.node])).toEqual([
      [2, "worker-7"],
      [3, "worker-7"],
    ]);
  });
});
