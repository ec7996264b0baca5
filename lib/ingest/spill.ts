/**
 * The on-disk form of analysed events between a file's parse and its node's store step
 * (ingest-nodes.ts), for events a thread cannot keep in memory: the parse writes a file's events
 * for one node, one line each; the node's step reads its lines back to find its boots and
 * formats its rows.
 *
 * One line per event (LF-terminated, UTF-8):
 *
 *   <head: JSON array>\t<tail: COPY text>
 *
 * - head: what the node's step still computes with (time, boot inputs, error class, fields) and, for
 *   events the detectors read (kind other than `log`, and the `log` lines a rule may take:
 *   rule-files.ts `detectorWants`), what they read;
 * - tail: the `Event` columns that no later step changes, already escaped for PostgreSQL's COPY
 *   text format (`TAIL_COLUMNS`), pasted into the row as is.
 *
 * JSON escapes every tab inside strings, so the first tab of the line ends the head.
 */
import { copyText } from "../db/sql";
import type { EventKind, Lane } from "../detect/types";
import type { AnalysedEvent } from "../model/event";
import { detectorWants } from "./rule-files";

/** `Event` columns of the tail, in order. */
export const TAIL_COLUMNS = ["line", "span", "precision", "flags", "component", "lane", "severity", "kind", "pod", "sandboxId", "message"];

type Head = [
  ts: number | null,
  kind: EventKind,
  lane: Lane,
  severity: number,
  line: number,
  journalBootId: string | null,
  bootSegment: number,
  sandboxId: string | null,
  errorClass: string | null,
  rebootBootId: string | null,
  bootDecl: AnalysedEvent["bootDecl"] | null,
  fields: Record<string, unknown> | null,
  // signal events only:
  component?: string,
  pod?: string | null,
  message?: string,
  precision?: string,
];

/** One event as a spill line (with its LF). */
export function encodeEvent(e: AnalysedEvent): string {
  const head: Head = [
    e.ts,
    e.kind,
    e.lane,
    e.severity,
    e.line,
    e.journalBootId,
    e.bootSegment,
    e.sandboxId,
    e.errorClass,
    e.rebootBootId,
    e.bootDecl ?? null,
    e.fields,
  ];
  if (detectorWants(e)) head.push(e.component, e.pod, e.message, e.precision);
  return `${JSON.stringify(head)}\t${copyTail(e)}\n`;
}

/** The COPY text of an event's `TAIL_COLUMNS` (no line end). */
export function copyTail(e: AnalysedEvent): string {
  return (
    `${e.line}\t${e.span}\t${e.precision}\t${e.flags}\t${copyText(e.component)}\t${e.lane}\t${e.severity}\t${e.kind}\t` +
    `${copyText(e.pod)}\t${copyText(e.sandboxId)}\t${copyText(e.message)}`
  );
}

/**
 * A spill line back as an event (`fileIdx` and `node` given by the caller) and its COPY tail.
 * Events of kind `log` no rule wants come back without `component`, `pod`, `message` and
 * `precision` (empty strings / null): only the tail carries them.
 */
export function decodeEvent(line: string, fileIdx: number, node: string | null): { e: AnalysedEvent; tail: string } {
  const tab = line.indexOf("\t");
  const h = JSON.parse(line.slice(0, tab)) as Head;
  const signal = h.length > 12;
  const e: AnalysedEvent = {
    fileIdx,
    line: h[4],
    span: 1,
    ts: h[0],
    precision: signal ? h[15]! : "",
    flags: 0,
    component: signal ? h[12]! : "",
    lane: h[2],
    severity: h[3],
    kind: h[1],
    pod: signal ? (h[13] ?? null) : null,
    sandboxId: h[7],
    errorClass: h[8],
    message: signal ? h[14]! : "",
    fields: h[11],
    node,
    boot: null,
    journalBootId: h[5],
    bootSegment: h[6],
    rebootBootId: h[9],
  };
  if (h[10]) e.bootDecl = h[10];
  return { e, tail: line.slice(tab + 1) };
}

/**
 * An event read back from a spill with only what a node's boots and error classes are found
 * from (lib/ingest/node-boots.ts `analyseNode`: time, kind, boot inputs, line, sandbox, error
 * class, and `fields.k8s` for a repeated Kubernetes event's first time), in place: message,
 * component, pod and the other fields go (the spill line still has them). Returns `e`.
 */
export function lightEvent(e: AnalysedEvent): AnalysedEvent {
  const k8s = e.fields?.k8s;
  e.fields = k8s ? { k8s } : null;
  e.message = "";
  e.component = "";
  e.pod = null;
  e.precision = "";
  return e;
}
