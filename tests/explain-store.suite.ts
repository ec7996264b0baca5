/**
 * "Explain this range" through the whole ingest, on either database: a generated boot of one node
 * (one journal, an hour) with steady background lines from containerd, systemd and kube-proxy,
 * and from T+30 min to T+33 min a burst of one kubelet sandbox failure for one pod. Explained
 * against the span before it and against the rest of the boot, the burst's template, pod,
 * component and error class rank first; a range at T+0 has an empty "before" baseline.
 */
import { expect, it } from "vitest";
import { getDb } from "../lib/db/connection";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { getRangeExplain } from "../lib/queries/get-range-explain";

const T0 = Date.UTC(2026, 2, 14, 2, 0, 0);
const stamp = (sec: number) => {
  const d = new Date(T0 + sec * 1000);
  return `Mar 14 ${d.toISOString().slice(11, 19)}`;
};
const klogTime = (sec: number) => new Date(T0 + sec * 1000).toISOString().slice(11, 19);

export const BURST = { fromSec: 1800, toSec: 1980, pod: "kube-system/calico-node-x9k2p" };

/** The storm's journal: 3,600 s of background, 3 lines a second, plus 2 burst lines a second inside `BURST`. */
export function stormJournal(): string {
  const lines: string[] = [];
  for (let s = 0; s < 3600; s++) {
    const at = (unit: string, msg: string) => lines.push(`${stamp(s)} node-a ${unit}: ${msg}`);
    at(
      "containerd[811]",
      `time="${new Date(T0 + s * 1000).toISOString()}" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web-${s % 4},Namespace:default,} returns sandbox id \\"${(s * 7919).toString(16).padStart(12, "0")}\\""`,
    );
    at("systemd[1]", `Started Session ${s} of User core.`);
    at(
      "kubelet[2817]",
      `I0314 ${klogTime(s)}.500000    2817 prober.go:107] "Probe succeeded" probeType="Readiness" pod="default/web-${s % 4}" containerName="app"`,
    );
    if (s % 30 === 0)
      at(
        "kubelet[2817]",
        `E0314 ${klogTime(s)}.700000    2817 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"app\\" with ImagePullBackOff: \\"Back-off pulling image \\\\\\"registry.local/app:1\\\\\\"\\"" pod="default/web-${(s / 30) % 4}"`,
      );
    at("kube-proxy[902]", `I0314 ${klogTime(s)}.000000     902 proxier.go:${800 + (s % 9)}] "SyncProxyRules complete" elapsed="${(s % 50) + 3}ms"`);
    if (s >= BURST.fromSec && s < BURST.toSec)
      for (let k = 0; k < 2; k++)
        at(
          "kubelet[2817]",
          `E0314 ${klogTime(s)}.${String(k * 400000 + 1).padStart(6, "0")}    2817 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory" pod="${BURST.pod}"`,
        );
  }
  return `${lines.join("\n")}\n`;
}

export function explainStoreSuite(): void {
  it("ranks the injected template, pod, component and error class first, against the span before and the whole boot", async () => {
    const db = await getDb();
    const { incidentId, bundleId } = await enqueueBundle(db, {
      title: "storm",
      files: [{ name: "journal.log", data: Buffer.from(stormJournal()) }],
      options: { year: 2026 },
    });
    expect((await processBundle(db, bundleId)).error).toBeNull();
    const [boot] = await db.sql.query<{ id: number }>(`SELECT id FROM "Boot" WHERE "incidentId" = $1`, [incidentId]);
    const range = { incidentId, bootId: boot.id, fromMs: T0 + BURST.fromSec * 1000, toMs: T0 + BURST.toSec * 1000 };
    const [burstTemplate] = await db.sql.query<{ template: string }>(
      `SELECT template FROM "LogPattern" WHERE "bootId" = $1 AND template LIKE 'Failed to create sandbox%'`,
      [boot.id],
    );
    expect(burstTemplate).toBeDefined();
    const first = (x: Awaited<ReturnType<typeof getRangeExplain>>) =>
      x && Object.fromEntries(Object.entries(x.rows).map(([dim, rows]) => [dim, rows[0] && [rows[0].value, rows[0].range.count, rows[0].baseline.count]]));
    // the range: 4 background lines a second, an image pull back-off every 30 s, and the burst's 2 a second
    const before = await getRangeExplain({ ...range, baseline: "before" });
    expect(before?.range).toEqual({ fromMs: range.fromMs, toMs: range.toMs, events: 180 * 4 + 6 + 360 });
    expect(before?.baseline).toEqual({ kind: "before", fromMs: range.fromMs - 180_000, toMs: range.fromMs, events: 180 * 4 + 6 });
    expect(before?.patternsCounted).toEqual({ range: "exact", baseline: "exact" });
    expect(first(before)).toEqual({
      pattern: [burstTemplate.template, 360, 0],
      pod: [BURST.pod, 360, 0],
      component: ["kubelet", 180 + 6 + 360, 180 + 6],
      errorClass: ["calico-nodename-missing", 360, 0],
    });
    expect(before?.rows.pattern[0].pValue).toBeLessThan(1e-10);
    expect(before?.rows.component[0].lane).toBe("kubelet");
    // the template's key is the one the timeline's patterns filter knows
    const { bootPatterns } = await import("../lib/incidents/boot-patterns");
    const own = await bootPatterns(db, incidentId, boot.id);
    expect(before?.rows.pattern[0].key).toBe(own.find((p) => p.template === burstTemplate.template)?.key);

    // against the rest of the boot: 3,600 s of background less the range's
    const whole = await getRangeExplain({ ...range, baseline: "boot" });
    expect(whole?.baseline.events).toBe(3600 * 4 + 120 - (180 * 4 + 6));
    expect(first(whole)).toEqual({
      pattern: [burstTemplate.template, 360, 0],
      pod: [BURST.pod, 360, 0],
      component: ["kubelet", 546, 3600 + 120 - 186],
      errorClass: ["calico-nodename-missing", 360, 0],
    });

    // templates estimated from the stored histograms (a span past the exact limit): the same first rows, the range being whole minutes
    for (const baseline of ["before", "boot"] as const) {
      const est = await getRangeExplain({ ...range, baseline, exactMax: 0 });
      expect(est?.patternsCounted).toEqual({ range: "histogram", baseline: "histogram" });
      expect(est?.rows.pattern[0]).toMatchObject({ key: before?.rows.pattern[0].key, range: { count: 360 }, baseline: { count: 0 } });
    }

    // at T+0 the span before is empty: nothing to test against, rows by count
    const early = await getRangeExplain({ ...range, fromMs: T0, toMs: T0 + 60_000, baseline: "before" });
    expect(early?.baseline).toMatchObject({ fromMs: T0, toMs: T0, events: 0 });
    expect(early?.rows.component.map((r) => [r.value, r.range.count, r.pValue])).toEqual([
      ["kubelet", 62, null],
      ["containerd", 60, null],
      ["kube-proxy", 60, null],
      ["systemd", 60, null],
    ]);
    // a boot of another incident
    expect(await getRangeExplain({ ...range, incidentId: "nope", baseline: "boot" })).toBeNull();
  }, 180_000);
}
