import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file";

/** A spawn as the hub log and the spawn page print it: two spawns of one user, the first failing. */
const HUB = `[I 2022-10-03 18:25:40.112 JupyterHub log:189] 302 GET /hub/spawn/ana -> /hub/spawn-pending/ana (ana@10.0.0.1) 45.21ms
[I 221003 18:25:41 spawner:2344] Attempting to create pod jupyter-ana, with timeout 3
Server requested
2022-10-03T18:25:41Z [Normal] Successfully assigned jhub/jupyter-ana to node-3
2022-10-03 18:25:49+00:00 [Warning] Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox
  "ed07": stat /var/lib/calico/nodename: no such file or directory
Spawn failed: pod jhub/jupyter-ana did not start in 300 seconds!
[W 2022-10-03 18:30:40.400 JupyterHub user:881] ana's server failed to start in 300 seconds, giving up.
Server requested
None [Warning] Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded
`;

describe("jupyterhub-events: the hub log and the spawn page together", () => {
  const f = parseFile("hub.log", HUB, {});

  it("every line read: 9 records, the wrapped piece continues the event after one blank", () => {
    expect(f.format).toBe("jupyterhub-events");
    expect(f.counts).toMatchObject({ lines: 10, records: 9, continuation: 1, skipped: 0, noTimestamp: 4, outOfOrder: 0 });
    expect(f.records[4].message).toBe(
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "ed07": stat /var/lib/calico/nodename: no such file or directory',
    );
  });

  it("hub log lines: their level, the hub's clock as UTC by default, both date forms", () => {
    expect(f.records.slice(0, 2).map((r) => [r.component, r.severity, new Date(r.ts!).toISOString()])).toEqual([
      ["jupyterhub", 1, "2022-10-03T18:25:40.112Z"],
      ["jupyterhub", 1, "2022-10-03T18:25:41.000Z"],
    ]);
    expect(f.records[6]).toMatchObject({ component: "jupyterhub", severity: 2 });
  });

  it("events after the scheduler's assignment carry its pod and node, until the next spawn is requested", () => {
    const events = f.records.filter((r) => r.k8sEvent);
    expect(events.map((r) => [r.k8sEvent?.reason, r.k8sEvent?.namespace, r.k8sEvent?.objectName, r.k8sEvent?.node])).toEqual([
      ["Scheduled", "jhub", "jupyter-ana", "node-3"],
      ["FailedCreatePodSandBox", "jhub", "jupyter-ana", "node-3"],
      ["FailedCreatePodSandBox", null, null, null],
    ]);
    expect(new Date(events[1].ts!).toISOString()).toBe("2022-10-03T18:25:49.000Z");
    expect(events[2].ts).toBeNull();
  });

  it("the progress texts are records without a time; `Spawn failed` an error", () => {
    expect(f.records.filter((r) => r.ts === null && !r.k8sEvent).map((r) => [r.message.slice(0, 16), r.severity])).toEqual([
      ["Server requested", 1],
      ["Spawn failed: po", 3],
      ["Server requested", 1],
    ]);
  });
});
