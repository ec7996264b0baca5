/**
 * Grafana Loki's `logcli query` output: each line after the entry's timestamp (RFC 3339, as logcli
 * prints it in its default `--output default` mode, in the local zone or UTC) and the stream's
 * labels in braces, `{host="node-3", job="varlogs"}`; `{}` when every line's labels were printed
 * once above as `Common labels: {…}`. The stamp is the entry's, so records without a stamp of
 * their own take it (as `kubectl logs --timestamps`). Labels: the node from `node_name`,
 * `nodename`, `node`, `hostname`, `host` (in that order; promtail and the Grafana Agent set one
 * of them), the pod, container and namespace from `pod`/`pod_name`, `container`/`container_name`,
 * `namespace`. The labels of `Common labels: {…}` are every line's below it.
 */
import { parseIsoStamp } from "./helpers/time-util";
import type { PrefixFacts, PrefixLayer } from "./prefix-types";

const LABEL = '[A-Za-z_][A-Za-z0-9_]*="(?:[^"\\\\]|\\\\.)*"';
const RE = new RegExp(`^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:Z|[+-]\\d{2}:\\d{2})) \\{((?:${LABEL}(?:, ?${LABEL})*)?)\\} `);
const PAIR = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

const NODE_KEYS = ["node_name", "nodename", "node", "hostname", "host"];

/** The labels of a `{…}` set, unescaped (`\"` and `\\`). */
export function lokiLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(PAIR)) out[m[1]] = m[2].replace(/\\(["\\])/g, "$1");
  return out;
}

/** The node, pod, container and namespace a label set names (see the module comment). */
function labelFacts(l: Record<string, string>, out: PrefixFacts): void {
  for (const k of NODE_KEYS) {
    if (l[k]) {
      out.host = l[k];
      break;
    }
  }
  const pod = l.pod ?? l.pod_name;
  if (pod) out.pod = pod;
  const container = l.container ?? l.container_name;
  if (container) out.container = container;
  if (l.namespace) out.namespace = l.namespace;
}

export const LOKI: PrefixLayer = {
  name: "loki",
  re: RE,
  facts(m, out: PrefixFacts) {
    out.timeText = m[1];
    out.time = parseIsoStamp(m[1]);
    if (m[2]) labelFacts(lokiLabels(m[2]), out);
  },
  shared: {
    re: /^Common labels: \{(.*)\}\s*$/,
    facts: (m, out) => labelFacts(lokiLabels(m[1]), out),
  },
};
