/**
 * The Events section of `kubectl describe` (Rancher `kubectl/poddescribe/<ns>`, `nodesdescribe`,
 * pasted rows): FORMATS.md 3.14, 5b rules ED/ER; upstream kubectl `pkg/describe/describe.go`
 * (`DescribeEvents`), cases 013 and 044.
 *
 *     Events:
 *       Type     Reason                  Age                 From                    Message
 *       ----     ------                  ----                ----                    -------
 *       Warning  FailedCreatePodSandBox  2m                  kubelet, node-p-000000  Failed to create pod sandbox: …
 *       Normal   SandboxChanged          2s (x10 over 119s)  kubelet, node-p-000000  Pod sandbox changed, …
 *
 * Each row is one record (component `k8s-events`). Ages are relative to the collection time
 * (`ParseContext.collectedMs`): the Age is the *last* occurrence, `(xN over D)` gives the count and
 * the age of the *first*. Times are settled once the whole file is read (`finish()`), because the
 * form of the ages (kubectl's long or short form, kube-age.ts) is told by the ages a file contains.
 * `<unknown>` ages and a missing collection time give records without a time.
 *
 * `From` is `source.component`, in older kubectl `kubelet, <node>` (→ node). The pod comes from the
 * describe header (`Name:` / `Namespace:`) when present, else from the rows' own messages
 * (`Successfully assigned ns/name to node`, CNI's `pod "name_ns"`), shared by all rows of a table,
 * as is the node. Headers and section lines are banners (`header`); other describe lines are not
 * this format's (skipped); indented lines inside a table continue the row before.
 */
import { type PendingAgeRecord, parseAgeColumn, settleAges } from "./kube-age";
import type { Banner, FormatSpec, K8sEventInfo, LineParser, LineResult, ParseContext } from "./types";

const ROW_RE =
  /^\s+(Normal|Warning)\s+(\S+)\s+(<unknown>|<invalid>|\d+[smhdy]\w*(?: \(x\d+ over \d+[smhdy]\w*\))?)\s{2,}(\S+(?:, \S+)?)(?:\s{2,}(.*))?$/;
const HEADER_RE = /^\s+Type\s+Reason\s+Age\s+From\s+Message\s*$/;
const RULE_RE = /^\s+----\s+------\s+----\s+----\s+-------\s*$/;
const EVENTS_RE = /^Events:\s*(?:<none>)?\s*$/;
const NAME_RE = /^Name:\s+(\S+)\s*$/;
const NAMESPACE_RE = /^Namespace:\s+(\S+)\s*$/;
const ASSIGNED_RE = /Successfully assigned ([a-z0-9][-a-z0-9.]*)\/([a-z0-9][-a-z0-9.]*) to (\S+)/;
const CNI_POD_RE = /\bpod "([a-z0-9][-a-z0-9.]*)_([a-z0-9][-a-z0-9.]*)"/;

interface Table {
  rows: PendingAgeRecord[];
  pod: { namespace: string | null; name: string } | null;
  node: string | null;
  /** pod from the describe header (wins over messages) */
  fromHeader: boolean;
}

class DescribeEventsParser implements LineParser {
  private readonly collectedMs: number | null;
  private readonly pending: PendingAgeRecord[] = [];
  private readonly tables: Table[] = [];
  private table: Table | null = null;
  private headerName: string | null = null;
  private headerNamespace: string | null = null;
  private inEvents = false;

  constructor(ctx: ParseContext) {
    this.collectedMs = ctx.collectedMs;
  }

  private newTable(): Table {
    const t: Table = { rows: [], pod: null, node: null, fromHeader: false };
    if (this.headerName && this.headerNamespace) {
      t.pod = { namespace: this.headerNamespace, name: this.headerName };
      t.fromHeader = true;
    }
    this.tables.push(t);
    this.table = t;
    return t;
  }

  private banner(): LineResult {
    const b: Banner = { type: "header" };
    return { type: "banner", banner: b };
  }

  parseLine(line: string): LineResult {
    const c = line.charCodeAt(0);
    if (c === 32 || c === 9) {
      const m = ROW_RE.exec(line);
      if (m) return this.row(m);
      if (HEADER_RE.test(line)) {
        if (!this.inEvents || (this.table && this.table.rows.length > 0)) this.newTable();
        this.inEvents = true;
        return this.banner();
      }
      if (RULE_RE.test(line)) return this.banner();
      if (this.inEvents && this.table && this.table.rows.length > 0) return { type: "continuation", text: line.trim() };
      return null;
    }
    if (c === 69 && EVENTS_RE.test(line)) {
      this.inEvents = true;
      this.newTable();
      return this.banner();
    }
    if (c === 78) {
      const n = NAME_RE.exec(line);
      if (n) {
        this.headerName = n[1];
        this.headerNamespace = null;
        this.inEvents = false;
        this.table = null;
        return this.banner();
      }
      const ns = NAMESPACE_RE.exec(line);
      if (ns) {
        this.headerNamespace = ns[1];
        return this.banner();
      }
    }
    this.inEvents = false;
    return null;
  }

  private row(m: RegExpExecArray): LineResult {
    const table = this.table ?? this.newTable();
    this.inEvents = true;
    const [, type, reason, ageText, from, msg = ""] = m;
    const age = parseAgeColumn(ageText);
    const comma = from.indexOf(", ");
    const source = comma > 0 ? from.slice(0, comma) : from;
    let node = comma > 0 ? from.slice(comma + 2) : null;
    const assigned = ASSIGNED_RE.exec(msg);
    if (assigned) {
      if (!table.fromHeader && !table.pod) table.pod = { namespace: assigned[1], name: assigned[2] };
      node ??= assigned[3];
    } else if (!table.fromHeader && !table.pod) {
      const cni = CNI_POD_RE.exec(msg);
      if (cni) table.pod = { namespace: cni[2], name: cni[1] };
    }
    if (node && !table.node) table.node = node;
    const count = age ? age.count : 1;
    const info: K8sEventInfo = {
      reason,
      type,
      count,
      namespace: null,
      objectKind: null,
      objectName: null,
      node,
      firstMs: null,
      lastMs: null,
    };
    const fields: Record<string, string> = { reason, type, count: String(count), age: ageText, source };
    const record = {
      time: null,
      epochMs: null,
      component: "k8s-events",
      severity: (type === "Warning" ? 2 : 1) as 1 | 2,
      message: msg,
      fields,
      k8sEvent: info,
    };
    const p: PendingAgeRecord = { record, last: age ? age.last : null, first: age ? age.first : null };
    this.pending.push(p);
    table.rows.push(p);
    return { type: "record", record };
  }

  finish(): void {
    for (const t of this.tables) {
      for (const p of t.rows) {
        const ev = p.record.k8sEvent;
        const fields = p.record.fields as Record<string, string>;
        if (t.pod) {
          ev.namespace = t.pod.namespace;
          ev.objectKind = "Pod";
          ev.objectName = t.pod.name;
          fields.pod = t.pod.namespace ? `${t.pod.namespace}/${t.pod.name}` : t.pod.name;
          fields.object = `Pod/${t.pod.name}`;
        }
        if (!ev.node && t.node) ev.node = t.node;
        if (ev.node) fields.node = ev.node;
      }
    }
    settleAges(this.pending, this.collectedMs);
  }
}

const ROW_SNIFF = /^\s+(?:Normal|Warning)\s+[A-Z]\w+\s+(?:<unknown>|\d+[smhd]\S*(?: \(x\d+ over \S+\))?)\s{2,}/;

/** Format spec: `kubectl describe` Events sections (relative ages settled against the collection time). */
export const describeEventsSpec: FormatSpec = {
  name: "describe-events",
  kind: "k8s-events",
  sniff(path, lines) {
    let rows = 0;
    for (const l of lines) {
      if (EVENTS_RE.test(l) || HEADER_RE.test(l)) return true;
      if (ROW_SNIFF.test(l)) rows++;
    }
    if (rows > 0 && rows * 2 >= lines.length) return true;
    return /describe/i.test(path) && lines.length > 0 && NAME_RE.test(lines[0]);
  },
  createParser: (ctx) => new DescribeEventsParser(ctx),
  samples: [
    {
      line: "  Normal   SandboxChanged          2s (x10 over 119s)  kubelet, node-p-000000  Pod sandbox changed, it will be killed and re-created.",
      collectedMs: Date.UTC(2020, 6, 8, 10, 0, 0),
      expect: {
        time: null,
        epochMs: Date.UTC(2020, 6, 8, 9, 59, 58),
        epochPrecision: "s",
        component: "k8s-events",
        severity: 1,
        message: "Pod sandbox changed, it will be killed and re-created.",
        k8sEvent: {
          reason: "SandboxChanged",
          type: "Normal",
          count: 10,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: "node-p-000000",
          firstMs: Date.UTC(2020, 6, 8, 9, 58, 1),
          lastMs: Date.UTC(2020, 6, 8, 9, 59, 58),
          firstUncertaintyMs: 1000,
          lastUncertaintyMs: 1000,
        },
      },
    },
    {
      // short (old) form: `1m` = 60 to 119 s ago
      line: "  Warning  FailedCreatePodSandBox  1m (x158 over 6m)  kubelet, node-p-0  Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod \"kube-dns-86f4d74b45-kgjbk_kube-system\" network: stat /var/lib/calico/nodename: no such file or directory",
      collectedMs: Date.UTC(2018, 3, 12, 8, 0, 0),
      expect: {
        epochMs: Date.UTC(2018, 3, 12, 7, 59, 0),
        epochPrecision: "age",
        severity: 2,
        fields: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: "158",
          age: "1m (x158 over 6m)",
          source: "kubelet",
          pod: "kube-system/kube-dns-86f4d74b45-kgjbk",
          object: "Pod/kube-dns-86f4d74b45-kgjbk",
          node: "node-p-0",
        },
      },
    },
    { line: "Events:", expect: { banner: { type: "header" } } },
    {
      line: "  Type     Reason   Age   From     Message",
      expect: { banner: { type: "header" } },
    },
  ],
  notMine: [
    "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "  Normal   Starting",
    "Labels:       app=web",
  ],
};
