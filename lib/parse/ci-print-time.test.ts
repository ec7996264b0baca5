/**
 * kubectl tables behind a CI console's print time (Jenkins, GitHub Actions, GitLab, Buildkite) and
 * `kubectl get events -w` captures: the print time is never an event's time; the ages count back
 * from each row's own print time when no collection time is given.
 */
import { describe, expect, it } from "vitest";
import { pasteInfo, parseFile } from "./parse-file";

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

const DESCRIBE = [
  "+ kubectl describe pod web-7d9f8c6b5-2xkqp -n shop",
  "Events:",
  "  Type     Reason                  Age                   From     Message",
  "  ----     ------                  ----                  ----     -------",
  '  Warning  FailedCreatePodSandBox  3m8s                  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "6f2e": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
  '  Warning  FailedCreatePodSandBox  12s (x14 over 2m55s)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "7a3c": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
];

/** The describe with one prefix per line, the print time 5 ms later on each line from 03:04:05.600. */
function stamped(prefix: (ms: number) => string): string {
  const t0 = Date.UTC(2023, 0, 2, 3, 4, 5, 600);
  return DESCRIBE.map((l, i) => prefix(t0 + 5 * i) + l).join("\n");
}

describe("CI print times before a describe", () => {
  const cases: Array<[string, string, (ms: number) => string]> = [
    ["Jenkins Timestamper `[<ISO>] `", "ci-stamp", (ms) => `[${new Date(ms).toISOString()}] `],
    ["GitHub Actions raw log (7 fraction digits)", "timestamps", (ms) => `${new Date(ms).toISOString().slice(0, 23)}0000Z `],
    ["GitLab Runner FF_TIMESTAMPS (`00O`)", "gitlab-stamp", (ms) => `${new Date(ms).toISOString().slice(0, 23)}000Z 00O `],
    ["Buildkite raw `ESC _bk;t=<ms> BEL`", "buildkite-stamp", (ms) => `\u001b_bk;t=${ms}\u0007`],
    ["Buildkite with the control characters lost", "buildkite-stamp", (ms) => `_bk;t=${ms}`],
  ];

  it.each(cases)("%s: rows read, ages counted from each row's print time", (_name, layer, prefix) => {
    const f = parseFile("console.txt", stamped(prefix), {});
    expect(f.format).toBe("describe-events");
    expect(pasteInfo(f)?.prefix).toEqual([layer]);
    // the `+ kubectl …` trace line is a banner like the describe's own lines
    expect(f.counts).toMatchObject({ records: 2, banner: 4, skipped: 0 });
    // row 5 printed at 03:04:05.620, 3m8s earlier; row 6 at .625, 12s and 2m55s earlier
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2023-01-02T03:00:57.620Z", "2023-01-02T03:03:53.625Z"]);
    expect(iso(f.records[1].k8sEvent?.firstMs)).toBe("2023-01-02T03:01:10.625Z");
    expect(f.records[1].k8sEvent?.agesFromUpload).toBeUndefined();
  });

  it("Jenkins freestyle `hh:mm:ss  ` has no date: read, but the ages count from the upload time", () => {
    const uploadMs = Date.UTC(2026, 11, 1, 12, 0, 0);
    const f = parseFile(
      "console.txt",
      stamped((ms) => `${new Date(ms).toISOString().slice(11, 19)}  `),
      { uploadMs },
    );
    expect(pasteInfo(f)?.prefix).toEqual(["ci-clock"]);
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expect(f.records[0].fields?.prefixTime).toBe("03:04:05");
    expect(iso(f.records[0].ts)).toBe("2026-12-01T11:56:52.000Z");
    expect(f.records[0].k8sEvent?.agesFromUpload).toBe(true);
  });

  it("a given collection time still wins over the print times", () => {
    const collectedMs = Date.UTC(2023, 0, 2, 4, 0, 0);
    const f = parseFile(
      "console.txt",
      stamped((ms) => `${new Date(ms).toISOString().slice(0, 23)}0000Z `),
      { collectedMs },
    );
    expect(iso(f.records[0].ts)).toBe("2023-01-02T03:56:52.000Z");
  });
});

describe("kubectl get events -w", () => {
  const fail = (sandbox: string) =>
    `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sandbox}": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory`;
  const rows = [
    "$ kubectl get events -n shop -w",
    "LAST SEEN   TYPE      REASON                   OBJECT                    MESSAGE",
    "0s          Normal    Scheduled                pod/web-5f7c9-abcde       Successfully assigned shop/web-5f7c9-abcde to worker-4",
    `0s          Warning   FailedCreatePodSandBox   pod/web-5f7c9-abcde       ${fail("aa11")}`,
    `0s          Warning   FailedCreatePodSandBox   pod/web-5f7c9-abcde       (combined from similar events): ${fail("bb22")}`,
    `0s (x2 over 3s)   Warning   FailedCreatePodSandBox   pod/web-5f7c9-abcde       (combined from similar events): ${fail("cc33")}`,
    '1s          Normal    Pulled                   pod/web-5f7c9-abcde       Container image "nginx:1.25" already present on machine',
  ];

  it("without print times: an event printed again lies its span after its first printing; none before a row printed above it", () => {
    // a watch prints each update as it happens, ages `0s`: the aggregate event's `(x2 over 3s)`
    // printing came 3 s after its first (`0s`, count 1), so the rows span 3 s, not one second
    const collectedMs = Date.UTC(2023, 0, 2, 3, 10, 0);
    const f = parseFile("watch.txt", rows.join("\n"), { collectedMs });
    expect(f.records.map((r) => r.k8sEvent?.reason)).toEqual([
      "Scheduled",
      "FailedCreatePodSandBox",
      "FailedCreatePodSandBox",
      "FailedCreatePodSandBox",
      "Pulled",
    ]);
    // the last row's `1s` bounds the update at 03:09:59; its first printing 3 s earlier, and the rows above it no later
    expect(f.records.map((r) => iso(r.ts))).toEqual([
      "2023-01-02T03:09:56.000Z",
      "2023-01-02T03:09:56.000Z",
      "2023-01-02T03:09:56.000Z",
      "2023-01-02T03:09:59.000Z",
      "2023-01-02T03:09:59.000Z",
    ]);
    expect(f.counts.outOfOrder).toBe(0);
    expect(iso(f.records[3].k8sEvent?.firstMs)).toBe("2023-01-02T03:09:56.000Z");
    expect(iso(f.records[2].k8sEvent?.firstMs)).toBe("2023-01-02T03:09:56.000Z");
  });

  it("a watch of a 15 s retry storm: 14 printings of one event span 195 s, one every 15 s", () => {
    const lines = ["$ kubectl get events -n kube-system -w", "LAST SEEN   TYPE      REASON                   OBJECT                        MESSAGE"];
    const fmt = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m${s % 60 ? `${s % 60}s` : ""}` : `${s}s`);
    for (let k = 1; k <= 14; k++) {
      const age = k === 1 ? "0s" : `0s (x${k} over ${fmt(15 * (k - 1))})`;
      lines.push(`${age.padEnd(26)}  Warning   FailedCreatePodSandBox   pod/calico-kube-ctrl-7d9f8-xk2lq   ${fail(`s${k}`)}`);
    }
    const collectedMs = Date.UTC(2023, 0, 2, 3, 10, 0);
    const f = parseFile("watch.txt", lines.join("\n"), { collectedMs });
    expect(f.records).toHaveLength(14);
    const ts = f.records.map((r) => r.ts as number);
    expect((ts[13] - ts[0]) / 1000).toBe(195);
    expect(ts.slice(1).map((t, i) => (t - ts[i]) / 1000)).toEqual(Array(13).fill(15));
    expect(iso(ts[13])).toBe("2023-01-02T03:10:00.000Z");
    expect(f.records[13].k8sEvent?.count).toBe(14);
  });

  it("behind a print time: each row at its own print time", () => {
    const t0 = Date.UTC(2023, 0, 2, 3, 4, 5);
    const secs = [0, 0, 0, 1, 4, 7, 9];
    const f = parseFile("watch.txt", rows.map((l, i) => `[${new Date(t0 + secs[i] * 1000).toISOString()}] ${l}`).join("\n"), {});
    expect(f.records.map((r) => iso(r.ts))).toEqual([
      "2023-01-02T03:04:05.000Z",
      "2023-01-02T03:04:06.000Z",
      "2023-01-02T03:04:09.000Z",
      "2023-01-02T03:04:12.000Z",
      "2023-01-02T03:04:13.000Z",
    ]);
    // the update (x2 over 3s) started with the printing above it
    expect(iso(f.records[3].k8sEvent?.firstMs)).toBe("2023-01-02T03:04:09.000Z");
  });
});
