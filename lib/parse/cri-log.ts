/**
 * CRI container log files (`/var/log/pods/<ns>_<pod>_<uid>/<ctr>/<n>.log`, `/var/log/containers/
 * <pod>_<ns>_<ctr>-<id>.log`); upstream containerd
 * `internal/cri/io/logger.go`, conmon `src/ctr_logging.c`.
 *
 *     2025-05-19T04:20:09.10473Z stderr F I0519 04:20:09.104500       1 main.go:88] "Starting" component="coredns"
 *     2025-05-19T04:20:09.104730000+00:00 stdout F listening on :8080          (CRI-O: 9 digits, +00:00, maybe +05:1800)
 *
 * `<RFC3339Nano> <stream> <F|P>[:tags] <payload>`. `P` pieces are joined until the `F` that ends
 * them: the first piece is the record, the others its continuations, and the joined payload is
 * parsed once complete. The payload goes through the component parsers; its own stamp is the
 * record's time when it has one (cilium prints none: the CRI time is used). The component comes
 * from the container name in the path (`calico-node`, `cilium-agent`, `install-cni`, `kube-flannel`).
 * A Go panic / goroutine dump (go-panic.ts) written one line per CRI entry is one record: the
 * dump lines after its first line, on the same stream, are its continuations, a long frame line
 * split into `P` pieces included (each piece a continuation line), and up to 20 lines of a panic's
 * value printed over several lines before the first goroutine header (not a stamped line).
 */
import { ContainerLineParser } from "./helpers/container-pieces";
import { isDumpLine, isDumpStart } from "./go-panic";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult, ParseContext } from "./types";

/** At most this many lines of a panic's value (`panic: <err>` whose text holds line breaks) are taken before its first goroutine. */
const PANIC_VALUE_LINES = 20;
/** A payload that is a stamped line of its own (a date, a klog header, logfmt's `time=`/`level=`): never a panic's value. */
const STAMPED_RE = /^(?:\d{4}-\d{2}-\d{2}[T ]|[IWEF]\d{4} \d{2}:|time=|level=|\{")/;
/** The start of a Go frame line (`pkg.(*T).Method(` …): a dump line cut by the runtime's `P` split. */
const FRAME_START = /^[\w./*()~[\],{}-]+\(/;
const RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2,4})) (stdout|stderr) ([FP])(?::\S+)? ?(.*)$/;

/** Container name from a CRI log path (pods/ or containers/ layout), or undefined. */
export function containerFromPath(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const pods = /(?:^|\/)[^/]+_[^/]+_[^/]+\/([^/]+)\/\d+\.log(?:\.\d{8}-\d{6})?(?:\.gz)?$/.exec(path);
  if (pods) return pods[1];
  const ctrs = /(?:^|\/)[^/_]+_[^/_]+_(.+)-[0-9a-f]{64}\.log$/.exec(path);
  return ctrs ? ctrs[1] : undefined;
}

class CriParser extends ContainerLineParser {
  /** stream of the Go dump in progress, or null */
  private dumpStream: string | null = null;
  /** stream of a dump line split into `P` pieces whose `F` is still to come, or null */
  private dumpPiece: string | null = null;
  /** lines of a panic's value still taken before its first goroutine header */
  private panicValueLines = 0;

  constructor(ctx: ParseContext) {
    super(ctx, containerFromPath);
  }

  parseLine(line: string): LineResult {
    const c0 = line.charCodeAt(0);
    if (c0 < 48 || c0 > 57) return null;
    const m = RE.exec(line);
    if (!m) return null;
    const time = parseIsoStamp(m[1]);
    if (!time) return null;
    const stream = m[2];
    const full = m[3] === "F";
    const payload = m[4];
    if (this.dumpPiece === stream) {
      // the rest of a dump line the runtime split into `P` pieces
      if (full) this.dumpPiece = null;
      return { type: "continuation", text: payload };
    }
    if (!this.pending(stream)) {
      this.complete();
      // a `P` piece holds the start of a line: a frame's call without its closing `)` yet
      if (this.dumpStream === stream && (isDumpLine(payload) || (!full && FRAME_START.test(payload)))) {
        if (!full) this.dumpPiece = stream;
        if (/^goroutine \d+ /.test(payload)) this.panicValueLines = 0;
        return { type: "continuation", text: payload };
      }
      // the panic's value printed over several lines (an error text holding line breaks), before the first goroutine
      if (this.dumpStream === stream && this.panicValueLines > 0 && !STAMPED_RE.test(payload)) {
        this.panicValueLines--;
        if (!full) this.dumpPiece = stream;
        return { type: "continuation", text: payload };
      }
    }
    const r = this.piece(time, stream, payload, full);
    if (r.type === "record") {
      this.dumpStream = isDumpStart(payload) ? stream : null;
      this.panicValueLines = this.dumpStream && /^(?:panic|fatal error): /.test(payload) ? PANIC_VALUE_LINES : 0;
      if (this.dumpStream) r.record.severity = 4;
    }
    return r;
  }
}

const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2,4}) (?:stdout|stderr) [FP](?::\S+)? /;

/** Format spec: CRI container log files (`/var/log/pods/…/<n>.log`), with `P` pieces joined. */
export const criLogSpec: FormatSpec = {
  name: "cri-log",
  kind: "container",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser: (ctx) => new CriParser(ctx),
  samples: [
    {
      line: '2025-05-19T04:20:09.10473Z stderr F I0519 04:20:09.104500       1 main.go:88] "Starting" component="coredns"',
      path: "var/log/pods/kube-system_coredns-5d78c9869d-abcde_0f0e/coredns/0.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 104, offsetMin: 0, precision: "us" },
        ident: "coredns",
        component: "coredns",
        severity: 1,
        message: 'Starting component="coredns"',
        fields: { component: "coredns", stream: "stderr" },
      },
    },
    {
      // CRI-O's broken half-hour offset: +05:1800 = +05:30; cilium prints no time, the CRI stamp is used
      line: '2025-05-19T09:50:09.104730000+05:1800 stdout F level=info msg="Restored endpoint" subsys=endpoint',
      path: "var/log/containers/cilium-x2x9q_kube-system_cilium-agent-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 9, minute: 50, second: 9, ms: 104, offsetMin: 330, precision: "ns" },
        ident: "cilium-agent",
        component: "cilium",
        message: "Restored endpoint",
        fields: { subsys: "endpoint", stream: "stdout" },
      },
    },
    {
      // a panic whose value spans lines: taken up to the first goroutine; a stamped line after the dump is a record again
      line: "2023-01-02T03:04:05.100000000Z stderr F panic: failed to load config: invalid character '}' looking for beginning of object key string",
      after: [
        "2023-01-02T03:04:05.100001000Z stderr F while reading /etc/cni/net.d/05-cilium.conflist",
        "2023-01-02T03:04:05.100002000Z stderr F goroutine 1 [running]:",
        "2023-01-02T03:04:05.100003000Z stderr F main.main()",
      ],
      path: "var/log/pods/default_web-1_0f0e/web/0.log",
      expect: { severity: 4, message: "panic: failed to load config: invalid character '}' looking for beginning of object key string" },
    },
    {
      // a Go panic one line per entry: one record, its frames continuations (a long frame split into P pieces too)
      line: "2023-01-02T03:04:05.123456789Z stderr F panic: assignment to entry in nil map",
      after: [
        "2023-01-02T03:04:05.123457789Z stderr F ",
        "2023-01-02T03:04:05.123458789Z stderr F goroutine 1 gp=0xc000002380 m=0 mp=0x2a3b4c0 [running]:",
        "2023-01-02T03:04:05.123459789Z stderr P main.(*Server).handle(0xc000123456, {0x1f2e3d0, 0xc0004a2b40}",
        "2023-01-02T03:04:05.123459789Z stderr F , 0x0)",
        "2023-01-02T03:04:05.123460789Z stderr F \t/app/server.go:88 +0x2c5",
        "2023-01-02T03:04:05.123461789Z stderr F exit status 2",
      ],
      path: "var/log/pods/default_web-1_0f0e/web/0.log",
      expect: {
        time: { year: 2023, month: 1, day: 2, hour: 3, minute: 4, second: 5, ms: 123, offsetMin: 0, precision: "ns" },
        component: "web",
        severity: 4,
        message: "panic: assignment to entry in nil map",
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web excluded from mesh",
    "2025-05-19T04:20:09.104730000Z listening on :8080",
  ],
};
