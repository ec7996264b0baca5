/**
 * Docker `json-file` container logs (dockershim nodes, Kubernetes < 1.24, `/var/log/pods/…` and
 * `/var/lib/docker/containers/<id>/<id>-json.log`); upstream moby `daemon/logger/jsonfilelog`.
 *
 *     {"log":"listening on :8080\n","stream":"stdout","time":"2021-05-19T04:20:09.10473Z"}
 *
 * One JSON object per line; `time` is RFC3339Nano UTC. A `log` value without its trailing `\n`
 * is a piece of a longer line (Docker splits at 16 KiB): the next lines of the same stream are
 * continuations until the piece that ends with `\n`, and the joined payload is parsed once
 * complete (as cri-log's `P` pieces). The payload goes through the component parsers; the
 * container comes from the path.
 */
import { ContainerLineParser } from "./helpers/container-pieces";
import { containerFromPath } from "./cri-log";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult, ParseContext } from "./types";

class DockerJsonParser extends ContainerLineParser {
  constructor(ctx: ParseContext) {
    super(ctx, containerFromPath);
  }

  parseLine(line: string): LineResult {
    if (line.charCodeAt(0) !== 123 || !line.startsWith('{"log":')) return null;
    let obj: { log?: unknown; stream?: unknown; time?: unknown };
    try {
      obj = JSON.parse(line) as typeof obj;
    } catch {
      return null;
    }
    if (typeof obj.log !== "string" || typeof obj.time !== "string") return null;
    const time = parseIsoStamp(obj.time);
    if (!time) return null;
    const stream = typeof obj.stream === "string" ? obj.stream : "stdout";
    const full = obj.log.endsWith("\n");
    const payload = full ? obj.log.slice(0, obj.log.endsWith("\r\n") ? -2 : -1) : obj.log;
    return this.piece(time, stream, payload, full);
  }
}

const SNIFF = /^\{"log":".*","stream":"(?:stdout|stderr)","time":"\d{4}-/;

/** Format spec: Docker json-file container logs. */
export const dockerJsonSpec: FormatSpec = {
  name: "docker-json",
  kind: "container",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser: (ctx) => new DockerJsonParser(ctx),
  samples: [
    {
      line: '{"log":"listening on :8080\\n","stream":"stdout","time":"2021-05-19T04:20:09.10473Z"}',
      path: "var/log/pods/default_web-7d9c6b5f4-x2x9q_0f0e/web/0.log",
      expect: {
        time: { year: 2021, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 104, offsetMin: 0, precision: "us" },
        ident: "web",
        component: "web",
        message: "listening on :8080",
        fields: { stream: "stdout" },
      },
    },
    {
      // a split line: the pieces are joined, then parsed (flannel's klog)
      line: '{"log":"I0519 04:20:10.100200       1 main.go:231] Created subnet ","stream":"stderr","time":"2021-05-19T04:20:10.1003Z"}',
      after: ['{"log":"manager: Kubernetes Subnet Manager - node-p\\n","stream":"stderr","time":"2021-05-19T04:20:10.1004Z"}'],
      path: "var/log/containers/kube-flannel-ds-abcde_kube-system_kube-flannel-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.log",
      expect: {
        time: { year: 2021, month: 5, day: 19, hour: 4, minute: 20, second: 10, ms: 100, offsetMin: 0, precision: "us" },
        component: "flannel",
        message: "Created subnet manager: Kubernetes Subnet Manager - node-p",
      },
    },
  ],
  notMine: [
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    "2025-05-19T04:20:09.10473Z stderr F listening on :8080",
    '{"log":"no time","stream":"stdout"}',
  ],
};
