/**
 * Go panics and goroutine dumps as one multi-line event (a klog `F` line is followed by a
 * goroutine dump; the Go runtime's `printpanics` / `tracebackothers` output, SIGQUIT dumps,
 * containerd's SIGUSR1 stack dumps).
 *
 *     panic: runtime error: invalid memory address or nil pointer dereference
 *     [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1b2c3d4]
 *
 *     goroutine 1 [running]:
 *     main.(*Agent).Run(0x0)
 *             /go/src/agent/agent.go:123 +0x1d
 *     created by main.main in goroutine 1
 *
 * A dump starts at `panic: `, `fatal error: `, `SIGQUIT: quit` (or another `SIG…: ` line), or a
 * first `goroutine N [state]:` line; every following non-blank line up to the next start is a
 * continuation of it (blank lines between goroutines are blank). The record has no time (the Go
 * runtime prints none), severity fatal; the component comes from the path (`containerd…` →
 * containerd, else the klog path rules, else `go`). `isDumpStart` / `isDumpLine` are shared with
 * the envelopes (journal, CRI) that carry a dump one line per entry.
 */
import { KLOG_WRITERS } from "./klog";
import type { FormatSpec, LineParser, LineResult, ParseContext } from "./types";
import { componentFromPath } from "../model/components";

/** `goroutine N [state]:`; Go 1.23 and later print `goroutine N gp=0x… m=N mp=0x… [state]:` (GOTRACEBACK=system or a crash). */
const GOROUTINE = String.raw`goroutine \d+(?: gp=0x[0-9a-f]+ m=(?:\d+|nil)(?: mp=0x[0-9a-f]+)?)? \[`;
const START = new RegExp(String.raw`^(?:panic: |fatal error: |SIG[A-Z]+: |${GOROUTINE}[^\]]+\]:$|=== BEGIN goroutine stack dump ===)`);
/** Dump lines: blank, indented (`\t/path/file.go:N +0x…`), goroutine headers, frames (generic ones with `[...]`), registers. */
const LINE = new RegExp(
  String.raw`^(?:$|\s|${GOROUTINE}|created by |[\w./*()~\[\],{}-]+\(.*\)$|\[signal |runtime[./]|PC=|r[a-z0-9]{1,2} +0x|exit status |=== END goroutine|\[recovered\]|\.\.\.additional frames elided|goroutine \d+ \[[^\]]*\]:$)`,
);

/** Does a message start a Go panic / goroutine dump? */
export function isDumpStart(msg: string): boolean {
  const c = msg.charCodeAt(0);
  if (c !== 112 && c !== 102 && c !== 83 && c !== 103 && c !== 61) return false; // p f S g =
  return START.test(msg);
}

/** Is a message a line of a Go dump in progress (frame, file:line, goroutine header, blank)? */
export function isDumpLine(msg: string): boolean {
  return LINE.test(msg);
}

function componentOf(path: string | undefined): string {
  return componentFromPath(path, ["containerd", "crio", ...KLOG_WRITERS, "kubelet"]) ?? "go";
}

class GoPanicParser implements LineParser {
  private readonly component: string;
  private inDump = false;
  constructor(ctx: ParseContext) {
    this.component = componentOf(ctx.path);
  }
  parseLine(line: string): LineResult {
    if (isDumpStart(line) && !(this.inDump && /^goroutine \d+ /.test(line))) {
      this.inDump = true;
      return { type: "record", record: { time: null, component: this.component, severity: 4, message: line } };
    }
    return this.inDump ? { type: "continuation", text: line } : null;
  }
}

/** Format spec: files holding Go panics / goroutine dumps (`containerd.<pid>.stacks.log`, crash output). */
export const goPanicSpec: FormatSpec = {
  name: "go-panic",
  kind: "go-dump",
  sniff: (_path, lines) => lines.length > 0 && isDumpStart(lines[0]) && lines.slice(1).every((l) => isDumpLine(l) || isDumpStart(l)),
  createParser: (ctx) => new GoPanicParser(ctx),
  samples: [
    {
      line: "panic: runtime error: invalid memory address or nil pointer dereference",
      after: [
        "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1b2c3d4]",
        "goroutine 1 [running]:",
        "main.(*Agent).Run(0x0)",
        "\t/go/src/agent/agent.go:123 +0x1d",
      ],
      path: "crash/cilium-agent.log",
      expect: { time: null, component: "cilium", severity: 4, message: "panic: runtime error: invalid memory address or nil pointer dereference" },
    },
    {
      line: "goroutine 1 [chan receive, 10 minutes]:",
      after: ["main.main()", "\t/go/src/github.com/containerd/containerd/cmd/containerd/main.go:39 +0x25"],
      path: "containerd/containerd.811.stacks.log",
      expect: { time: null, component: "containerd", severity: 4 },
    },
    {
      // Go 1.23+: the goroutine header names its g and m; a generic function's frame prints `[...]`
      line: "fatal error: concurrent map writes",
      after: [
        "",
        "goroutine 52 gp=0xc000603500 m=7 mp=0xc000580008 [running]:",
        "internal/runtime/maps.fatal({0x2c1d3e5?, 0x0?})",
        "\t/usr/local/go/src/runtime/panic.go:1058 +0x18",
        "github.com/example/agent/cache.(*Store[...]).Put(0xc0001a2b40, {0xc000ab12c0, 0x24}, 0x1)",
        "\t/src/cache/store.go:71 +0x9c",
      ],
      path: "crash/agent.log",
      expect: { time: null, severity: 4, message: "fatal error: concurrent map writes" },
    },
  ],
  notMine: ["May 19 04:20:07 ip-10-20-30-40 containerd[811]: panic: x", "main.main()", 'F0519 04:20:07.512344    2817 kubelet.go:2321] "fatal"'],
};
