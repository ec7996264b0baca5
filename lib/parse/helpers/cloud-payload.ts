/**
 * The log line inside a cloud log export entry (Google Cloud Logging, AWS CloudWatch Logs): shared
 * by gcp-logging.ts, gcp-logging-text.ts and cloudwatch.ts. The export wraps each line in an entry with the
 * collector's own time, severity and resource labels; the line itself is read like a journal
 * MESSAGE (component.ts: klog, logrus, zap, Calico, istio, …), and the component's own stamp and
 * level win over the entry's.
 *
 * A payload is text or a JSON object:
 * - text: a journal `short` / `short-iso` or syslog line (`May 14 08:11:33 <host> kubelet[3102]: …`,
 *   what an agent tailing /var/log/messages ships): its envelope is read (host, identifier, pid) and
 *   its message as below; the line's host wins over the entry's;
 * - text: a component line (else the text as is, at the entry's time and severity);
 * - an object carrying a line of another program: `MESSAGE` with journal fields (fluent-bit's
 *   systemd input on GKE / Container Insights: `_HOSTNAME`, `SYSLOG_IDENTIFIER`, `_SYSTEMD_UNIT`,
 *   `_PID`, `PRIORITY`; Container Insights' dataplane filter keeps three, renamed: `hostname`,
 *   `systemd_unit`, `message`, amazon-cloudwatch-agent's `fluent-bit.yaml`), `log` with fluent-bit's `kubernetes` block (`host`, `container_name`);
 * - a Kubernetes Event object (GKE `events` log): the k8s-events record (k8s-events-json.ts);
 * - a structured line of the program itself (zap, logrus JSON, klog JSON, istio, slog): `msg` /
 *   `message`, `level` / `severity` (the program's own), `ts` (ISO text, epoch seconds, or epoch
 *   milliseconds for klog JSON) / `time` / `timestamp`; every other key becomes a field.
 *
 * Times: the payload's own stamp when it has one (a year-less klog stamp is completed from the
 * entry's instant), else the entry's (`epochMs`).
 */
import { componentFor, envelopeRecordOf, parseComponentMessage } from "./component";
import { instantRecord, severityOfPriority } from "./journal-fields";
import { parseJournalShortLine } from "../journal-short";
import { parseJournalIsoLine } from "../journal-short-iso";
import { eventRecord } from "../k8s-events-json";
import { LOGRUS_LEVELS } from "./logfmt";
import { completeFromInstant, monthFromAbbrev, parseIsoStamp, precisionOfDigits, utcWallTime, utcYearOf } from "./time-util";
import type { ParsedRecord, Precision, Severity, WallTime } from "../types";

/** What the export entry says around its payload. */
export interface EntryEnvelope {
  /** the entry's time, UTC ms; null when it has none */
  utcMs: number | null;
  precision: Precision;
  host?: string;
  /** identifier of the writer the entry names (container name, log name, unit) */
  ident?: string;
  /** the collector's severity label (used only when the payload has no level of its own) */
  severity?: Severity;
  /** entry-level fields to keep (log name, resource labels, the collector's severity) */
  fields?: Record<string, string>;
}

type Json = Record<string, unknown>;

const MESSAGE_KEYS = ["msg", "message", "Message", "MESSAGE"];
const LEVEL_KEYS = ["level", "lvl", "severity", "Level"];
const TIME_KEYS = ["ts", "time", "timestamp", "@timestamp", "Timestamp"];

/** Level words of the programs (lowercased), including Cloud Logging's severity names. */
const LEVEL_WORDS: Readonly<Record<string, Severity>> = {
  ...LOGRUS_LEVELS,
  trace: 0,
  debug: 0,
  default: 1,
  informational: 1,
  notice: 1,
  critical: 4,
  alert: 4,
  emergency: 4,
  crit: 4,
  err: 3,
  eror: 3,
  erro: 3,
  fata: 4,
};

/** A level word (any case) → severity; undefined when unknown. */
export function severityOfWord(v: unknown): Severity | undefined {
  if (typeof v !== "string") return undefined;
  return LEVEL_WORDS[v.toLowerCase()];
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
}

function text(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** A payload's own stamp: ISO text, or epoch seconds / ms (klog JSON) as a number. */
function payloadStamp(v: unknown): WallTime | null {
  if (typeof v === "string") {
    if (/^\d{9,13}(?:\.\d+)?$/.test(v)) return payloadStamp(Number(v));
    return parseIsoStamp(v);
  }
  if (typeof v === "number" && Number.isFinite(v) && v > 1e8) {
    const ms = v > 1e11 ? v : v * 1000;
    const frac = String(v).split(".")[1] ?? "";
    const digits = v > 1e11 ? frac.length + 3 : frac.length;
    return utcWallTime(ms, precisionOfDigits(Math.min(9, digits)));
  }
  return null;
}

/**
 * The record of a journal short / short-iso (or syslog) line carried as a payload, null when `msg`
 * is none. A year- or zone-less stamp is completed from the entry's instant (the closest year, the
 * offset their difference shows), else given the entry's year.
 */
function journalLinePayload(msg: string, env: EntryEnvelope): ParsedRecord | null {
  const c0 = msg.charCodeAt(0);
  let res = null;
  if (c0 >= 65 && c0 <= 90) {
    if (monthFromAbbrev(msg, 0) === 0) return null;
    res = parseJournalShortLine(msg);
  } else if (c0 >= 48 && c0 <= 57 && msg.charCodeAt(10) === 84) res = parseJournalIsoLine(msg);
  if (res === null || res.type !== "record" || res.record.host === undefined) return null;
  const rec = res.record;
  const t = rec.time;
  if (t && env.utcMs !== null && (t.year === null || t.offsetMin === null)) {
    rec.time = completeFromInstant(t, env.utcMs) ?? { ...t, year: t.year ?? utcYearOf(env.utcMs) };
  }
  if (!rec.time && env.utcMs !== null) {
    rec.epochMs = Math.floor(env.utcMs);
    rec.epochPrecision = env.precision;
  }
  addFields(rec, env.fields);
  return rec;
}

/** Record of a text payload (a log line), placed at the entry when it has no stamp of its own. */
export function textPayloadRecord(line: string, env: EntryEnvelope, pid?: number): ParsedRecord {
  const msg = line.endsWith("\n") ? line.replace(/\r?\n$/, "") : line;
  if (pid === undefined) {
    const j = journalLinePayload(msg, env);
    if (j) return j;
  }
  if (env.utcMs === null) {
    const parsed = parseComponentMessage(msg);
    const r = envelopeRecordOf({ time: null, host: env.host, ident: env.ident, pid, severity: env.severity }, msg, parsed);
    if (env.host === undefined) delete r.host;
    if (env.ident === undefined) delete r.ident;
    if (pid === undefined) delete r.pid;
    if (parsed === null) r.component = componentFor(env.ident, null);
    addFields(r, env.fields);
    return r;
  }
  const rec = instantRecord({ utcMs: env.utcMs ?? 0, precision: env.precision, host: env.host, ident: env.ident, pid, severity: env.severity }, msg);
  addFields(rec, env.fields);
  return rec;
}

function addFields(rec: ParsedRecord, extra: Record<string, string> | undefined): void {
  if (!extra) return;
  let any = false;
  for (const _k in extra) {
    any = true;
    break;
  }
  if (!any) return;
  const f: Record<string, string> = {};
  if (rec.fields) for (const k of Object.keys(rec.fields)) f[k] = rec.fields[k];
  for (const k of Object.keys(extra)) if (f[k] === undefined) f[k] = extra[k];
  rec.fields = f;
}

/** Component for a structured payload that names none through the entry. */
function structuredComponent(obj: Json, env: EntryEnvelope): string {
  if (env.ident) return componentFor(env.ident, null);
  const logger = str(obj.logger);
  // the istio operator's controller: `logger: controller`, `component: <istio component>`, an istio-system trigger
  if (logger === "controller" && typeof obj.component === "string" && /(^|[\s/"])istio/.test(JSON.stringify(obj))) return "istio-operator";
  if (typeof obj.scope === "string" && obj.time !== undefined) return "istio-cni";
  if (typeof obj.subsys === "string") return "cilium";
  if (typeof obj.caller === "string" && /^(?:ipamd|routed-eni-cni-plugin|aws-k8s-agent|awsutils|eniconfig|networkutils)\//.test(obj.caller))
    return "aws-vpc-cni";
  return logger ?? "unknown";
}

/** Record of an object payload (see the module comment). */
export function objectPayloadRecord(obj: Json, env: EntryEnvelope): ParsedRecord {
  // a line of another program, carried with its own envelope fields (Container Insights renames
  // three of them: `hostname`, `systemd_unit`, `message`)
  const renamed = typeof obj.MESSAGE !== "string" && typeof obj.message === "string" && typeof obj.systemd_unit === "string";
  if (typeof obj.MESSAGE === "string" || renamed) {
    const pidText = str(obj._PID) ?? str(obj.SYSLOG_PID);
    const unit = str(obj._SYSTEMD_UNIT) ?? str(obj.systemd_unit);
    const inner: EntryEnvelope = {
      utcMs: env.utcMs,
      precision: env.precision,
      host: str(obj._HOSTNAME) ?? str(obj.hostname) ?? env.host,
      ident: str(obj.SYSLOG_IDENTIFIER) ?? str(obj._COMM) ?? (unit ? unit.replace(/\.service$/, "") : undefined) ?? env.ident,
      severity: severityOfPriority(str(obj.PRIORITY)) ?? env.severity,
      fields: unit ? Object.assign({ unit }, env.fields) : env.fields,
    };
    const rt = str(obj.__REALTIME_TIMESTAMP) ?? str(obj._SOURCE_REALTIME_TIMESTAMP);
    if (rt && /^\d{13,19}$/.test(rt)) {
      inner.utcMs = Number(rt) / 1000;
      inner.precision = "us";
    }
    const text = (renamed ? obj.message : obj.MESSAGE) as string;
    return textPayloadRecord(text, inner, pidText && /^\d+$/.test(pidText) ? Number(pidText) : undefined);
  }
  if (typeof obj.log === "string") {
    const k8s = (obj.kubernetes && typeof obj.kubernetes === "object" ? obj.kubernetes : {}) as Json;
    const extra: Record<string, string> = {};
    if (typeof obj.stream === "string") extra.stream = obj.stream;
    const ns = str(k8s.namespace_name);
    const pod = str(k8s.pod_name);
    if (ns && pod) extra.pod = `${ns}/${pod}`;
    return textPayloadRecord(obj.log, {
      utcMs: env.utcMs,
      precision: env.precision,
      host: str(k8s.host) ?? str(obj.hostname) ?? env.host,
      ident: str(k8s.container_name) ?? env.ident,
      severity: env.severity,
      fields: Object.assign(extra, env.fields),
    });
  }
  if (obj.involvedObject !== undefined || obj.regarding !== undefined) {
    const ev = eventRecord(obj);
    if (ev) {
      addFields(ev, env.fields);
      return ev;
    }
  }
  // a structured line of the program itself
  let message = "";
  let msgKey = "";
  for (const k of MESSAGE_KEYS) {
    if (typeof obj[k] === "string") {
      message = obj[k] as string;
      msgKey = k;
      break;
    }
  }
  let severity: Severity | undefined;
  let levelKey = "";
  for (const k of LEVEL_KEYS) {
    const s = severityOfWord(obj[k]);
    if (s !== undefined) {
      severity = s;
      levelKey = k;
      break;
    }
  }
  if (severity === undefined && obj.ts !== undefined && (obj.v !== undefined || obj.err !== undefined)) severity = obj.err !== undefined ? 3 : 1; // klog JSON
  let time: WallTime | null = null;
  let timeKey = "";
  for (const k of TIME_KEYS) {
    if (obj[k] === undefined) continue;
    time = payloadStamp(obj[k]);
    if (time) {
      timeKey = k;
      break;
    }
  }
  const rec: ParsedRecord = { time, component: structuredComponent(obj, env), severity: severity ?? env.severity ?? 1, message };
  if (!time && env.utcMs !== null) {
    rec.epochMs = Math.floor(env.utcMs);
    rec.epochPrecision = env.precision;
  }
  if (env.host !== undefined) rec.host = env.host;
  if (env.ident !== undefined) rec.ident = env.ident;
  const fields: Record<string, string> = {};
  for (const k of Object.keys(obj)) {
    if (k === msgKey || k === levelKey || k === timeKey) continue;
    fields[k] = text(obj[k]);
  }
  rec.fields = fields;
  addFields(rec, env.fields);
  return rec;
}

/** Record of a payload of either kind (text is tried as a JSON object when it looks like one). */
export function payloadRecord(payload: unknown, env: EntryEnvelope): ParsedRecord {
  if (typeof payload === "string") {
    const t = payload.trim();
    if (t.charCodeAt(0) === 123 && t.charCodeAt(t.length - 1) === 125) {
      const asLine = textPayloadRecord(payload, env);
      if (asLine.message !== payload.replace(/\r?\n$/, "")) return asLine; // a component JSON format read it
      try {
        const obj = JSON.parse(t) as unknown;
        if (obj && typeof obj === "object" && !Array.isArray(obj)) return objectPayloadRecord(obj as Json, env);
      } catch {
        // plain text
      }
      return asLine;
    }
    return textPayloadRecord(payload, env);
  }
  if (payload && typeof payload === "object" && !Array.isArray(payload)) return objectPayloadRecord(payload as Json, env);
  const rec: ParsedRecord = {
    time: null,
    component: env.ident ? componentFor(env.ident, null) : "unknown",
    severity: env.severity ?? 1,
    message: payload === undefined ? "" : text(payload),
  };
  if (env.utcMs !== null) {
    rec.epochMs = Math.floor(env.utcMs);
    rec.epochPrecision = env.precision;
  }
  if (env.host !== undefined) rec.host = env.host;
  addFields(rec, env.fields);
  return rec;
}
