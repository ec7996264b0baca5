/**
 * The real-format cases of event messages in their other shapes (tests/cases, expected values in
 * tests/cases/expect/*.json): describe rows with the older wording, a describe row right under
 * another inside a journal paste, an event message quoted alone (wrapped by hand, escaped by a
 * page), JupyterHub's spawn-page progress event. Parsed by `parseFile` with the upload values a
 * reviewer gives.
 */
import { describe, expect, it } from "vitest";
import { caseText } from "../../tests/cases/cases";
import { expectAccounting, parseCase } from "../testing/parse-cases";
import type { FileRecord, ParsedFile } from "./file-types";

function expected(name: string): { records: number; timestamped: number } {
  return JSON.parse(caseText(`expect/${name.replace(/\.log$/, ".json")}`)) as { records: number; timestamped: number };
}

const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
const ev = (r: FileRecord) => r.k8sEvent;
/** Records with a time of their own (not counted back from an age). */
const ownTimes = (f: ParsedFile): number => f.records.filter((r) => r.ts !== null && r.k8sEvent?.lastUncertaintyMs === undefined).length;

describe("case 015: two describe rows without header, `Failed create pod sandbox`, source `kubelet, node-a0`", () => {
  const name = "015-weave-after-reboot-describe-events.log";
  const f = parseCase(name, { collectedMs: Date.parse("2019-03-01T12:00:00Z") });

  it("2 records, ages only: 3m17s = 11:56:43Z, 3m15s = 11:56:45Z, to the second", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 2, records: expected(name).records, skipped: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2019-03-01T11:56:43.000Z", "2019-03-01T11:56:45.000Z"]);
    expectAccounting(f);
  });

  it("each row a FailedCreatePodSandBox of pod openwhisk/controller-0 on node-a0, with its own sandbox", () => {
    for (const r of f.records) {
      expect(ev(r)).toMatchObject({
        reason: "FailedCreatePodSandBox",
        type: "Warning",
        count: 1,
        node: "node-a0",
        namespace: "openwhisk",
        objectName: "controller-0",
      });
      expect(r.message).toMatch(/^Failed create pod sandbox: .*dial tcp 127\.0\.0\.1:6784: connect: connection refused$/);
    }
    expect(f.records[1].message).toContain('sandbox container "1edd330ba9ba5163b8c7668dae478eebef705fb21f579f00d90fefc9fdc0c562"');
  });
});

describe("case 041: describe Events, then journal lines whose bodies embed Go times", () => {
  const name = "041-describe-x72-and-journald-go-monotonic-clock.log";
  const f = parseCase(name, { collectedMs: Date.parse("2018-12-21T10:10:00Z"), tz: "Asia/Shanghai" });

  it("4 records: the x72 row under the Scheduled row is a record of its own, not a journal continuation", () => {
    expect(f.counts).toMatchObject({ lines: 8, blank: 1, records: expected(name).records, continuation: 0, banner: 3, skipped: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    expect(f.records.map((r) => r.line)).toEqual([4, 5, 7, 8]);
    expectAccounting(f);
  });

  it("FailedCreatePodSandBox 111s (x72 over 17m): count 72, first 09:53:00Z (a minute's latest bound), last 10:08:09Z", () => {
    const r = f.records[1];
    expect(ev(r)).toMatchObject({ reason: "FailedCreatePodSandBox", count: 72, node: "10.116.72.65", objectName: "my-web", namespace: "default" });
    expect(iso(ev(r)?.firstMs)).toBe("2018-12-21T09:53:00.000Z");
    expect(iso(ev(r)?.lastMs)).toBe("2018-12-21T10:08:09.000Z");
    expect(r.message).toMatch(/invalid reference format$/);
  });

  it("the journal records keep their own stamp (18:07:30.342 CST = 10:07:30.342Z); the Go time in the body stays in the message", () => {
    for (const r of f.records.slice(2)) {
      expect(r.component).toBe("kubelet");
      expect(iso(r.ts)).toBe("2018-12-21T10:07:30.342Z");
      expect(r.message).toMatch(/ time: 2018-12-21 18:07:30\.335418652 \+0800 CST m=\+2862\.933679982$/);
      expect(r.fields?.uptime).toBeUndefined();
    }
  });
});

describe("case 074: describe rows 15 s apart, bare `kubelet` source", () => {
  const name = "074-describe-multus-shim-sock-refused-15s.log";
  const f = parseCase(name, { collectedMs: Date.parse("2024-05-01T09:00:00Z") });

  it("2 records at 08:59:35Z and 08:59:50Z, no node", () => {
    expect(f.counts).toMatchObject({ lines: 5, records: expected(name).records, banner: 3, skipped: 0 });
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2024-05-01T08:59:35.000Z", "2024-05-01T08:59:50.000Z"]);
    expect(f.records.every((r) => ev(r)?.node === null && r.message.includes("/run/multus/multus.sock: connect: connection refused"))).toBe(true);
  });
});

describe("case 066: one event message wrapped by hand into 5 lines", () => {
  const name = "066-after-poweroff-istio-cni-kubeconfig-enoent-wrapped.log";
  const f = parseCase(name);

  it("1 record without a time; the pieces join after one blank, trailing spaces dropped", () => {
    expect(f.format).toBe("k8s-message");
    expect(f.counts).toMatchObject({ lines: 5, records: expected(name).records, continuation: 4, skipped: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    expect(f.records[0].message).toBe(
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "2fd6706806f0039d76c71fc2603f4ac0c37adcc3c79b6b3839c0b601d8904285": plugin type="istio-cni" name="istio-cni" failed (add): failed to createNewK8sClient: failed to setup client: stat /var/run/istio-cni/istio-cni-kubeconfig: no such file or directory',
    );
    expect(ev(f.records[0])).toMatchObject({ reason: "FailedCreatePodSandBox", type: "Warning", count: 1, lastMs: null });
  });
});

describe("case 055: the runtime's error quoted alone, HTML-escaped", () => {
  const name = "055-rke2-after-reboot-html-entities.log";
  const f = parseCase(name);

  it("1 record without a time, its `&#34;` read as double quotes; the raw line kept as written", () => {
    expect(f.format).toBe("k8s-message");
    expect(f.counts).toMatchObject({ lines: 1, records: expected(name).records, skipped: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    const r = f.records[0];
    expect(r.message).toContain('timeout: Get "http://localhost/v1/config": dial unix /var/run/cilium/cilium.sock: connect: no such file or directory');
    expect(r.message).not.toContain("&#34;");
    expect(r.raw).toContain("&#34;http://localhost/v1/config&#34;");
    expect(ev(r)?.reason).toBe("FailedCreatePodSandBox");
  });
});

describe("case 118: JupyterHub's spawn-page progress event, wrapped at about 66 columns", () => {
  const name = "118-jupyterhub-spawn-event-hardwrapped-calico-nodename.log";
  const f = parseCase(name);

  it("1 record at 18:25:49Z; `rpc` / `error` and the sandbox id's line join after one blank", () => {
    expect(f.format).toBe("jupyterhub-events");
    expect(f.counts).toMatchObject({ lines: 5, records: expected(name).records, continuation: 4, skipped: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    const r = f.records[0];
    expect(iso(r.ts)).toBe("2022-10-03T18:25:49.000Z");
    expect(r.message).toBe(
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "ed07287b32063c20efcea17c4e80f43c78a1b9a2c810afbe4a7ca0eeb6473cb0": stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/',
    );
    expect(ev(r)).toMatchObject({ reason: "FailedCreatePodSandBox", type: "Warning", count: 1, lastMs: Date.parse("2022-10-03T18:25:49Z") });
  });
});
