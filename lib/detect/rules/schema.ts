/**
 * The shape of a rule-set file (`rules/*.yaml`, docs/detectors.md "Rules"): a node cause written
 * as data, checked by zod when the file loads. A rule set is one file: its `set` name, the
 * `source` its patterns and thresholds come from, and its `rules`. Pure: plain values in, the
 * checked value (or zod's issues) out; reading the files is lib/ingest/rule-files.ts.
 */
import { z } from "zod";
import { EVENT_KIND_NAMES } from "../../model/event-kinds";
import { LANES } from "../../model/lanes";

const SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const oneOrMore = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** A bound on a number the pattern captured (a clock step's seconds). */
export const ZNumberBound = z.strictObject({
  /** the captured value is at least this */
  atLeast: z.number().finite().optional(),
  /** the captured value's magnitude is at least this (a step either way) */
  absAtLeast: z.number().finite().optional(),
});

/**
 * Which events a rule counts (or, under `clear`, which end the problem). Every key given must
 * hold; `text` and `pattern` are read on the event's message.
 */
export const ZRuleMatch = z.strictObject({
  /** timeline lanes (lib/detect/types.ts `Lane`) */
  lanes: z.array(z.enum(LANES)).min(1).optional(),
  /**
   * event kinds; unset: `log` and `k8s.event` (the lines and Kubernetes events no classification
   * rule names), so the classified failure lines the coded detectors read are not tested;
   * `kubelet.started`, `sandbox.create.failed`, ... when a rule reads those
   */
  kinds: z.array(z.enum(EVENT_KIND_NAMES)).min(1).optional(),
  /** components, lower case (`kernel`, `systemd`, `chronyd`, `kubelet`, ...) */
  components: z.array(z.string().min(1)).min(1).optional(),
  /** Kubernetes event reasons (`BackOff`, `Failed`, ...) */
  reasons: z.array(z.string().min(1)).min(1).optional(),
  /** literal texts, one of which the message holds: the cheap test run before `pattern` */
  text: oneOrMore.optional(),
  /** a JavaScript regular expression over the message; named groups are the matched values */
  pattern: z.string().min(1).optional(),
  /** `text` and `pattern` ignore case */
  ignoreCase: z.boolean().optional(),
  /** bounds on numbers captured by named groups (group name → bound) */
  numbers: z.record(z.string(), ZNumberBound).optional(),
});

/** When the matches make a finding. */
export const ZRuleWhen = z.strictObject({
  /** matches that make a finding (1: every match is one) */
  minCount: z.number().int().min(1).default(1),
  /** ... within this long, s (a sliding window); unset: anywhere in the boot */
  withinS: z.number().positive().optional(),
  /** only matches within this long after T+0, s */
  sinceBootS: z.number().positive().optional(),
  /** only matches at or after the boot's first event of this kind (`kubelet.started`, `runtime.started`, ...) */
  afterMilestone: z.enum(EVENT_KIND_NAMES).optional(),
});

/** What a sample's lines must give: `none`, or the rule's one finding. */
export const ZSampleFinding = z.strictObject({
  /** the finding's match count */
  matches: z.number().int().min(1),
  /** values of named groups the matches must show (group → values, in order of appearance) */
  values: z.record(z.string(), z.array(z.string())).optional(),
  /** true: the clearing pattern ended it; false: still open at the end of the data */
  cleared: z.boolean().optional(),
});

/** Lines in a real log format and what the rule must make of them. */
export const ZRuleSample = z.strictObject({
  /** the lines, as a file holds them */
  lines: z.string().min(1),
  /** the file's path (formats are sniffed by content; the path only names a kind) */
  path: z.string().min(1).optional(),
  give: z.union([z.literal("none"), ZSampleFinding]),
});

/** One rule. Its findings are stored with detector `rule:<name>`. */
export const ZRule = z.strictObject({
  /** a slug, unique across every rule set */
  name: z.string().regex(SLUG),
  /** the finding's title; `{group}` placeholders take the matched values */
  title: z.string().min(1),
  severity: z.enum(SEVERITIES),
  /** where the pattern and the threshold come from (upstream rule, kernel source, manual) */
  source: z.string().min(1),
  match: ZRuleMatch,
  when: ZRuleWhen.default({ minCount: 1 }),
  /** events that end the problem (a later match opens it again) */
  clear: ZRuleMatch.optional(),
  /** a problem that lasts until cleared: with no clearing event, the finding stays open (`end` null) */
  lasting: z.boolean().default(false),
  /**
   * what happened, in words, with `{group}`, `{matches}` (`{matches:kill}`: "2 kills"),
   * `{first}`, `{last}`, `{span}` ("at T+…" or "from T+… to T+…"), `{peak}`, `{withinS}` placeholders
   */
  explanation: z.string().min(1),
  /** what a reviewer does about it */
  remedy: z.string().min(1),
  samples: z.array(ZRuleSample).min(2),
});

/** One rule-set file. */
export const ZRuleSet = z.strictObject({
  /** the set's name: the file's name without `.yaml` */
  set: z.string().regex(SLUG),
  /** what the set covers and where its rules come from */
  source: z.string().min(1),
  rules: z.array(ZRule).min(1),
});

export type RuleMatchSpec = z.infer<typeof ZRuleMatch>;
export type RuleSpec = z.infer<typeof ZRule>;
export type RuleSetSpec = z.infer<typeof ZRuleSet>;
export type RuleSample = z.infer<typeof ZRuleSample>;
