import { describe, expect, it } from "vitest";
import { defaults, run } from "./conflist-rewrite-loop";
import { collectWrites } from "./conflist-writes";
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
      fields: r.fields ?? null,
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
  it("host paths: the container's /host mount prefix is dropped, for agents and watches alike", () => {
    const e = eventFactory();
    const events = sortEvents([
      e({ t: 1, component: "istio-cni", kind: "cni.config.written", message: istioCreated, severity: 1 }),
      e({ t: 2, component: "cni-calico", kind: "cni.config.written", message: "Created /host/etc/cni/net.d/10-calico.conflist", severity: 1 }),
      e({ t: 30, component: "inotifywait", kind: "cni.config.written", message: "/etc/cni/net.d/ MOVED_TO 05-cilium.conflist", severity: 1 }),
    ]);
    expect(collectWrites(events, defaults.pairMs, defaults.observeMs).map((w) => [w.writer, w.path])).toEqual([
      ["istio-cni", "/etc/cni/net.d/05-cilium.conflist"],
      ["calico", "/etc/cni/net.d/10-calico.conflist"],
      [null, "/etc/cni/net.d/05-cilium.conflist"],
    ]);
  });

  it("case 006: one istio-cni write prints two lines 9.8 ms apart and counts once, at the completion", () => {
    const events = caseEvents("006-cni-agent-tabs-rewrite-multiline-kubeconfig.log");
    expect(events.filter((e) => e.kind === "cni.config.written")).toHaveLength(2);
    const writes = collectWrites(events, defaults.pairMs, defaults.observeMs);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ path: "/etc/cni/net.d/05-cilium.conflist", writer: "istio-cni", ts: Date.parse("2024-09-17T13:04:21.305Z") });
  });

  it("cases 002 and 003: one timed istio-cni write, one Cilium write without a time", () => {
    const w002 = collectWrites(caseEvents("002-istio-cni-json-rewrite-loop.log"), defaults.pairMs, defaults.observeMs);
    expect(w002.map((w) => [w.writer, w.ts])).toEqual([["istio-cni", Date.parse("2024-02-03T23:50:37.091Z")]]);
    const w003 = collectWrites(caseEvents("003-cilium-agent-logfmt-regenerate-loop.log"), defaults.pairMs, defaults.observeMs);
    expect(w003.map((w) => [w.writer, w.ts, w.path])).toEqual([["cilium", null, "/etc/cni/net.d/05-cilium.conflist"]]);
  });

  it("an inotifywait observation within observeMs of an agent's write of the file is that write; elsewhere it is a write without a writer", () => {
    const e = eventFactory();
    const events = sortEvents([
      e({ t: 10.3, component: "cilium", kind: "cni.config.written", message: ciliumWrote, severity: 1 }),
      e({ t: 10, component: "inotifywait", kind: "cni.config.written", message: "/etc/cni/net.d/ MOVED_TO 05-cilium.conflist", severity: 1 }),
      e({ t: 40, component: "inotifywait", kind: "cni.config.written", message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist", severity: 1 }),
    ]);
    expect(collectWrites(events, defaults.pairMs, defaults.observeMs).map((w) => [w.writer, w.ts! - T0, w.events.length])).toEqual([
      ["cilium", 10_300, 2],
      [null, 40_000, 1],
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
    expect(f.metrics).toMatchObject({
      path: "/etc/cni/net.d/05-cilium.conflist",
      writes: 30,
      writers: [],
      unattributedWrites: 30,
      turns: 0,
      durationS: 9,
      writesPerS: 3.222,
    });
    expect(f.title).toContain("by an unknown writer (seen by inotifywait)");
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
      turns: 120,
      unattributedWrites: 0,
    });
    expect(f.explanation).toContain("Two agents overwrite each other: istio-cni (61 writes), Cilium (60 writes), with 120 turns");
    expect(f.start).toBe(T0 + 40_000);
    expect(f.end).toBe(T0 + 70_000);
    expect(f.severity).toBe("high");
    expect(f.explanation).toContain("cni-exclusive");
    expect(f.explanation).toContain("chained mode");
    expect(f.explanation).toContain("written 121 times in 30.000 s (4.000 writes/s, all writers together)");
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

/** Several real-format files through the real parser and classifier, as one boot's events (ids and file ids in file order). */
function filesEvents(files: Array<[string, string]>): BootEvent[] {
  const out: BootEvent[] = [];
  files.forEach(([path, text], fi) => {
    const pf = parseFile(path, text, { collectedMs: null, year: null });
    for (const r of pf.records) {
      const c = classifyRecord(r);
      out.push({
        id: out.length + 1,
        ts: r.ts,
        fileId: fi + 1,
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
        fields: c.kind.startsWith("cni.config.") ? (r.fields ?? null) : null,
      });
    }
  });
  return sortEvents(out);
}

const LOOP_START = Date.UTC(2025, 7, 13, 1, 36, 48);
const iso = (ms: number, digits = 6) => new Date(ms).toISOString().slice(0, 20) + String(ms % 1000).padStart(3, "0") + "0".repeat(digits - 3);
/** istio-cni (zap console, announce + completion 9 ms apart) at even turns, Cilium at odd turns, `spacingMs` apart; Cilium's lines by `cilium(ms)`. */
function agentsTakingTurns(n: number, spacingMs: number, cilium: (ms: number) => string): { istio: string; cilium: string; ciliumTimes: number[] } {
  const istio: string[] = [];
  const cl: string[] = [];
  const ciliumTimes: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = LOOP_START + i * spacingMs;
    if (i % 2 === 0) {
      istio.push(
        `${iso(t - 9)}Z\tinfo\tcni-agent\tconfiguration requires updates, (re)writing CNI config file at "${CONF}": istio-cni CNI config removed from CNI config file: ${CONF}`,
      );
      istio.push(`${iso(t)}Z\tinfo\tcni-agent\tcreated CNI config ${CONF}`);
    } else {
      cl.push(cilium(t));
      ciliumTimes.push(t);
    }
  }
  return { istio: `${istio.join("\n")}\n`, cilium: `${cl.join("\n")}\n`, ciliumTimes };
}
const bootAt = (ms: number) => ({ ...BOOT, start: ms - 60_000, end: ms + 600_000 });

describe("conflist-rewrite-loop: every agent's writes, with their writer", () => {
  const slog = (t: number) =>
    `time=${new Date(t).toISOString().replace("Z", "119502Z")} level=info source=/go/src/github.com/cilium/cilium/daemon/cmd/cni/config.go:355 msg="Wrote CNI configuration file" module=agent.infra.cni-config destination=${CONF}`;

  it("Cilium's slog lines (path in `destination`) and istio-cni's, interleaved: two writers, 100 writes, 99 turns, 4 writes/s together", () => {
    const a = agentsTakingTurns(100, 250, slog);
    const events = filesEvents([
      ["istio-cni.log", a.istio],
      ["cilium-agent.log", a.cilium],
    ]);
    const [f, ...rest] = run(bootAt(LOOP_START), events, defaults);
    expect(rest).toEqual([]);
    expect(f.metrics).toMatchObject({
      path: "/etc/cni/net.d/05-cilium.conflist",
      writes: 100,
      writers: ["istio-cni", "cilium"],
      writesByWriter: { "istio-cni": 50, cilium: 50 },
      turns: 99,
      unattributedWrites: 0,
      writesPerS: 4,
      durationS: 24.75,
      ordering: "time",
    });
    expect(f.explanation).toContain("Two agents overwrite each other: istio-cni (50 writes), Cilium (50 writes), with 99 turns");
    expect(f.title).toBe("/etc/cni/net.d/05-cilium.conflist rewritten 100 times in 24.750 s (4.000/s) by istio-cni and Cilium");
  });

  it("Cilium's logrus JSON lines count as its writes the same way", () => {
    const json = (t: number) => `{"level":"info","msg":"Wrote CNI configuration file to ${CONF}","subsys":"cni-config","time":"${new Date(t).toISOString()}"}`;
    const a = agentsTakingTurns(40, 500, (t) => `${new Date(t).toISOString()} stderr F ${json(t)}`);
    const events = filesEvents([
      ["istio-cni.log", a.istio],
      ["var/log/containers/cilium-x_kube-system_cilium-agent-0123.log", a.cilium],
    ]);
    expect(events.filter((e) => e.component === "cilium" && e.kind === "cni.config.written")).toHaveLength(20);
    const [f] = run(bootAt(LOOP_START), events, defaults);
    expect(f.metrics).toMatchObject({ writes: 40, writers: ["istio-cni", "cilium"], turns: 39, writesPerS: 2, durationS: 19.5 });
  });

  it("turns are changes of writer between consecutive writes: A, B, A is two turns; A, A, B, B one", () => {
    const e = eventFactory();
    const seq = (writers: string[]) =>
      sortEvents(
        writers.map((w, i) =>
          e({ t: 40 + i * 0.5, component: w, kind: "cni.config.written", message: w === "cilium" ? ciliumWrote : istioCreated, severity: 1 }),
        ),
      );
    const p = { ...defaults, minWrites: 3 };
    expect(run(BOOT, seq(["cilium", "istio-cni", "cilium"]), p)[0].metrics).toMatchObject({ writes: 3, turns: 2 });
    expect(run(BOOT, seq(["cilium", "cilium", "istio-cni", "istio-cni"]), p)[0].metrics).toMatchObject({ writes: 4, turns: 1 });
  });

  it("istio-cni's log and an inotifywait watch of every write: the writes no log explains count in the rate, not as a writer", () => {
    const a = agentsTakingTurns(60, 250, () => "unused");
    const watch: string[] = [];
    for (let i = 0; i < 60; i++) {
      const t = LOOP_START + i * 250;
      watch.push(`${new Date(t - (t % 1000)).toISOString().slice(0, 19)}+0000 /host/etc/cni/net.d/ MOVED_TO 05-cilium.conflist`);
    }
    const events = filesEvents([
      ["istio-cni.log", a.istio],
      ["inotify-net.d.log", `${watch.join("\n")}\n`],
    ]);
    const [f, ...rest] = run(bootAt(LOOP_START), events, defaults);
    expect(rest).toEqual([]);
    expect(f.metrics).toMatchObject({ writes: 60, writers: ["istio-cni"], writesByWriter: { "istio-cni": 30 }, unattributedWrites: 30, turns: 0 });
    expect(f.explanation).toContain("30 writes were seen by a file watch (inotifywait) that no agent's log explains");
  });

  it("a watch reporting only MODIFY (`-e modify`): each MODIFY is a write", () => {
    const lines = Array.from(
      { length: 12 },
      (_, i) => `${new Date(LOOP_START + i * 1000).toISOString().slice(0, 19)}+0000 /etc/cni/net.d/ MODIFY 05-cilium.conflist`,
    );
    const [f] = run(bootAt(LOOP_START), filesEvents([["inotify.log", `${lines.join("\n")}\n`]]), defaults);
    expect(f.metrics).toMatchObject({
      path: "/etc/cni/net.d/05-cilium.conflist",
      writes: 12,
      writers: [],
      unattributedWrites: 12,
      durationS: 11,
      writesPerS: 1,
    });
  });

  it("without times (Cilium's default logfmt, case 003's shape): counted in line order, no rate, and it says so", () => {
    const lines: string[] = [];
    for (let i = 0; i < 12; i++)
      lines.push(
        'level=info msg="Activity in /host/etc/cni/net.d/, re-generating CNI configuration" subsys=cni-config',
        'level=info msg="Generating CNI configuration file with mode none" subsys=cni-config',
        `level=info msg="Wrote CNI configuration file to ${CONF}" subsys=cni-config`,
      );
    const events = filesEvents([["cilium-agent.log", `${lines.join("\n")}\n`]]);
    const [f, ...rest] = run({ ...BOOT, end: T0 + 120_000 }, events, defaults);
    expect(rest).toEqual([]);
    expect(f.metrics).toMatchObject({
      writes: 12,
      writers: ["cilium"],
      writesByWriter: { cilium: 12 },
      turns: 0,
      writesPerS: null,
      durationS: null,
      ordering: "line",
    });
    expect(f.explanation).toContain("counted in line order, so no rate or duration can be given");
    expect([f.start, f.end]).toEqual([T0, T0 + 120_000]);
    // case 003 itself: one write among three renders, no loop
    expect(run(BOOT, caseEvents("003-cilium-agent-logfmt-regenerate-loop.log"), defaults)).toEqual([]);
  });
});
