/**
 * Event messages a page wrapped at blanks, in every shape an event message is read in: describe
 * rows going on at column 0, a quoted message, and the cut a terminal made inside a word, which
 * joins with nothing between. Inputs written from the printers' documented output.
 */
import { describe, expect, it } from "vitest";
import { expectAccounting } from "../testing/parse-cases";
import { parseFile } from "./parse-file";

const collectedMs = Date.parse("2024-05-01T09:00:00Z");
const ID = "c12c2da4f73e07e5ec87da29c3fc43ca741368fb45756f68373ecab1cce21c73";

describe("describe rows wrapped at blanks onto column 0", () => {
  const text = [
    "Events:",
    "  Type     Reason                  Age   From     Message",
    "  ----     ------                  ----  ----     -------",
    "  Warning  FailedCreatePodSandBox  25s   kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox",
    `"${ID}": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd`,
    '(shim): failed to send CNI request: Post "http://dummy/cni": dial unix /run/multus/multus.sock: connect: connection refused',
    "  Warning  FailedCreatePodSandBox  10s   kubelet  Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
    "",
    "Failed to create pod sandbox: rpc error: code = Unknown desc = quoted on its own",
    "Dec 21 18:07:30 node-p kubelet[47918]: I1221 18:07:30.342356   47918 kubelet.go:1] after the table",
  ].join("\n");
  const f = parseFile("describe.txt", text, { collectedMs, year: 2023 });

  it("the pieces join the row after one blank; the id and the cause come out whole", () => {
    expect(f.format).toBe("describe-events");
    expect(f.records[0].message).toBe(
      `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${ID}": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): failed to send CNI request: Post "http://dummy/cni": dial unix /run/multus/multus.sock: connect: connection refused`,
    );
    expect(f.records[1].message).toBe("Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded");
    expectAccounting(f);
  });

  it("after a blank line, an event message of its own and a journal line are records, not pieces of the row", () => {
    expect(f.counts).toMatchObject({ records: 4, continuation: 2, skipped: 0 });
    expect(f.records[2]).toMatchObject({ line: 9, component: "k8s-events" });
    expect(f.records[3]).toMatchObject({ line: 10, component: "kubelet" });
  });
});

describe("a quoted event message cut by a terminal inside a word", () => {
  it("a piece under a line of the file's width, cut inside a word, joins with nothing between", () => {
    const msg = `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${ID}": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory`;
    const lines: string[] = [];
    for (let i = 0; i < msg.length; i += 80) lines.push(msg.slice(i, i + 80));
    const f = parseFile("quoted.txt", lines.join("\n"), {});
    expect(f.format).toBe("k8s-message");
    expect(f.counts).toMatchObject({ records: 1, skipped: 0 });
    expect(f.records[0].message).toBe(msg);
  });
});
