/**
 * Journal entries whose envelope carries an exact instant: `-o json`, `-o
 * export` (`__REALTIME_TIMESTAMP`, µs since the epoch) and `-o short-unix` (epoch seconds with µs).
 *
 * The MESSAGE goes through the component parsers (component.ts) as for the text envelopes. When
 * the component prints its own stamp without year or zone (klog: the process's local time), the
 * instant completes it: the closest year, and the zone offset the two stamps' difference shows
 * (time-util.ts `completeFromInstant`), so a kubelet on a non-UTC node still lands at the right
 * instant. Without a component stamp the record's time is the instant (`epochMs`, precision µs).
 */
import { componentFor, envelopeRecordOf, parseComponentMessage } from "./component";
import { completeFromInstant } from "./time-util";
import type { ParsedRecord, Precision, Severity } from "../types";

/** Envelope fields of an entry with an exact instant. */
export interface InstantEnvelope {
  /** UTC ms (may carry a fraction: µs/1000) */
  utcMs: number;
  precision: Precision;
  host?: string;
  ident?: string;
  pid?: number;
  severity?: Severity;
  bootId?: string;
}

/** The record of one entry (see the module comment). */
export function instantRecord(env: InstantEnvelope, msg: string): ParsedRecord {
  const parsed = parseComponentMessage(msg);
  const rec = envelopeRecordOf({ time: null, host: env.host, ident: env.ident, pid: env.pid, severity: env.severity }, msg, parsed);
  if (env.host === undefined) delete rec.host;
  if (env.ident === undefined) delete rec.ident;
  if (env.pid === undefined) delete rec.pid;
  if (rec.time && (rec.time.year === null || rec.time.offsetMin === null)) {
    rec.time = completeFromInstant(rec.time, env.utcMs);
  }
  if (!rec.time) {
    rec.epochMs = Math.floor(env.utcMs);
    rec.epochPrecision = env.precision;
  }
  if (env.bootId) rec.bootId = env.bootId;
  if (parsed === null) rec.component = componentFor(env.ident, null);
  return rec;
}

/** syslog PRIORITY (0 emerg … 7 debug) → severity. */
export function severityOfPriority(p: string | undefined): Severity | undefined {
  if (p === undefined || !/^[0-7]$/.test(p)) return undefined;
  const n = Number(p);
  return n <= 2 ? 4 : n === 3 ? 3 : n === 4 ? 2 : n <= 6 ? 1 : 0;
}

/** Decode a journal field value: a string, or an array of byte values (non-UTF-8 MESSAGE in `-o json`). */
export function fieldText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) {
    if (v.every((b) => typeof b === "number")) return Buffer.from(v as number[]).toString("utf8");
    const first = v.find((x) => typeof x === "string");
    return typeof first === "string" ? first : undefined; // a repeated field: its first value
  }
  return undefined;
}

/**
 * The record of one journal entry given as its field map (json, export): `__REALTIME_TIMESTAMP`
 * (µs), `_HOSTNAME`, `SYSLOG_IDENTIFIER` (else `_COMM`), `_PID` (else `SYSLOG_PID`), `PRIORITY`,
 * `_BOOT_ID`, `MESSAGE`. Null without a usable `__REALTIME_TIMESTAMP`. `fields` keeps `unit`
 * (`_SYSTEMD_UNIT`) and the monotonic time (`uptime`, seconds, from `__MONOTONIC_TIMESTAMP`).
 */
export function journalEntryRecord(f: Record<string, unknown>): ParsedRecord | null {
  const rt = fieldText(f.__REALTIME_TIMESTAMP);
  if (!rt || !/^\d{1,19}$/.test(rt)) return null;
  const us = Number(rt);
  const pidText = fieldText(f._PID) ?? fieldText(f.SYSLOG_PID);
  const boot = fieldText(f._BOOT_ID);
  const env: InstantEnvelope = {
    utcMs: us / 1000,
    precision: "us",
    host: fieldText(f._HOSTNAME),
    ident: fieldText(f.SYSLOG_IDENTIFIER) ?? fieldText(f._COMM),
    pid: pidText && /^\d+$/.test(pidText) ? Number(pidText) : undefined,
    severity: severityOfPriority(fieldText(f.PRIORITY)),
    bootId: boot && /^[0-9a-f]{32}$/.test(boot) ? boot : undefined,
  };
  const rec = instantRecord(env, fieldText(f.MESSAGE) ?? "");
  const unit = fieldText(f._SYSTEMD_UNIT);
  const mono = fieldText(f.__MONOTONIC_TIMESTAMP);
  if (unit || mono) {
    rec.fields = { ...(rec.fields ?? {}) };
    if (unit) rec.fields.unit = unit;
    if (mono && /^\d+$/.test(mono)) rec.fields.uptime = (Number(mono) / 1e6).toFixed(6);
  }
  return rec;
}
