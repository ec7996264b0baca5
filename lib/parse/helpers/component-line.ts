/**
 * What a component format (klog, logrus, Calico, istio, cilium) yields for one message, whether the
 * message is a whole line of its own file or the MESSAGE inside a journal/syslog/CRI envelope
 * (two-level parsing: envelope first, then the component line inside it).
 */
import type { LineParser, LineResult, ParseContext, ParsedRecord, Severity, WallTime } from "../types";

/** One parsed component line (see the module comment). */
export interface ComponentLine {
  /** the component's own stamp (year/offset may be null), null when it prints none (cilium) */
  time: WallTime | null;
  severity: Severity;
  /** message text: klog message (unquoted) followed by its key=value pairs as printed; logrus `msg` */
  message: string;
  /** key/value pairs, unescaped; absent when the line has none */
  fields?: Record<string, string>;
  /** component the format itself implies (Calico → cni-calico), null for shared formats (klog, logrus) */
  component: string | null;
  /** process/thread id the component prints (klog thread id, Calico pid) */
  pid?: number;
  /** set by the envelope dispatch (component.ts) when the line is klog */
  format?: "klog";
  /**
   * true when `component` was named by the line itself (a supervisor's `component=<name>` around the
   * program's own output, k0s; a layout only one program writes, Calico's): it then wins over the
   * envelope's identifier.
   */
  named?: boolean;
}

/**
 * The record of a standalone component line (a file of its own, no envelope). Built property by
 * property (no object spread: V8 turns spread-then-override objects into slow dictionaries).
 */
export function componentRecord(c: ComponentLine, component: string, withPid = false): ParsedRecord {
  const rec: ParsedRecord = { time: c.time, component, severity: c.severity, message: c.message };
  if (withPid && c.pid !== undefined) rec.pid = c.pid;
  if (c.fields) rec.fields = c.fields;
  return rec;
}

/**
 * containerd's own messages (its CRI plugin `sandbox_run.go`, `container_*.go`, `events.go`, the shim
 * manager, daemon start), as k3s/rke2/k0s print them under their own name when containerd is
 * embedded or supervised: such a line is containerd's.
 */
const CONTAINERD_MESSAGE_RE =
  /^(?:RunPodSandbox for |StopPodSandbox for |RemovePodSandbox for |CreateContainer within sandbox |StartContainer for |StopContainer for |RemoveContainer for |PullImage "|ImageCreate event |ImageUpdate event |TaskExit event |TearDown network for sandbox |Failed to destroy network for sandbox |Finish piping |ExecSync for |shim reaped|shim containerd-shim started|shim disconnected|cleaning up dead shim|starting containerd|containerd successfully booted|loading plugin ")/;

/** Whether `message` is one of containerd's own messages (see `CONTAINERD_MESSAGE_RE`). */
export function isContainerdMessage(message: string): boolean {
  const c = message.charCodeAt(0);
  // first letters of the messages above: R S C P I T F E s c l
  if (c !== 82 && c !== 83 && c !== 67 && c !== 80 && c !== 73 && c !== 84 && c !== 70 && c !== 69 && c !== 115 && c !== 99 && c !== 108) return false;
  return CONTAINERD_MESSAGE_RE.test(message);
}

/**
 * A line a component format did not parse, after one of its records: indented (a blank or a tab
 * first) it continues that record, as multi-line values and stack traces print; else not mine.
 */
export function indentedContinuation(line: string, afterRecord: boolean): LineResult {
  const c = line.charCodeAt(0);
  return afterRecord && (c === 32 || c === 9) ? { type: "continuation", text: line } : null;
}

/** How the lines of a component-line format make records (see `componentLineParser`). */
export interface ComponentLineFormat {
  /** one line to its component line, null when the line is not one */
  parse(line: string): ComponentLine | null;
  /** the file's writer: a name, or one from the file's path (null: the path names none) */
  writer: string | ((path: string | undefined) => string | null);
  /** the component when neither the file's writer nor the line names one */
  fallback?: string;
  /**
   * the record's component from the line and the file's writer (default: the file's writer, else
   * the line's own component, else `fallback`): for programs that print another's messages (k3s
   * embedding containerd) or lines that name their writer (kata through containerd)
   */
  componentOf?: (c: ComponentLine, fileWriter: string | null) => string | null;
  /** a line that is no record after one: `indented` continues it when it starts with a blank or tab, `any` always */
  continuation: "indented" | "any";
}

/**
 * The `createParser` of a component-line format: each line its own record (the component stamp,
 * level and message `parse` reads), lines after a record that are none continuing it per
 * `continuation`, the component from the line, the path or the format. Records are settled when
 * returned.
 */
export function componentLineParser(f: ComponentLineFormat): (ctx: ParseContext) => LineParser {
  const fallback = f.fallback ?? (typeof f.writer === "string" ? f.writer : "unknown");
  return (ctx) => {
    const fileWriter = typeof f.writer === "string" ? f.writer : f.writer(ctx.path);
    let seen = false;
    return {
      settled: true,
      parseLine(line: string): LineResult {
        const c = f.parse(line);
        if (!c) return f.continuation === "any" ? (seen ? { type: "continuation", text: line } : null) : indentedContinuation(line, seen);
        seen = true;
        const component = (f.componentOf ? f.componentOf(c, fileWriter) : (fileWriter ?? c.component)) ?? fallback;
        return { type: "record", record: componentRecord(c, component) };
      },
    };
  };
}
