/**
 * Writers of the real line formats (journal, component and runtime lines), for the sample
 * bundles. Times are absolute microseconds since the Unix epoch (UTC), integers
 * (exact in a double up to year 2255); formatted in UTC, as on EKS AMIs.
 *
 * Pure: no clock reads.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const p2 = (n: number) => String(n).padStart(2, "0");

function parts(us: number) {
  const ms = Math.floor(us / 1000);
  const d = new Date(ms);
  return {
    d,
    Y: d.getUTCFullYear(),
    M: d.getUTCMonth(),
    D: d.getUTCDate(),
    h: p2(d.getUTCHours()),
    m: p2(d.getUTCMinutes()),
    s: p2(d.getUTCSeconds()),
    us6: String(((us % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, "0"),
    ms3: String(((ms % 1000) + 1000) % 1000).padStart(3, "0"),
  };
}

/**
 * Go's `strconv.Quote` for the ASCII texts the scenarios print (`%q`, klog values,
 * logrus values that need quoting).
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + '"';
}

/**
 * journalctl `short`: `Mar 14 02:10:07 host ident[pid]: message`;
 * zero-padded day, whole seconds, no year. `us` is journald's receive time.
 */
export function journalShort(us: number, host: string, ident: string, pid: number | null, message: string): string {
  const t = parts(us);
  return `${MONTHS[t.M]} ${p2(t.D)} ${t.h}:${t.m}:${t.s} ${host} ${ident}${pid === null ? "" : `[${pid}]`}: ${message}`;
}

/** The journal separator printed before the first entry of a new boot (systemd >= v247). */
export const journalBootSeparator = (bootId32: string) => `-- Boot ${bootId32} --`;

/**
 * klog text header: `E0314 02:10:07.123456    1234 file.go:72] "msg" k="v"`.
 * The thread id is right-aligned in 7 columns. `kv` values are strings (Go-quoted) or
 * `{ raw }` (printed as is: klog prints structs such as `podSandboxID={"Type":...}`).
 */
export function klog(
  severity: "I" | "W" | "E" | "F",
  us: number,
  pid: number,
  caller: string,
  msg: string,
  kv: Array<[string, string | { raw: string }]> = [],
): string {
  const t = parts(us);
  const pairs = kv.map(([k, v]) => ` ${k}=${typeof v === "string" ? goQuote(v) : v.raw}`).join("");
  return `${severity}${p2(t.M + 1)}${p2(t.D)} ${t.h}:${t.m}:${t.s}.${t.us6} ${String(pid).padStart(7, " ")} ${caller}] ${goQuote(msg)}${pairs}`;
}

/** RFC 3339 with 9 fractional digits and `Z` (containerd's `log.RFC3339NanoFixed`). */
export function rfc3339NanoFixed(us: number, nsExtra = 0): string {
  const t = parts(us);
  return `${t.Y}-${p2(t.M + 1)}-${p2(t.D)}T${t.h}:${t.m}:${t.s}.${t.us6}${String(nsExtra).padStart(3, "0")}Z`;
}

/** RFC 3339 nano with trailing zeros trimmed (`time.RFC3339Nano`: CRI log files). */
export function rfc3339Nano(us: number, nsExtra = 0): string {
  const t = parts(us);
  const frac = `${t.us6}${String(nsExtra).padStart(3, "0")}`.replace(/0+$/, "");
  return `${t.Y}-${p2(t.M + 1)}-${p2(t.D)}T${t.h}:${t.m}:${t.s}${frac ? "." + frac : ""}Z`;
}

/** RFC 3339 in whole seconds (Kubernetes event first/last timestamps). */
export function rfc3339Seconds(ms: number): string {
  const t = parts(ms * 1000);
  return `${t.Y}-${p2(t.M + 1)}-${p2(t.D)}T${t.h}:${t.m}:${t.s}Z`;
}

/** logrus TextFormatter `needsQuoting`: anything outside `[A-Za-z0-9-._/@^+]`. */
function logrusValue(v: string): string {
  return v !== "" && /^[A-Za-z0-9\-._/@^+]+$/.test(v) ? v : goQuote(v);
}

/**
 * containerd logrus text: `time="…" level=info msg="…" key=value`,
 * keys after msg in the order given (logrus sorts them; pass them sorted).
 */
export function logrus(
  us: number,
  nsExtra: number,
  level: "debug" | "info" | "warning" | "error" | "fatal",
  msg: string,
  kv: Array<[string, string]> = [],
): string {
  const pairs = kv.map(([k, v]) => ` ${k}=${logrusValue(v)}`).join("");
  return `time="${rfc3339NanoFixed(us, nsExtra)}" level=${level} msg=${logrusValue(msg)}${pairs}`;
}

/**
 * Calico log line (projectcalico/calico `libcalico-go/lib/logutils`):
 * `2026-03-14 02:10:09.271 [ERROR][5123] cni-plugin/plugin.go 580: message k="v"`;
 * milliseconds, local time (UTC here), no offset. `kv` values: strings are Go-quoted,
 * `{ raw }` printed as is (errors print unquoted: `error=stat /var/lib/...`).
 */
export function calico(
  us: number,
  level: "DEBUG" | "INFO" | "WARNING" | "ERROR",
  pid: number,
  caller: string,
  msg: string,
  kv: Array<[string, string | { raw: string }]> = [],
): string {
  const t = parts(us);
  const pairs = kv.map(([k, v]) => ` ${k}=${typeof v === "string" ? goQuote(v) : v.raw}`).join("");
  return `${t.Y}-${p2(t.M + 1)}-${p2(t.D)} ${t.h}:${t.m}:${t.s}.${t.ms3} [${level}][${pid}] ${caller}: ${msg}${pairs}`;
}

/** CRI container log line written by containerd: `<RFC3339Nano> stdout F <payload>`. */
export function criLine(us: number, nsExtra: number, stream: "stdout" | "stderr", payload: string): string {
  return `${rfc3339Nano(us, nsExtra)} ${stream} F ${payload}`;
}

/** `dmesg --ctime`: `[Sat Mar 14 02:10:00 2026] text`, C locale `%a %b %e %H:%M:%S %Y`. */
export function dmesgCtime(us: number, text: string): string {
  const t = parts(us);
  return `[${DAYS[t.d.getUTCDay()]} ${MONTHS[t.M]} ${String(t.D).padStart(2, " ")} ${t.h}:${t.m}:${t.s} ${t.Y}] ${text}`;
}
