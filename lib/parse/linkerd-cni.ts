/**
 * linkerd-cni installer log (the `install-cni` container of the `linkerd-cni` DaemonSet): upstream
 * linkerd2 / linkerd2-proxy-init `cni-plugin/deployment/scripts/install-cni.sh`, whose `log()` is
 * `printf '[%s] %s\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$1"`.
 *
 *     [2021-06-14 09:36:49] Wrote linkerd CNI binaries to /host/opt/cni/bin
 *     [2021-06-14 09:36:49] CNI config: {
 *       "name": "linkerd-cni",
 *     }
 *     [2021-06-14 09:36:49] Created CNI config /host/etc/cni/net.d/10-calico.conflist
 *     [2021-06-14 09:36:50] Detected event: CREATE /host/etc/cni/net.d/10-calico.conflist
 *     [2021-06-14 09:36:50] New/changed file [/host/etc/cni/net.d/10-calico.conflist] detected; re-installing
 *
 * Stamp: the container's local time (UTC in the stock image), whole seconds, no zone. No level:
 * records are info, except `ERROR caught, exiting...` and messages starting `Failed` (error).
 * `CNI config: ` dumps the config JSON over several lines: every line after a record that is not
 * itself stamped continues it. Scripts before 2.10 echoed without a stamp: such lines are not read
 * here. Sniff: the stamp shape, and the installer's words (`CNI`, `linkerd`) in one of the first
 * lines, so other scripts' bracketed stamps are not taken for it. Component `linkerd-cni`.
 */
import type { FormatSpec, LineParser, LineResult, WallTime } from "./types";

/** `[YYYY-MM-DD hh:mm:ss]`, also `[ YYYY-MM-DDThh:mm:ss(.frac)Z ]` (spaces inside, ISO with a zone). */
const LINE_RE = /^\[ ?(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})? ?\] ?(.*)$/;
const SHAPE = /^\[ ?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})? ?\] /;
const MARKER = /\bCNI\b|linkerd|\/host\/etc\/cni\/net\.d|\.conflist\b/;
const ERROR_RE = /^(?:ERROR caught|Failed\b|.* is non-writeable, failure$)/;
/**
 * The installer's own sentences as the scripts before the `log()` helper echoed them (no stamp),
 * and the trap messages every version echoes: records with no time.
 */
const UNTIMED_RE =
  /^(?:Wrote linkerd CNI binaries to |Using CNI config template from |CNI config: |Created CNI config |Done configuring CNI\b|Removing linkerd-cni artifacts|Removing (?:existing )?(?:CNI config|linkerd-cni)|Detected change in |Detected event: |New (?:\/changed )?file \[|Installing |SIG(?:INT|TERM|HUP) received|ERROR caught|Failed\b|Ignoring temporary file|Removed linkerd-cni|Keep CNI config|Waiting for CNI)/;
/** inotifywait's stderr banners (`-m` watching the CNI config folder): not records. */
const WATCH_BANNER_RE = /^(?:Setting up watches\.(?:\s+Beware: since -r was given.*)?|Watches established\.)$/;

function zoneOf(z: string | undefined): number | null {
  if (z === undefined) return null;
  if (z === "Z") return 0;
  const sign = z[0] === "-" ? -1 : 1;
  const d = z.slice(1).replace(":", "");
  return sign * (Number(d.slice(0, 2)) * 60 + Number(d.slice(2, 4)));
}

/**
 * Lines are read with their right padding removed: `kubectl logs` of the container when it ran with
 * a TTY (and some terminals' copies) pad every line with spaces to the terminal's width.
 */
class LinkerdCniParser implements LineParser {
  readonly settled = true;
  private seen = false;
  parseLine(raw: string): LineResult {
    const line = raw.trimEnd();
    const m = line.charCodeAt(0) === 91 ? LINE_RE.exec(line) : null;
    if (!m) {
      if (WATCH_BANNER_RE.test(line)) return { type: "banner", banner: { type: "header" } };
      if (UNTIMED_RE.test(line)) {
        this.seen = true;
        return { type: "record", record: { time: null, component: "linkerd-cni", severity: ERROR_RE.test(line) ? 3 : 1, message: line } };
      }
      return this.seen && line.trim() !== "" ? { type: "continuation", text: line } : null;
    }
    const frac = m[7];
    const time: WallTime = {
      year: Number(m[1]),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: Number(m[4]),
      minute: Number(m[5]),
      second: Number(m[6]),
      ms: frac ? Number(`${frac}00`.slice(0, 3)) : 0,
      offsetMin: zoneOf(m[8]),
      precision: frac ? (frac.length <= 3 ? "ms" : frac.length <= 6 ? "us" : "ns") : "s",
    };
    if (time.month < 1 || time.month > 12 || time.day < 1 || time.day > 31 || time.hour > 23 || time.minute > 59) return null;
    this.seen = true;
    const message = m[9];
    return { type: "record", record: { time, component: "linkerd-cni", severity: ERROR_RE.test(message) ? 3 : 1, message } };
  }
}

/** Format spec: linkerd-cni installer log. */
export const linkerdCniSpec: FormatSpec = {
  name: "linkerd-cni",
  kind: "cni",
  sniff(_path, lines) {
    let hits = 0;
    let total = 0;
    let marked = false;
    let first = false;
    for (const raw of lines) {
      if (raw.charCodeAt(0) === 32 || raw.charCodeAt(0) === 9) continue;
      const l = raw.trimEnd();
      if (WATCH_BANNER_RE.test(l)) continue;
      // the untimed installer's sentences name linkerd or CNI themselves
      const ok = SHAPE.test(l) || (UNTIMED_RE.test(l) && MARKER.test(l));
      if (ok) {
        hits++;
        if (total === 0) first = true;
        if (!marked && MARKER.test(l)) marked = true;
      }
      total++;
    }
    return marked && (first || hits * 2 >= total);
  },
  createParser: () => new LinkerdCniParser(),
  samples: [
    {
      line: "[2023-11-20 16:05:31] Created CNI config /host/etc/cni/net.d/10-flannel.conflist",
      expect: {
        time: { year: 2023, month: 11, day: 20, hour: 16, minute: 5, second: 31, ms: 0, offsetMin: null, precision: "s" },
        component: "linkerd-cni",
        severity: 1,
        message: "Created CNI config /host/etc/cni/net.d/10-flannel.conflist",
      },
    },
    {
      line: "[2023-11-20 16:05:33] New/changed file [/host/etc/cni/net.d/10-flannel.conflist] detected; re-installing",
      expect: { severity: 1, message: "New/changed file [/host/etc/cni/net.d/10-flannel.conflist] detected; re-installing" },
    },
    {
      line: "[2023-11-20 16:07:02] ERROR caught, exiting...",
      context: ["[2023-11-20 16:05:30] Wrote linkerd CNI binaries to /host/opt/cni/bin"],
      expect: { severity: 3, message: "ERROR caught, exiting..." },
    },
    {
      // right-padded to the terminal's width; no stamp (scripts before the log() helper)
      line: "Wrote linkerd CNI binaries to /host/opt/cni/bin                                 ",
      expect: { time: null, component: "linkerd-cni", severity: 1, message: "Wrote linkerd CNI binaries to /host/opt/cni/bin" },
    },
    {
      line: "Done configuring CNI. Sleep=true    ",
      context: ["Created CNI config /host/etc/cni/net.d/10-calico.conflist"],
      expect: { time: null, severity: 1, message: "Done configuring CNI. Sleep=true" },
    },
    {
      line: "[ 2023-01-02T03:04:10Z ] New/changed file [/host/etc/cni/net.d/10-calico.conflist] detected; re-installing",
      expect: {
        time: { year: 2023, month: 1, day: 2, hour: 3, minute: 4, second: 10, ms: 0, offsetMin: 0, precision: "s" },
        message: "New/changed file [/host/etc/cni/net.d/10-calico.conflist] detected; re-installing",
      },
    },
    {
      line: "Watches established.",
      context: ["[2023-01-02 03:04:05] Created CNI config /host/etc/cni/net.d/10-calico.conflist"],
      expect: { banner: { type: "header" } },
    },
  ],
  notMine: [
    "2021/02/12 00:08:59 [3045] [cni-net] Plugin azure-vnet version v1.2.0.",
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    "I0519 04:20:10.100200       1 main.go:231] Created subnet manager",
  ],
};
