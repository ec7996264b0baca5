/**
 * The honest markers of the Markdown export: a node named after the upload is marked "not named by
 * the logs" (with what it means under the table), and a finding whose numbers are approximate says
 * why on its own line, not among the metrics.
 */
import { describe, expect, it } from "vitest";
import { renderIncidentMarkdown, type TMarkdownIncident } from "./markdown";

const T0 = Date.parse("2020-04-21T19:45:18.491Z");
const NODE = "pasted-2026-03-14-0300";
const REASON = "T+0 is the boot's earliest event (no kernel start or boot marker in the data)";

function model(nameSource: string, metrics: Record<string, unknown>): TMarkdownIncident {
  return {
    origin: "https://bootline.example",
    exportedAt: Date.parse("2026-03-15T09:00:00Z"),
    incident: { id: "Ab12Cd34Ef56Gh78", title: "pasted kubelet lines", createdAt: Date.parse("2026-03-14T03:00:00Z"), notes: null },
    nodes: [
      {
        id: 1,
        name: NODE,
        aliases: [],
        nameSource,
        boots: [{ id: 1, bootKey: "inferred-1", startMs: T0, endMs: T0 + 1, detectedBy: "first-event", startApprox: true, index: 1, findings: 1 }],
      },
    ],
    findings: [
      {
        id: 1,
        detector: "sandbox-failure-window",
        severity: "high",
        nodeName: NODE,
        bootKey: "inferred-1",
        bootStartMs: T0,
        startMs: T0,
        endMs: null,
        title: "Sandbox failure window from T+0.000 s, still open: 1 attempt, 1 pod",
        explanation: "1 failed sandbox attempt from 1 pod since T+0.000 s after boot.",
        metrics,
        evidenceCount: 2,
      },
    ],
    notes: [],
  };
}

describe("Markdown markers", () => {
  it("marks a node named after the upload and says what that means", () => {
    const md = renderIncidentMarkdown(model("upload", { attempts: 1 }));
    expect(md).toContain("| pasted-2026-03-14-0300 (not named by the logs) | 1 of 1 `inferred-1` |");
    expect(md).toMatch(
      /^_not named by the logs: none of the node's log lines named a node, so it was named after the uploaded file; rename it on the incident page/m,
    );
  });

  it("does not mark nodes the logs or a reviewer named", () => {
    for (const src of ["logs", "reviewer"]) expect(renderIncidentMarkdown(model(src, { attempts: 1 }))).not.toContain("not named by the logs");
  });

  it("gives the reasons a finding is approximate on their own line", () => {
    const md = renderIncidentMarkdown(
      model("logs", { attempts: 1, pods: 1, approximate: [REASON, "ages anchored at the upload time: give the collection time"] }),
    );
    expect(md).toContain(
      "- **Approximate:** T+0 is the boot's earliest event (no kernel start or boot marker in the data); ages anchored at the upload time: give the collection time",
    );
    expect(md).not.toMatch(/\*\*Numbers:\*\*[^#]*approximate/);
    expect(renderIncidentMarkdown(model("logs", { attempts: 1, approximate: [] }))).not.toContain("**Approximate:**");
  });
});
