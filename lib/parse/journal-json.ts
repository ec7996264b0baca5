/**
 * `journalctl -o json` (one object per line), `-o json-seq` (RS-prefixed) and `-o json-sse`
 * (`data: ` before each object, a blank line after); upstream
 * systemd `src/shared/logs-show.c` (`output_json`). `-o json-pretty`: journal-json-pretty.ts.
 *
 *     {"__CURSOR":"s=…","__REALTIME_TIMESTAMP":"1747628407512401","__MONOTONIC_TIMESTAMP":"11803512","_BOOT_ID":"6c0f2ea1…","PRIORITY":"6","SYSLOG_IDENTIFIER":"kubelet","_PID":"2817","_HOSTNAME":"ip-10-20-30-40.ec2.internal","MESSAGE":"I0519 …"}
 *
 * Every value is a string (µs epoch too); a non-UTF-8 MESSAGE is an array of byte values; a
 * repeated field is an array. The record (journal-fields.ts) carries `_BOOT_ID` as its boot id: no
 * separators are printed in this mode. Lines that are not a JSON object with
 * `__REALTIME_TIMESTAMP` are refused.
 */
import { journalEntryRecord } from "./helpers/journal-fields";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec, LineResult } from "./types";

/** Parse one `-o json` line; null when not one. */
export function parseJournalJsonLine(line: string): LineResult {
  let s = line;
  if (s.charCodeAt(0) === 0x1e)
    s = s.slice(1); // json-seq record separator
  else if (s.startsWith("data: ")) s = s.slice(6); // json-sse event
  if (s.charCodeAt(0) !== 123 || !s.includes('"__REALTIME_TIMESTAMP"')) return null;
  let obj: unknown;
  try {
    obj = JSON.parse(s);
  } catch {
    return null;
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return null;
  const rec = journalEntryRecord(obj as Record<string, unknown>);
  return rec ? { type: "record", record: rec } : null;
}

const SNIFF = /^(?:\u001e|data: )?\{.*"__REALTIME_TIMESTAMP"\s*:\s*"\d+"/;

/** Format spec: `journalctl -o json` / `json-seq` / `json-sse` dumps. */
export const journalJsonSpec: FormatSpec = {
  name: "journal-json",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return { parseLine: parseJournalJsonLine };
  },
  samples: [
    {
      line: '{"__CURSOR":"s=0a1b;i=1","__REALTIME_TIMESTAMP":"1747628407512401","__MONOTONIC_TIMESTAMP":"11803512","_BOOT_ID":"6c0f2ea14b7d4e1a9c3358b0f2d7e611","PRIORITY":"6","SYSLOG_IDENTIFIER":"kubelet","_PID":"2817","_HOSTNAME":"ip-10-20-30-40.ec2.internal","_SYSTEMD_UNIT":"kubelet.service","MESSAGE":"I0519 04:20:07.512344    2817 kubelet.go:2321] \\"Starting kubelet main sync loop\\""}',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "us" },
        host: "ip-10-20-30-40.ec2.internal",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        severity: 1,
        message: "Starting kubelet main sync loop",
        bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611",
        fields: { unit: "kubelet.service", uptime: "11.803512" },
      },
    },
    {
      // a kubelet on a UTC+9 node: the klog stamp is local time, the instant gives the offset
      line: '{"__REALTIME_TIMESTAMP":"1747628409001900","_BOOT_ID":"6c0f2ea14b7d4e1a9c3358b0f2d7e611","PRIORITY":"3","SYSLOG_IDENTIFIER":"kubelet","_PID":"2817","_HOSTNAME":"node-b","MESSAGE":"E0519 13:20:09.001877    2817 kubelet.go:3002] \\"Container runtime network not ready\\""}',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 13, minute: 20, second: 9, ms: 1, offsetMin: 540, precision: "us" },
        severity: 3,
        message: "Container runtime network not ready",
      },
    },
    {
      // -o json-sse
      line: 'data: {"__CURSOR":"s=0a1b;i=3","__REALTIME_TIMESTAMP":"1747628407512401","_BOOT_ID":"6c0f2ea14b7d4e1a9c3358b0f2d7e611","PRIORITY":"6","SYSLOG_IDENTIFIER":"systemd","_HOSTNAME":"node-b","MESSAGE":"Started kubelet.service - kubelet: The Kubernetes Node Agent."}',
      expect: {
        time: null,
        epochMs: 1747628407512,
        epochPrecision: "us",
        ident: "systemd",
        component: "systemd",
        message: "Started kubelet.service - kubelet: The Kubernetes Node Agent.",
        bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611",
      },
    },
    {
      // plain message, bytes array, no klog: the instant is the time
      line: '{"__REALTIME_TIMESTAMP":"1747628371000123","_BOOT_ID":"a91e07c25d3f4b08b6e2f4c1d9a07e33","PRIORITY":"6","SYSLOG_IDENTIFIER":"kernel","_HOSTNAME":"node-b","MESSAGE":[76,105,110,117,120]}',
      expect: {
        time: null,
        epochMs: 1747628371000,
        epochPrecision: "us",
        ident: "kernel",
        component: "kernel",
        message: "Linux",
        bootId: "a91e07c25d3f4b08b6e2f4c1d9a07e33",
      },
    },
  ],
  notMine: [
    '{"kind":"EventList","apiVersion":"v1","items":[]}',
    "__CURSOR=s=0a1b;i=1",
    '{"ts":1747628407512.3442,"caller":"kubelet/kubelet.go:2321","msg":"Starting kubelet main sync loop","v":0}',
  ],
};
