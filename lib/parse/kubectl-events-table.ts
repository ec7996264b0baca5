/**
 * `kubectl get events [-A] [-o wide]` and `kubectl events` tables (Rancher `kubectl/events`):
 * FORMATS.md 3.14, 5b rule ET; upstream kubernetes `pkg/printers/internalversion/printers.go`
 * (`eventColumnDefinitions`) and kubectl `pkg/cmd/events`.
 *
 *     NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE
 *     default     11m         Warning   Rebooted    node/ip-10-20-30-40.ec2.internal   Node … has been rebooted, boot id: …
 *
 * Columns are cut at the header's column starts (tabwriter pads every cell of a column to the same
 * width), so messages with spaces and `3m2s (x5 over 10m)` ages stay whole. `-o wide` adds
 * SUBOBJECT, SOURCE, FIRST SEEN, COUNT, NAME. Times are ages relative to the collection time,
 * settled after the whole file (kube-age.ts); the header is a banner (`header`).
 */
import { type Age, type PendingAgeRecord, parseAge, parseAgeColumn, settleAges } from "./kube-age";
import type { FormatSpec, K8sEventInfo, LineParser, LineResult, ParseContext } from "./types";

const HEADER_RE = /^(?:NAMESPACE\s+)?LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+(?:SUBOBJECT\s+SOURCE\s+)?MESSAGE\b/;
const COLUMN_NAMES = ["NAMESPACE", "LAST SEEN", "TYPE", "REASON", "OBJECT", "SUBOBJECT", "SOURCE", "MESSAGE", "FIRST SEEN", "COUNT", "NAME"];

const KINDS: Readonly<Record<string, string>> = {
  pod: "Pod",
  node: "Node",
  deployment: "Deployment",
  replicaset: "ReplicaSet",
  daemonset: "DaemonSet",
  statefulset: "StatefulSet",
  job: "Job",
  cronjob: "CronJob",
  service: "Service",
  endpoints: "Endpoints",
  persistentvolumeclaim: "PersistentVolumeClaim",
  namespace: "Namespace",
};

interface Column {
  name: string;
  start: number;
}

class EventsTableParser implements LineParser {
  private readonly collectedMs: number | null;
  private readonly pending: PendingAgeRecord[] = [];
  private columns: Column[] | null = null;

  constructor(ctx: ParseContext) {
    this.collectedMs = ctx.collectedMs;
  }

  parseLine(line: string): LineResult {
    if (line.charCodeAt(0) === 78 || line.charCodeAt(0) === 76) {
      // NAMESPACE / LAST SEEN
      if (HEADER_RE.test(line)) {
        const cols: Column[] = [];
        for (const name of COLUMN_NAMES) {
          const at = line.search(new RegExp(`(?:^|\\s)${name}(?:\\s|$)`));
          if (at >= 0) cols.push({ name, start: at === 0 ? 0 : at + 1 });
        }
        cols.sort((a, b) => a.start - b.start);
        this.columns = cols;
        return { type: "banner", banner: { type: "header" } };
      }
    }
    if (!this.columns) return null;
    const cells: Record<string, string> = {};
    const cols = this.columns;
    for (let i = 0; i < cols.length; i++) {
      const end = i + 1 < cols.length ? cols[i + 1].start : line.length;
      cells[cols[i].name] = line.slice(cols[i].start, end).trim();
    }
    const type = cells.TYPE;
    if (type !== "Normal" && type !== "Warning") return null;
    const age = parseAgeColumn(cells["LAST SEEN"] ?? "");
    if (!age) return null;
    const reason = cells.REASON ?? "";
    const object = cells.OBJECT ?? "";
    const slash = object.indexOf("/");
    const rawKind = slash > 0 ? object.slice(0, slash) : null;
    const kind = rawKind ? (KINDS[rawKind.toLowerCase()] ?? rawKind) : null;
    const name = slash > 0 ? object.slice(slash + 1) : object || null;
    const namespace = cells.NAMESPACE || null;
    const source = cells.SOURCE ?? "";
    const comma = source.indexOf(", ");
    const node = comma > 0 ? source.slice(comma + 2) : kind === "Node" ? name : null;
    const countCell = cells.COUNT;
    const count = countCell && /^\d+$/.test(countCell) ? Number(countCell) : age.count;
    let first: Age | null = age.first;
    if (cells["FIRST SEEN"] !== undefined) first = parseAge(cells["FIRST SEEN"]) ?? first;
    const info: K8sEventInfo = {
      reason,
      type,
      count,
      namespace,
      objectKind: kind,
      objectName: name,
      node,
      firstMs: null,
      lastMs: null,
    };
    const fields: Record<string, string> = { reason, type, count: String(count), age: age.text };
    if (kind && name) fields.object = `${kind}/${name}`;
    if (kind === "Pod" && name) fields.pod = namespace ? `${namespace}/${name}` : name;
    if (node) fields.node = node;
    if (source) fields.source = comma > 0 ? source.slice(0, comma) : source;
    const record = {
      time: null,
      epochMs: null,
      component: "k8s-events",
      severity: (type === "Warning" ? 2 : 1) as 1 | 2,
      message: cells.MESSAGE ?? "",
      fields,
      k8sEvent: info,
    };
    this.pending.push({ record, last: age.last, first });
    return { type: "record", record };
  }

  finish(): void {
    settleAges(this.pending, this.collectedMs);
  }
}

/** Format spec: `kubectl get events [-A] [-o wide]` / `kubectl events` tables. */
export const kubectlEventsTableSpec: FormatSpec = {
  name: "kubectl-events-table",
  kind: "k8s-events",
  sniff: (_path, lines) => lines.length > 0 && HEADER_RE.test(lines[0]),
  createParser: (ctx) => new EventsTableParser(ctx),
  samples: [
    {
      context: ["NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE"],
      line: "default     11m         Warning   Rebooted    node/ip-10-20-30-40.ec2.internal   Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33",
      collectedMs: Date.UTC(2025, 4, 19, 4, 31, 0),
      expect: {
        time: null,
        epochMs: Date.UTC(2025, 4, 19, 4, 20, 0),
        epochPrecision: "age",
        component: "k8s-events",
        severity: 2,
        message: "Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33",
        k8sEvent: {
          reason: "Rebooted",
          type: "Warning",
          count: 1,
          namespace: "default",
          objectKind: "Node",
          objectName: "ip-10-20-30-40.ec2.internal",
          node: "ip-10-20-30-40.ec2.internal",
          firstMs: Date.UTC(2025, 4, 19, 4, 20, 0),
          lastMs: Date.UTC(2025, 4, 19, 4, 20, 0),
          firstUncertaintyMs: 60_000,
          lastUncertaintyMs: 60_000,
        },
      },
    },
    {
      context: ["LAST SEEN            TYPE      REASON                   OBJECT                    MESSAGE"],
      line: "3m2s (x5 over 10m)   Warning   FailedCreatePodSandBox   Pod/web-7d9c6b5f4-x2x9q   Failed to create pod sandbox: plugin type=\"calico\" failed (add)",
      collectedMs: Date.UTC(2025, 4, 19, 4, 31, 0),
      expect: {
        epochMs: Date.UTC(2025, 4, 19, 4, 27, 58),
        epochPrecision: "s",
        fields: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: "5",
          age: "3m2s (x5 over 10m)",
          object: "Pod/web-7d9c6b5f4-x2x9q",
          pod: "web-7d9c6b5f4-x2x9q",
        },
      },
    },
    {
      line: "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
      expect: { banner: { type: "header" } },
    },
  ],
  notMine: [
    "  Warning  FailedCreatePodSandBox  2m  kubelet, node-p-000000  Failed to create pod sandbox",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
  ],
};
