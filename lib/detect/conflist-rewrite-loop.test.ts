import { describe, expect, it } from "vitest";
import { collectWrites, configPathOf, defaults, run } from "./conflist-rewrite-loop";
import { BOOT, T0, eventFactory, sortEvents } from "./test-support";
import type { BootEvent } from "./types";
import { parseFile } from "../parse/parse-file";
import { classifyRecord } from "../normalise/classify";
import { caseText } from "../../tests/cases/cases";

const CONF = "/host/etc/cni/net.d/05-cilium.conflist";
const istioAnnounce = `configuration requires updates, (re)writing CNI config file at "${CONF}": istio-cni CNI config removed from CNI config file: ${CONF}`;
const istioCreated = `created CNI config ${CONF}`;
const ciliumWrote = `Wrote CNI configuration file to ${CONF}`;

/** A real case file through the real parser and classifier, as detector input. */
function caseEvents(name: string): BootEvent[] {
  const text = caseText(name);
  const pf = parseFile(name, text, { collectedMs: null, year: null });
  return pf.records.map((r, i) => {
    const c = classifyRecord(r);
    return {
      id: i + 1,
      ts: r.ts,
      fileId: 1,
      line: r.line,
      component: r.component,
      lane: c.lane,
      severity: r.severity,
      kind: c.kind,
      pod: c.pod,
      sandboxId: c.sandboxId,
      errorClass: c.errorClass,
      message: r.message,
      k8s: null,
      fields: null,
    };
  });
}

/** A loop: istio-cni (announce + completion 10 ms apart) and Cilium taking turns every `spacingS`. */
function loop(n: number, startS: number, spacingS: number, e = eventFactory()): BootEvent[] {
  const out: BootEvent[] = [];
  for (let i = 0; i < n; i++) {
    const t = startS + i * spacingS;
    if (i % 2 === 0) {
      out.push(e({ t: t - 0.01, component: "istio-cni", kind: "cni.config.written", message: istioAnnounce, severity: 1 }));
      out.push(e({ t, component: "istio-cni", kind: "cni.config.written", message: istioCreated, severity: 1 }));
    } else out.push(e({ t, component: "cilium", kind: "cni.config.written", message: ciliumWrote, severity: 1 }));
  }
  return out;
}

describe("conflist-rewrite-loop: writes", () => {
  it("host paths: the container's /host mount prefix is dropped", () => {
    expect(configPathOf(istioAnnounce)).toBe("/etc/cni/net.d/05-cilium.conflist");
    expect(configPathOf("Created /host/etc/cni/net.d/10-calico.conflist")).toBe("/etc/cni/net.d/10-calico.conflist");
    expect(configPathOf("/etc/cni/net.d/ MOVED_TO 05-cilium.conflist")).toBe("/etc/cni/net.d/05-cilium.conflist");
    expect(configPathOf("wrote kubeconfig file /var/run/istio-cni/istio-cni-kubeconfig with: ")).toBeNull();
  });

  it("case 006: one istio-cni write prints two lines 9.8 ms apart and counts once, at the completion", () => {
    const events = caseEvents("006-cni-agent-tabs-rewrite-multiline-kubeconfig.log");
    expect(events.filter((e) => e.kind === "cni.config.written")).toHaveLength(2);
    const writes = collectWrites(events);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ path: "/etc/cni/net.d/05-cilium.conflist", writer: "istio-cni", ts: Date.parse("2024-09-17T13:04:21.305Z") });
  });

  it("cases 002 and 003: one timed istio-cni write, one Cilium write without a time", () => {
    const w002 = collectWrites(caseEvents("002-istio-cni-json-rewrite-loop.log"));
    expect(w002.map((w) => [w.writer, w.ts])).toEqual([["istio-cni", Date.parse("2024-02-03T23:50:37.091Z")]]);
    const w003 = collectWrites(caseEvents("003-cilium-agent-logfmt-regenerate-loop.log"));
    expect(w003.map((w) => [w.writer, w.ts, w.path])).toEqual([["cilium", null, "/etc/cni/net.d/05-cilium.conflist"]]);
  });

  it("inotifywait observations near an agent's writes are evidence of them; where no agent line is near they count as writer unknown", () => {
    const e = eventFactory();
    const events = sortEvents([
      e({ t: 10.3, component: "cilium", kind: "cni.config.written", message: ciliumWrote, severity: 1 }),
      e({ t: 10, component: "inotifywait", kind: "cni.config.written", message: "/etc/cni/net.d/ MOVED_TO 05-cilium.conflist", severity: 1 }),
      e({ t: 40, component: "inotifywait", kind: "cni.config.written", message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist", severity: 1 }),
    ]);
    expect(collectWrites(events).map((w) => [w.writer, w.ts! - T0, w.events.length])).toEqual([
      ["cilium", 10_300, 2],
      ["unknown", 40_000, 1],
    ]);
  });

  it("an inotifywait -m log alone (with --timefmt) shows a loop through the real parser and classifier", () => {
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) {
      const t = new Date(Date.UTC(2024, 8, 17, 13, 4, 21 + Math.floor(i / 3))).toISOString().replace(".000Z", "+0000");
      lines.push(
        `${t} /etc/cni/net.d/ CREATE .05-cilium.conflist${1000 + i}`,
        `${t} /etc/cni/net.d/ MODIFY .05-cilium.conflist${1000 + i}`,
        `${t} /etc/cni/net.d/ CLOSE_WRITE,CLOSE .05-cilium.conflist${1000 + i}`,
      );
      lines.push(`${t} /etc/cni/net.d/ MOVED_FROM .05-cilium.conflist${1000 + i}`, `${t} /etc/cni/net.d/ MOVED_TO 05-cilium.conflist`);
    }
    const pf = parseFile("inotify-net.d.log", lines.join("\n") + "\n", { collectedMs: null, year: null });
    expect(pf.format).toBe("inotifywait");
    const events = pf.records.map((r, i) => {
      const c = classifyRecord(r);
      return {
        id: i + 1,
        ts: r.ts,
        fileId: 1,
        line: r.line,
        component: r.component,
        lane: c.lane,
        severity: r.severity,
        kind: c.kind,
        pod: c.pod,
        sandboxId: c.sandboxId,
        errorClass: c.errorClass,
        message: r.message,
        k8s: null,
        fields: null,
      } as BootEvent;
    });
    expect(events.filter((x) => x.kind === "cni.config.written")).toHaveLength(30);
    const start = Date.UTC(2024, 8, 17, 13, 4, 21);
    const [f] = run({ ...BOOT, start: start - 60_000, end: start + 120_000 }, sortEvents(events), defaults);
    expect(f.metrics).toMatchObject({ path: "/etc/cni/net.d/05-cilium.conflist", writes: 30, writers: ["unknown"], durationS: 9, writesPerS: 3.222 });
  });
});

describe("conflist-rewrite-loop: findings", () => {
  it("two writers taking turns at 4 writes/s for 30 s: path, writes, writers, rate, duration; the cause named", () => {
    const e = eventFactory();
    const events = sortEvents([...loop(121, 40, 0.25, e), e({ t: 200, kind: "sandbox.created", component: "containerd", severity: 1 })]);
    const [f, ...rest] = run(BOOT, events, defaults);
    expect(rest).toEqual([]);
    expect(f.metrics).toMatchObject({
      path: "/etc/cni/net.d/05-cilium.conflist",
      writes: 121,
      writers: ["istio-cni", "cilium"],
      writesPerS: 4,
      durationS: 30,
      writesByWriter: { "istio-cni": 61, cilium: 60 },
      handovers: 120,
    });
    expect(f.start).toBe(T0 + 40_000);
    expect(f.end).toBe(T0 + 70_000);
    expect(f.severity).toBe("high");
    expect(f.explanation).toContain("cni-exclusive");
    expect(f.explanation).toContain("chained mode");
    expect(f.explanation).toContain("written 121 times in 30.000 s (4.000 writes/s)");
    expect(f.evidence).toHaveLength(61 * 2 + 60);
  });

  it("still going when the data ends: end is null", () => {
    const [f] = run(BOOT, sortEvents(loop(40, 40, 0.5)), defaults);
    expect(f.end).toBeNull();
    expect(f.explanation).toContain("still being rewritten when the data ended");
  });

  it("one conflist write at install time is no loop; nor are a few writes of agents restarting", () => {
    const e = eventFactory();
    const install = [e({ t: 8, component: "cni-calico", kind: "cni.config.written", message: "Created /host/etc/cni/net.d/10-calico.conflist", severity: 1 })];
    expect(run(BOOT, install, defaults)).toEqual([]);
    const restarts = [0, 30, 95, 160, 250, 400, 500, 620, 700, 810, 900].map((t) =>
      e({ t: 8 + t, component: "cilium", kind: "cni.config.written", message: ciliumWrote, severity: 1 }),
    );
    expect(run(BOOT, restarts, defaults)).toEqual([]);
  });

  it("Cilium's writes without a time are counted apart and do not enter the rate", () => {
    const e = eventFactory();
    const istioOnly = loop(41, 40, 0.25, e).filter((x) => x.component === "istio-cni");
    const untimed = Array.from({ length: 5 }, () => e({ t: null, component: "cilium", kind: "cni.config.written", message: ciliumWrote, severity: 1 }));
    const [f] = run({ ...BOOT, end: T0 + 120_000 }, sortEvents([...istioOnly, ...untimed]), defaults);
    expect(f.metrics).toMatchObject({ writes: 21, writers: ["istio-cni"], writesPerS: 2, durationS: 10, untimedWrites: { cilium: 5 } });
    expect(f.explanation).toContain("Records without a time also write this file (Cilium 5)");
    expect(f.explanation).toContain("Cilium is the primary CNI");
  });
});
