/**
 * Fields stored once: a klog record's message ends with its `key=value` pairs
 * (`RunPodSandbox from runtime service failed err="…" pod="…"`), and its `fields` are exactly
 * those pairs, unescaped. Such an event is stored with `Event.fields` NULL and `Event.fieldsAt`
 * set to where the pairs start in the message; its fields are read back by scanning the message
 * from there with the scanner the klog parser uses (lib/parse/helpers/text-scan.ts `scanPairs`).
 * Storing the pairs twice made a storm's kubelet rows about 40% wider.
 *
 * The writer checks, per event, that the scan from that position gives the event's fields (same
 * keys, same values), so the read-back is exact by construction; any other event keeps its
 * `fields` JSON (logrus and logfmt messages do not hold their pairs; Kubernetes event fields are
 * structured).
 */
import { scanPairs } from "../parse/helpers/text-scan";

/**
 * Where `fields`' pairs start in `message` (a UTF-16 index) when scanning the message from there
 * gives exactly `fields`; null otherwise (no fields, a value that is not a string, pairs not in
 * the message, or any difference).
 */
export function messageFieldsAt(message: string, fields: Record<string, unknown> | null): number | null {
  if (fields === null) return null;
  let first: string | undefined;
  let count = 0;
  for (const k in fields) {
    if (typeof fields[k] !== "string") return null;
    if (first === undefined) first = k;
    count++;
  }
  if (first === undefined) return null;
  const key = message.indexOf(` ${first}=`);
  if (key < 0) return null;
  const at = key + 1;
  const again: Record<string, string> = {};
  scanPairs(message, at, again, true);
  let n = 0;
  for (const k in again) {
    if (again[k] !== fields[k]) return null;
    n++;
  }
  return n === count ? at : null;
}

/** The fields of an event stored with `fieldsAt` (see the module comment). */
export function fieldsOfMessage(message: string, at: number): Record<string, string> {
  const out: Record<string, string> = {};
  scanPairs(message, at, out, true);
  return out;
}

/**
 * Fields stored apart from the message (`Event.fields` JSON text), as the `key=value` text a
 * reader expects after the message: values with blanks, quotes or `=` Go-quoted, the structured
 * copy of a Kubernetes event (`k8s`) left out, at most `max` characters. Null when there are none
 * or the text is not a JSON object.
 */
export function fieldsText(json: string | null, max: number): string | null {
  if (!json) return null;
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return null;
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === "k8s" || x === null || x === undefined) continue;
    const s = typeof x === "string" ? x : JSON.stringify(x);
    parts.push(`${k}=${s === "" || /[\s"=\\]/.test(s) ? JSON.stringify(s) : s}`);
  }
  const text = parts.join(" ");
  return text ? text.slice(0, max) : null;
}
