/**
 * A reviewer names the node of a paste that named none: through the real ingest into a fresh
 * PostgreSQL database, then `renameNode`, and the reads that show and find the node.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/connection";
import { useTestDatabaseUrl } from "@/lib/db/test-db";
import { getIncidentMarkdown } from "@/lib/export/get-incident-markdown";
import { enqueueBundle } from "@/lib/ingest/enqueue-bundle";
import { processBundle } from "@/lib/ingest/pipeline";
import { caseText } from "../../tests/cases/cases";
import { getBootView, nodeNameByAlias } from "@/lib/queries/get-boot-view";
import { getIncident } from "./get-incident";
import { checkNodeName, MAX_NODE_NAME, renameNode } from "./rename-node";

let db: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
beforeAll(async () => {
  db = await useTestDatabaseUrl();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `rename-node-${process.pid}`);
});
afterAll(async () => {
  await db?.drop();
});

const PASTE = "pasted-2026-03-14-0300";

/** One incident: a paste of bare kubelet klog (names no node), then a journal of node-p as a second upload. */
async function seed(title: string): Promise<string> {
  const h = await getDb();
  const paste = await enqueueBundle(h, {
    title,
    files: [{ name: `${PASTE}.log`, data: Buffer.from(caseText("079-klog-calico-nodename-triple.log")) }],
    options: { year: 2020 },
  });
  expect((await processBundle(h, paste.bundleId)).status).toBe("ready");
  const journal = await enqueueBundle(h, {
    incident: paste.incidentId,
    files: [{ name: "node-p-journal.log", data: Buffer.from(caseText("009-kubelet-cni-not-initialized-5s-journal-header.log")) }],
    options: {},
  });
  expect((await processBundle(h, journal.bundleId)).status).toBe("ready");
  return paste.incidentId;
}

describe("renameNode", () => {
  it("names the pasted node, keeps the old name as an alias, and refuses names taken or bad", async () => {
    const incidentId = await seed("rename");
    const h = await getDb();
    const before = await getIncident({ incidentId });
    expect(before.nodes.map((n) => [n.name, n.nameSource])).toEqual([
      ["node-p", "logs"],
      [PASTE, "upload"],
    ]);
    const pasted = before.nodes.find((n) => n.name === PASTE)!;
    const nodeP = before.nodes.find((n) => n.name === "node-p")!;
    const bootKey = pasted.boots[0].bootKey;
    expect((await getIncidentMarkdown({ incidentId, origin: "http://x" })).markdown).toContain("(not named by the logs) |");

    // taken by another node of the incident: 409, nothing changed
    await expect(renameNode(h, { incidentId, nodeId: pasted.id, name: " node-p " })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("node-p"),
    });
    // empty, over-long, control characters: 400; unknown node or another incident's: 404
    await expect(renameNode(h, { incidentId, nodeId: pasted.id, name: "   " })).rejects.toMatchObject({ code: "bad_request" });
    await expect(renameNode(h, { incidentId, nodeId: pasted.id, name: "n".repeat(MAX_NODE_NAME + 1) })).rejects.toMatchObject({ code: "bad_request" });
    await expect(renameNode(h, { incidentId, nodeId: pasted.id, name: "a\nb" })).rejects.toMatchObject({ code: "bad_request" });
    await expect(renameNode(h, { incidentId: "nope", nodeId: pasted.id, name: "x" })).rejects.toMatchObject({ code: "not_found" });
    expect((await getIncident({ incidentId })).nodes.find((n) => n.id === pasted.id)).toMatchObject({ name: PASTE, nameSource: "upload", aliases: [] });

    const r = await renameNode(h, { incidentId, nodeId: pasted.id, name: "  ip-10-0-3-17.ec2.internal " });
    expect(r).toEqual({ id: pasted.id, name: "ip-10-0-3-17.ec2.internal", aliases: [PASTE], nameSource: "reviewer", previous: PASTE });
    const after = await getIncident({ incidentId });
    expect(after.nodes.map((n) => [n.name, n.nameSource, n.aliases])).toEqual([
      ["ip-10-0-3-17.ec2.internal", "reviewer", [PASTE]],
      ["node-p", "logs", []],
    ]);
    // the files and the findings follow the node
    const files = after.bundles.flatMap((b) => b.files.map((f) => [f.path, f.nodeName]));
    expect(files).toEqual([
      [`${PASTE}.log`, "ip-10-0-3-17.ec2.internal"],
      ["node-p-journal.log", "node-p"],
    ]);
    const window = after.findings.find((f) => f.detector === "sandbox-failure-window")!;
    expect(window.nodeName).toBe("ip-10-0-3-17.ec2.internal");
    expect(window.metrics.attempts).toBe(1);
    expect((await getIncidentMarkdown({ incidentId, origin: "http://x" })).markdown).not.toContain("not named by the logs");

    // the old name still finds the node (old permalinks redirect); the new one opens its boot
    expect(await nodeNameByAlias({ incidentId, alias: PASTE })).toBe("ip-10-0-3-17.ec2.internal");
    expect(await nodeNameByAlias({ incidentId, alias: "node-q" })).toBeNull();
    const view = await getBootView({ incidentId, node: "ip-10-0-3-17.ec2.internal", bootKey });
    expect(view.node).toMatchObject({ name: "ip-10-0-3-17.ec2.internal", nameSource: "reviewer" });
    await expect(getBootView({ incidentId, node: PASTE, bootKey })).rejects.toMatchObject({ code: "not_found" });

    // a later upload whose records again name no node, with the same name: the renamed node, not a new one
    const again = await enqueueBundle(h, {
      incident: incidentId,
      files: [{ name: `${PASTE}.log`, data: Buffer.from(`${caseText("079-klog-calico-nodename-triple.log")}\n`) }],
      options: { year: 2020 },
    });
    expect((await processBundle(h, again.bundleId)).status).toBe("ready");
    expect((await getIncident({ incidentId })).nodes.map((n) => [n.name, n.nameSource])).toEqual([
      ["ip-10-0-3-17.ec2.internal", "reviewer"],
      ["node-p", "logs"],
    ]);

    // the old name is an alias of this node: another node cannot take it
    await expect(renameNode(h, { incidentId, nodeId: nodeP.id, name: PASTE })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("another name of node"),
    });
    // back to the old name: allowed (it is this node's own alias), and the other name is kept
    const back = await renameNode(h, { incidentId, nodeId: pasted.id, name: PASTE });
    expect(back).toMatchObject({ name: PASTE, aliases: ["ip-10-0-3-17.ec2.internal"], nameSource: "reviewer" });
    // its current name again: confirms it (source reviewer), aliases unchanged
    expect(await renameNode(h, { incidentId, nodeId: pasted.id, name: PASTE })).toMatchObject({ name: PASTE, aliases: ["ip-10-0-3-17.ec2.internal"] });
  });

  it("checkNodeName trims and refuses what cannot be a name", () => {
    expect(checkNodeName("  worker-1 ")).toBe("worker-1");
    expect(() => checkNodeName("")).toThrow(/give the node a name/);
    expect(() => checkNodeName("x".repeat(254))).toThrow(/at most 253/);
    expect(() => checkNodeName("a\tb")).toThrow(/control characters/);
  });
});
