/**
 * Test support: turn one physical line of the real-format cases (tests/cases)
 * into what the parsers hand to `classifyRecord` (journal short / RFC 5424 syslog
 * envelope, klog structured or logrus payload), without depending on lib/parse.
 * The shape follows lib/parse: klog `message` = the unquoted message followed by its
 * pairs as printed, `fields` = the pairs unescaped; logrus `message` = `msg`.
 */
import type { ClassifyInput } from "./classify";
import { parseKeyValues, splitStructured } from "./go-text";

const KLOG_SEV: Record<string, number> = { I: 1, W: 2, E: 3, F: 4 };
const LOGRUS_SEV: Record<string, number> = { trace: 0, debug: 0, info: 1, warning: 2, error: 3, fatal: 4, panic: 4 };

/** Split a case line into a ClassifyInput; null for blank and banner lines. */
export function caseLineToInput(line: string): ClassifyInput | null {
  if (!line.trim() || /^-- .* --$/.test(line.trim())) return null;
  let ident: string | undefined;
  let msg = line;
  let m = /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}(?:\.\d+)? \S+ ([^\s[:]+)(?:\[\d+\])?: (.*)$/.exec(line);
  if (m) [ident, msg] = [m[1], m[2]];
  else if ((m = /^\d{4}-\d{2}-\d{2}T\S+ \S+ (\S+) \S+ - -\s+(.*)$/.exec(line))) [ident, msg] = [m[1], m[2]];
  const k = /^([IWEF])\d{4} [\d:.]+\s+\d+ \S+\] (.*)$/.exec(msg);
  if (k) {
    const { headline, fields } = splitStructured(k[2]);
    const tail = restAfterQuoted(k[2]) ?? "";
    return { component: "kubelet", ident, message: tail ? `${headline} ${tail}` : headline, fields, severity: KLOG_SEV[k[1]] };
  }
  if (/^time="/.test(msg)) {
    const f = parseKeyValues(msg);
    const { time: _t, level, msg: text, ...fields } = f;
    void _t;
    return { component: ident ?? "containerd", ident, message: text ?? msg, fields, severity: LOGRUS_SEV[level] ?? 1 };
  }
  if (/^level=\w+ msg=/.test(msg)) {
    const f = parseKeyValues(msg);
    const { level, msg: text, ...fields } = f;
    return { component: "cilium", ident, message: text ?? msg, fields, severity: LOGRUS_SEV[level] ?? 1 };
  }
  if (/^\{"level"/.test(msg)) {
    const j = JSON.parse(msg) as { level: string; msg: string };
    return { component: "istio-cni", ident, message: j.msg, severity: LOGRUS_SEV[j.level] ?? 1 };
  }
  const t = /^\d{4}-\d{2}-\d{2}T\S+\t(\w+)\t(?:([\w-]+)\t)?(.*)$/.exec(msg);
  if (t) return { component: "istio-cni", ident, message: t[3], severity: LOGRUS_SEV[t[1]] ?? 1 };
  return { component: ident ?? "unknown", ident, message: msg, severity: 1 };
}

function restAfterQuoted(s: string): string | null {
  const t = s.trimStart();
  if (!t.startsWith('"')) return null;
  for (let i = 1; i < t.length; i++) {
    if (t[i] === "\\") {
      i++;
      continue;
    }
    if (t[i] === '"') return t.slice(i + 1).trim();
  }
  return "";
}
