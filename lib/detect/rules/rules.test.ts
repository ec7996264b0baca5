/**
 * The rule compiler and runner on hand-made events (lib/detect/test-support.ts): conditions
 * (count within a window, since T+0, after a milestone), the clearing pattern, lasting problems,
 * number bounds, one finding per rule and boot, the prefilter, isolation of a rule that throws,
 * and the files refused at load.
 */
import { describe, expect, it } from "vitest";
import { BOOT, eventFactory, sortEvents, T0 } from "../test-support";
import type { BootEvent } from "../types";
import { compileRuleSet, plainGroups, RuleSetError, ruleBook } from "./compile";
import { runRules } from "./run";

const SAMPLES = [
  { lines: "x", give: { matches: 1 } },
  { lines: "y", give: "none" },
];

/** A book of one rule with the given parts over kernel lines "oops <n>". */
function book(extra: Record<string, unknown> = {}, match: Record<string, unknown> = {}) {
  const rule = {
    name: "t",
    title: "trouble {what}",
    severity: "high",
    source: "test",
    match: { lanes: ["kernel"], text: "oops", pattern: "oops (?<what>\\w+)", ...match },
    explanation: "It went {what} ({matches:time}, {span}).",
    remedy: "Fix it.",
    samples: SAMPLES,
    ...extra,
  };
  return ruleBook(compileRuleSet({ set: "s", source: "test", rules: [rule] }, "s.yaml"));
}

function kernel(make: ReturnType<typeof eventFactory>, t: number | null, message: string, kind = "log"): BootEvent {
  return make({ t, lane: "kernel", component: "kernel", kind: kind as BootEvent["kind"], message, severity: 3 });
}

describe("rule runner", () => {
  it("gives one finding per boot however often the rule fires, with its count, values and evidence", () => {
    const make = eventFactory();
    const ev = [kernel(make, 10, "oops a"), kernel(make, 20, "nothing here"), kernel(make, 30, "oops b"), kernel(make, 40, "oops a")];
    const { findings, errors } = runRules(BOOT, ev, book());
    expect(errors).toEqual([]);
    expect(findings).toHaveLength(1);
    const f = findings[0];
    expect(f).toMatchObject({ detector: "rule:t", severity: "high", start: T0 + 10_000, end: T0 + 40_000, title: "trouble a, b", evidence: [1, 3, 4] });
    expect(f.metrics).toMatchObject({
      matches: 3,
      minCount: 1,
      withinS: null,
      firstAfterBootS: 10,
      lastAfterBootS: 40,
      matchedValues: ["what=a (2)", "what=b (1)"],
      ruleSet: "s",
    });
    expect(f.explanation).toBe(
      "It went a, b (3 times, from T+10.000 s to T+40.000 s). Rule t (rule set s) fires at 1 match: 3 matches from T+10.000 s to T+40.000 s. What to do: Fix it.",
    );
  });

  it("fires only when minCount matches lie within withinS, and counts only what the conditions let in", () => {
    const make = eventFactory();
    const spread = [0, 100, 200, 300].map((t) => kernel(make, t, "oops x"));
    expect(runRules(BOOT, spread, book({ when: { minCount: 3, withinS: 150 } })).findings).toEqual([]);
    const dense = [...spread, kernel(make, 320, "oops x")];
    const f = runRules(BOOT, dense, book({ when: { minCount: 3, withinS: 150 } })).findings[0];
    expect(f.metrics).toMatchObject({ matches: 5, peakMatches: 3, withinS: 150 });
    expect(f.explanation).toContain("fires at 3 matches within 150 s: 5 matches from T+0.000 s to T+320.000 s, 3 in the busiest 150 s.");
    // since T+0: matches after 150 s are left out
    expect(runRules(BOOT, dense, book({ when: { sinceBootS: 150 } })).findings[0].metrics.matches).toBe(2);
    // after a milestone: none without it, only those at or after it with it
    expect(runRules(BOOT, dense, book({ when: { afterMilestone: "kubelet.started" } })).findings).toEqual([]);
    const started = make({ t: 150, lane: "kubelet", component: "kubelet", kind: "kubelet.started", message: "Starting kubelet" });
    const g = runRules(BOOT, sortEvents([...dense, started]), book({ when: { afterMilestone: "kubelet.started" } })).findings[0];
    expect(g.metrics).toMatchObject({ matches: 3, afterMilestone: "kubelet.started", firstAfterBootS: 200 });
  });

  it("counts lines without a time only for rules with no time condition", () => {
    const make = eventFactory();
    const ev = [kernel(make, null, "oops x")];
    const f = runRules(BOOT, ev, book()).findings[0];
    expect(f).toMatchObject({ start: T0, end: T0, metrics: { matches: 1, firstAfterBootS: null } });
    expect(f.explanation).toContain("1 match without a time.");
    expect(runRules(BOOT, ev, book({ when: { sinceBootS: 600 } })).findings).toEqual([]);
  });

  it("ends at the clearing event after the last match, stays open without one, and lasts when told", () => {
    const make = eventFactory();
    const clear = { lanes: ["kernel"], text: "all good" };
    const ev = [kernel(make, 5, "all good"), kernel(make, 10, "oops x"), kernel(make, 50, "all good"), kernel(make, 60, "all good")];
    const f = runRules(BOOT, ev, book({ clear })).findings[0];
    expect(f).toMatchObject({ start: T0 + 10_000, end: T0 + 50_000, evidence: [2, 3], metrics: { clearedAfterBootS: 50 } });
    expect(f.explanation).toContain("; cleared at T+50.000 s.");
    const open = runRules(BOOT, ev.slice(0, 2), book({ clear })).findings[0];
    expect(open).toMatchObject({ end: null, metrics: { clearedAfterBootS: null } });
    expect(open.explanation).toContain("; not cleared by the end of the data.");
    expect(runRules(BOOT, ev.slice(1, 2), book({ lasting: true })).findings[0].end).toBeNull();
  });

  it("bounds captured numbers, and groups named x_1 give values of x", () => {
    const make = eventFactory();
    const ev = [kernel(make, 1, "step -0.2 s"), kernel(make, 2, "step 3.5 s"), kernel(make, 3, "jump by 9")];
    const b = book({}, { text: ["step", "jump"], pattern: "(?:step (?<what>-?[\\d.]+) s|jump by (?<what_1>\\d+))", numbers: { what: { absAtLeast: 1 } } });
    expect(runRules(BOOT, ev, b).findings[0].metrics).toMatchObject({ matches: 2, matchedValues: ["what=3.5 (1)", "what=9 (1)"] });
  });

  it("counts a line two files hold once, and matches kinds, components and event reasons", () => {
    const make = eventFactory();
    const a = kernel(make, 10, "oops x");
    const copy = { ...kernel(make, 10.5, "oops x"), fileId: 9 };
    expect(runRules(BOOT, sortEvents([a, copy]), book()).findings[0].metrics.matches).toBe(1);
    const ev = make({ t: 5, lane: "events", component: "k8s-events", kind: "k8s.event", message: "Back-off oops y" });
    ev.k8s = { reason: "BackOff", count: 1, firstMs: null, lastMs: null };
    const byReason = book({}, { lanes: ["events"], kinds: ["k8s.event"], reasons: ["BackOff"], components: ["K8s-Events"] });
    expect(runRules(BOOT, [ev], byReason).findings[0].metrics.matches).toBe(1);
    expect(runRules(BOOT, [ev], book({}, { lanes: ["events"], reasons: ["Failed"] })).findings).toEqual([]);
  });

  it("wants only the log lines of its lanes that its texts name", () => {
    const b = book();
    expect(b.wantsLog("kernel", "an oops here")).toBe(true);
    expect(b.wantsLog("kernel", "all quiet")).toBe(false);
    expect(b.wantsLog("kubelet", "an oops here")).toBe(false);
    expect([...b.logLanes]).toEqual(["kernel"]);
    // without kinds a rule reads the lines and Kubernetes events no classification rule names, not the failure lines
    expect(b.candidates("kernel", "k8s.event").rules).toEqual([0]);
    expect(b.candidates("kernel", "sandbox.create.failed").rules).toEqual([]);
    expect(b.wants({ lane: "kernel", kind: "sandbox.create.failed", message: "an oops here" })).toBe(false);
    // a milestone a rule names is wanted whatever its text
    const m = book({ when: { afterMilestone: "kubelet.started" } });
    expect(m.wants({ lane: "kubelet", kind: "kubelet.started", message: "Starting kubelet" })).toBe(true);
    // a match over other kinds only wants no log line
    expect([...book({ title: "started", explanation: "It started." }, { kinds: ["kubelet.started"], text: undefined, pattern: undefined }).logLanes]).toEqual(
      [],
    );
  });

  it("isolates a rule that throws: the others still give their findings", () => {
    const make = eventFactory();
    const good = book();
    const broken = {
      ...good.rules[0],
      detector: "rule:broken",
      spec: { ...good.rules[0].spec, name: "broken" },
      match: {
        ...good.rules[0].match,
        re: {
          exec: () => {
            throw new Error("boom");
          },
        } as unknown as RegExp,
      },
    };
    const out = runRules(BOOT, [kernel(make, 1, "oops x")], ruleBook([broken, good.rules[0]]));
    expect(out.errors).toEqual([{ detector: "rule:broken", message: "boom" }]);
    expect(out.findings.map((f) => f.detector)).toEqual(["rule:t"]);
  });
});

describe("rule compiler", () => {
  const fails = (extra: Record<string, unknown>, match: Record<string, unknown> = {}) => {
    try {
      book(extra, match);
    } catch (err) {
      expect(err).toBeInstanceOf(RuleSetError);
      return (err as Error).message;
    }
    return "compiled";
  };

  it("refuses patterns that do not compile, unknown placeholders, log matches without a text, unknown keys", () => {
    expect(fails({}, { pattern: "oops (" })).toMatch(/^s\.yaml rule t match: pattern does not compile/);
    expect(fails({ title: "trouble {who}" })).toBe("s.yaml rule t: title names {who}, which no group or count fills");
    expect(fails({}, { text: undefined, pattern: undefined })).toBe("s.yaml rule t match: a match that reads log lines needs a text or a pattern");
    expect(fails({}, { numbers: { size: { atLeast: 1 } } })).toBe('s.yaml rule t match: numbers names group "size", which the pattern does not capture');
    expect(fails({ severity: "urgent" })).toMatch(/^s\.yaml: rules\.0\.severity: /);
    expect(fails({ threshold: 3 })).toMatch(/^s\.yaml: rules\.0: Unrecognized key/);
    expect(fails({ samples: [SAMPLES[0]] })).toMatch(/^s\.yaml: rules\.0\.samples: /);
  });

  it("makes named groups plain for the joined prefilter and refuses back references", () => {
    expect(plainGroups("a (?<x>\\d+) [(?<]b (?<=c)(?<y>d)")).toBe("a (?:\\d+) [(?<]b (?<=c)(?:d)");
    expect(() => plainGroups("(?<x>a)\\k<x>")).toThrow(RuleSetError);
    expect(() => plainGroups("(a)\\1")).toThrow(RuleSetError);
  });
});
