import { describe, expect, it } from "vitest";
import { renderIncidentMarkdown, type TMarkdownIncident } from "./markdown";

// The Calico nodename race of the sample generator (npm run sample -- --scenario calico),
// as the ingest stored it: boot 2 of node ip-10-20-30-40 with a 3.27 s failure window.
const T0 = Date.parse("2026-03-14T02:10:00.000Z");
const NODE = "ip-10-20-30-40.ec2.internal";
const BOOT = "35c8cada66998406f5582925aa04322d";

function model(over: Partial<TMarkdownIncident> = {}): TMarkdownIncident {
  return {
    origin: "https://bootline.example:8443/",
    exportedAt: Date.parse("2026-03-15T09:00:00Z"),
    incident: { id: "Ny6mY1b1DR-yb4uj", title: "prod-eu reboot 03-14", createdAt: Date.parse("2026-03-14T03:01:02Z"), notes: null },
    nodes: [
      {
        id: 1,
        name: NODE,
        aliases: [],
        boots: [
          {
            id: 1,
            bootKey: "inferred-1",
            startMs: Date.parse("2026-03-14T01:41:34.326Z"),
            endMs: Date.parse("2026-03-14T02:09:21.000Z"),
            detectedBy: "first-event",
            startApprox: true,
            index: 1,
            findings: 0,
          },
          {
            id: 2,
            bootKey: BOOT,
            startMs: T0,
            endMs: Date.parse("2026-03-14T02:11:17.493Z"),
            detectedBy: "separator",
            startApprox: false,
            index: 2,
            findings: 2,
          },
        ],
      },
    ],
    findings: [
      {
        id: 7,
        detector: "sandbox-failure-window",
        severity: "high",
        nodeName: NODE,
        bootKey: BOOT,
        bootStartMs: T0,
        startMs: T0 + 11_833,
        endMs: T0 + 15_102,
        title: "Sandbox failure window T+11.833 s → T+15.102 s: 20 attempts, 20 pods",
        explanation:
          "20 failed sandbox attempts from 20 pods between T+11.833 s and T+15.102 s after boot (3.269 s). 20 of them failed with calico-nodename-missing.",
        metrics: {
          pods: 20,
          attempts: 20,
          closedBy: "calico nodename written",
          durationS: 3.269,
          errorClass: "calico-nodename-missing",
          errorClasses: { "calico-nodename-missing": 20 },
        },
        evidenceCount: 120,
      },
      {
        id: 8,
        detector: "retry-storm",
        severity: "medium",
        nodeName: NODE,
        bootKey: BOOT,
        bootStartMs: T0,
        startMs: T0 + 11_833,
        endMs: null,
        title: "Retry storm: 20 sandbox failures/min at peak (T+11.833 s), 20 attempts, 20 pods",
        explanation: "20 failed sandbox attempts from 20 pods.",
        metrics: {
          pods: 20,
          attempts: 20,
          ratePerMin: 20,
          scope: "node",
          partsOf: "pod",
          parts: [
            {
              key: "kube-system/calico-node-x1",
              startMs: T0 + 11_833,
              endMs: null,
              pod: "kube-system/calico-node-x1",
              attempts: 5,
              intervalS: 15.1,
              jitterS: 0.3,
              rhythm: "steady",
              intervalsS: [15, 15.2, 14.8, 15.4],
              firstAfterBootS: 11.833,
              lastAfterBootS: 72.233,
              recovered: false,
            },
            {
              key: "kube-system/ebs-csi-node-2",
              startMs: T0 + 12_000,
              endMs: T0 + 12_000,
              pod: "kube-system/ebs-csi-node-2",
              attempts: 1,
              intervalS: null,
              jitterS: null,
              rhythm: "few",
              intervalsS: [],
              firstAfterBootS: 12,
              lastAfterBootS: 12,
              recovered: true,
            },
          ],
        },
        evidenceCount: 1,
      },
    ],
    notes: [
      {
        id: 3,
        bootId: 2,
        ts: T0 + 11_833,
        eventId: "368",
        text: "first failure: <b>calico</b> not *ready* [see](javascript:alert(1))\nsecond line",
        createdAt: Date.parse("2026-03-15T08:00:00Z"),
        nodeName: NODE,
        bootKey: BOOT,
        eventMessage: "Failed to create pod sandbox: rpc error: code = Unknown desc = `stat /var/lib/calico/nodename` | <img src=x onerror=alert(1)>",
      },
      {
        id: 4,
        bootId: 2,
        ts: T0 + 23_430,
        eventId: null,
        text: "nodename written here",
        createdAt: Date.parse("2026-03-15T08:01:00Z"),
        nodeName: NODE,
        bootKey: BOOT,
        eventMessage: null,
      },
    ],
    ...over,
  };
}

describe("renderIncidentMarkdown", () => {
  const md = renderIncidentMarkdown(model());

  it("states the incident and links to it absolutely", () => {
    expect(md.startsWith("# prod-eu reboot 03-14\n")).toBe(true);
    expect(md).toContain("- **Incident:** [Ny6mY1b1DR-yb4uj](https://bootline.example:8443/i/Ny6mY1b1DR-yb4uj), created 2026-03-14 03:01:02 UTC");
    expect(md).toContain("- **Scope:** 1 node, 2 boots, 2 findings, 2 notes");
    expect(md).toContain("exported from bootline on 2026-03-15 09:00:00 UTC");
  });

  it("lists every boot with its times, span and a timeline link", () => {
    expect(md).toContain(
      `| ip-10-20-30-40.ec2.internal | 2 of 2 \`${BOOT}\` | 2026-03-14 02:10:00.000 | 2026-03-14 02:11:17.493 | 77.5 s | journal boot separator | 2 | [open](https://bootline.example:8443/i/Ny6mY1b1DR-yb4uj/n/ip-10-20-30-40.ec2.internal/b/${BOOT}) |`,
    );
    expect(md).toContain("| 1 of 2 `inferred-1` | 2026-03-14 01:41:34.326 (approximate) |");
  });

  it("folds a storm's pods into one table under its finding, the numbers kept out of the list", () => {
    expect(md).toContain(
      [
        "**2 pods:**",
        "",
        "| pod | attempts | median interval | largest gap from the median | rhythm | first failure | last failure |",
        "|---|---:|---:|---:|---|---:|---:|",
        "| `kube-system/calico-node-x1` | 5 | 15.1 s | 0.3 s | steady | T+11.833 s | T+72.233 s |",
        "| `kube-system/ebs-csi-node-2` | 1 | – | – | too few attempts to judge | T+12.000 s | T+12.000 s |",
        "",
      ].join("\n"),
    );
    expect(md).not.toContain("intervalsS");
    expect(md.match(/^\| pod \|/gm)).toHaveLength(1);
  });

  it("gives each finding its numbers and a permalink to its window with the finding selected", () => {
    expect(md).toContain("### 1. HIGH · sandbox-failure-window · Sandbox failure window T+11.833 s → T+15.102 s: 20 attempts, 20 pods");
    expect(md).toContain(`- **Where:** node \`${NODE}\`, boot 2 of 2 (\`${BOOT}\`), T+0 2026-03-14 02:10:00.000 UTC`);
    expect(md).toContain("- **Window:** 2026-03-14 02:10:11.833 UTC (T+11.833s) → 2026-03-14 02:10:15.102 UTC (T+15.102s), 3.27 s");
    // metrics in words with units, as a list; the one error class is not listed twice
    expect(md).toContain(
      [
        "- **Numbers:**",
        "  - failed attempts: 20",
        "  - pods: 20",
        "  - cause (error class): `calico-nodename-missing`",
        "  - closed by: calico nodename written",
        "  - lasted: 3.269 s",
        "- **Evidence:**",
      ].join("\n"),
    );
    expect(md).not.toMatch(/durationS|errorClass|closedAfterBootS/);
    // the known cause: what it means, what to do, its public reports and fixes
    expect(md).toContain("- **Cause:** Calico nodename not written yet. The Calico CNI plugin refuses every ADD and DEL");
    expect(md).toContain("- **Next steps:**\n  1. Find why calico-node was slow to write the nodename");
    expect(md).toContain("  - fix: [projectcalico/cni-plugin#480](https://github.com/projectcalico/cni-plugin/pull/480), introduced the nodename file check");
    expect(md).toContain("- **Evidence:** 120 events cited");
    // 15 % of 3.269 s on each side (at least 1 s): 02:10:10.833 to 02:10:16.102
    expect(md).toContain(
      `- **Permalink:** [timeline at this window, evidence highlighted](https://bootline.example:8443/i/Ny6mY1b1DR-yb4uj/n/ip-10-20-30-40.ec2.internal/b/${BOOT}?from=2026-03-14T02:10:10.833Z&to=2026-03-14T02:10:16.102Z&finding=7)`,
    );
    expect(md).toContain("> 20 failed sandbox attempts from 20 pods between T+11.833 s and T+15.102 s after boot (3.269 s).");
    // an open window: one minute shown, "still open" said
    expect(md).toContain("### 2. MEDIUM · retry-storm");
    expect(md).toContain("- **Window:** 2026-03-14 02:10:11.833 UTC (T+11.833s) → still open at the end of the data");
    expect(md).toContain("- **Numbers:**\n  - failed attempts: 20\n  - pods: 20\n  - peak failure rate: 20 / min\n- **Evidence:**");
    expect(md).toContain("- **Evidence:** 1 event cited");
    // open: a minute from its start, padded by 9 s (15 %) on each side
    expect(md).toContain("?from=2026-03-14T02:10:02.833Z&to=2026-03-14T02:11:20.833Z&finding=8)");
  });

  it("keeps notes and log text literal: no HTML, no emphasis, no injected links", () => {
    expect(md).toContain(`### ip-10-20-30-40.ec2.internal, boot 2 of 2`);
    expect(md).toContain(
      `- **T+11.833s · 2026-03-14 02:10:11.833 UTC** ([event 368](https://bootline.example:8443/i/Ny6mY1b1DR-yb4uj/n/ip-10-20-30-40.ec2.internal/b/${BOOT}?from=2026-03-14T02:10:06.833Z&to=2026-03-14T02:10:16.833Z&ev=368)): first failure: \\<b>calico\\</b> not \\*ready\\* [see\\](javascript:alert(1)) second line`,
    );
    // the event's message as one code span that outruns its backticks
    expect(md).toContain(
      "  - event: ``Failed to create pod sandbox: rpc error: code = Unknown desc = `stat /var/lib/calico/nodename` | <img src=x onerror=alert(1)>``",
    );
    expect(md).toContain("- **T+23.430s · 2026-03-14 02:10:23.430 UTC** ([timeline](");
    // nothing outside code spans opens an HTML tag or a javascript: link
    const outsideCode = md.replace(/(`+)[^`][\s\S]*?\1/g, "");
    expect(outsideCode).not.toMatch(/(?<!\\)<[a-z/!]/i);
    expect(outsideCode).not.toMatch(/(?<!\\)\]\(javascript:/i);
  });

  it("reads as plain text: no backslash before a hyphen, dot or plus sign", () => {
    expect(md).not.toMatch(/\\[-.+]/);
    expect(md).toContain("ip-10-20-30-40.ec2.internal");
  });

  it("names a rewrite loop's writers with their writes, and the turns between them", () => {
    const loop = {
      id: 9,
      detector: "conflist-rewrite-loop",
      severity: "high",
      nodeName: NODE,
      bootKey: BOOT,
      bootStartMs: T0,
      startMs: T0 + 30_000,
      endMs: T0 + 90_000,
      title: "/etc/cni/net.d/05-cilium.conflist rewritten 241 times in 60.000 s (4.000/s) by istio-cni and Cilium",
      explanation: "Two agents overwrite each other: istio-cni (121 writes), Cilium (120 writes), with 240 turns.",
      // the metrics the detector gives on the conflist-loop sample (lib/sample/scenarios.test.ts)
      metrics: {
        path: "/etc/cni/net.d/05-cilium.conflist",
        writes: 241,
        writers: ["istio-cni", "cilium"],
        writesPerS: 4,
        durationS: 60,
        writesByWriter: { "istio-cni": 121, cilium: 120 },
        turns: 240,
        unattributedWrites: 0,
        removals: 0,
        untimedWrites: {},
        ordering: "time",
        firstAfterBootS: 30,
        lastAfterBootS: 90,
      },
      evidenceCount: 362,
    } as TMarkdownIncident["findings"][number];
    const out = renderIncidentMarkdown(model({ findings: [loop] }));
    expect(out).toContain(
      [
        "  - writes: 241",
        "  - writers:",
        "    - `istio-cni`",
        "    - `cilium`",
        "  - write rate (all writers together): 4 / s",
        "  - writes by writer:",
        "    - istio-cni: 121",
        "    - cilium: 120",
        "  - turns (changes of writer between writes): 240",
      ].join("\n"),
    );
    expect(out).not.toMatch(/unattributed|untimed|ordering/);
  });

  it("escapes a hostile incident title and node name and says when there is nothing", () => {
    const empty = renderIncidentMarkdown(
      model({ incident: { id: "abc", title: "# [x](http://evil) <script>", createdAt: 0, notes: "line1\n# line2" }, nodes: [], findings: [], notes: [] }),
    );
    expect(empty.split("\n")[0]).toBe("# \\# [x\\](http://evil) \\<script>");
    expect(empty).toContain("\nline1 # line2\n");
    expect(empty).toContain("No nodes: nothing was parsed into this incident.");
    expect(empty).toContain("No findings.");
    expect(empty).toContain("No notes.");
    expect(empty).not.toMatch(/\n{3}/);
    expect(empty).not.toContain("## Data warnings");
  });

  it("lists the bundles' warnings before the findings", () => {
    const md = renderIncidentMarkdown(
      model({
        warnings: [
          {
            bundle: "eks_cut.tar.gz",
            warnings: [
              "1 file read with problems: var_log/calico/cni/cni.log (cut short: the archive ends inside this file after 3,735 of its 30,714 bytes)",
              "1 line of logs could not be parsed (kept as text; counted by reason in the bundle's files table)",
            ],
          },
        ],
      }),
    );
    const at = md.indexOf("## Data warnings");
    expect(at).toBeGreaterThan(md.indexOf("## Nodes and boots"));
    expect(at).toBeLessThan(md.indexOf("## Findings"));
    expect(md).toContain(
      "- `eks_cut.tar.gz`: 1 file read with problems: var_log/calico/cni/cni.log (cut short: the archive ends inside this file after 3,735 of its 30,714 bytes)",
    );
  });
});

describe("a boot with no finding", () => {
  it("says what was checked and found fine", () => {
    const checks = new Map([
      [
        1,
        {
          bootId: 1,
          failedCreations: 0,
          otherFailures: 0,
          milestones: [
            { label: "runtime up", ts: Date.parse("2026-03-14T01:41:37.426Z") },
            { label: "first sandbox", ts: Date.parse("2026-03-14T01:41:46.326Z") },
          ],
        },
      ],
    ]);
    const md = renderIncidentMarkdown(model({ checks }));
    expect(md).toContain(
      "### Checked and found fine\n\nChecked on every boot: Sandbox failure window, CNI bootstrap deadlock, Retry storm, CNI config rewrite loop, Container runtime degradation, Image pull storm after the reboot.",
    );
    expect(md).toContain(
      "- `ip-10-20-30-40.ec2.internal`, boot 1 of 2: sandbox failure window: none; failed sandbox attempts: 0; milestones seen: runtime up T+3.100 s, first sandbox T+12.000 s\n",
    );
    // boot 2 has findings: not listed as fine
    expect(md.match(/boot 2 of 2: sandbox failure window: none/)).toBeNull();
  });
});
