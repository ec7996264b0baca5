import { describe, expect, it } from "vitest";
import { bootSortParam, DEFAULT_BOOT_SORT, nextBootSort, nodeRuns, parseBootSort, sortBootRows, type TBootSortRow, windowAttempts } from "./boot-sort";

const boot = (
  nodeName: string,
  index: number,
  startMs: number,
  endMs: number | null,
  findings: number,
  attempts: number,
  detectedBy = "boot-id",
): TBootSortRow => ({
  nodeName,
  boot: { index, startMs, endMs, detectedBy, findings, attempts },
});

// the table's own order: nodes by name, boots by T+0
const ROWS: TBootSortRow[] = [
  boot("ip-10-0-0-1", 1, 1_000, 61_000, 0, 0, "first-event"),
  boot("ip-10-0-0-1", 2, 100_000, 400_000, 3, 7182),
  boot("ip-10-0-0-2", 1, 50_000, null, 1, 12, "kubelet-start"),
  { nodeName: "ip-10-0-0-3", boot: null },
  boot("ip-10-0-0-4", 1, 100_000, 130_000, 3, 40),
];
const ids = (rows: TBootSortRow[]) => rows.map((r) => `${r.nodeName.slice(-1)}.${r.boot?.index ?? "-"}`);

describe("parseBootSort / bootSortParam", () => {
  it("reads column-direction and refuses anything else", () => {
    expect(parseBootSort("attempts-desc")).toEqual({ column: "attempts", desc: true });
    expect(parseBootSort("start-asc")).toEqual({ column: "start", desc: false });
    for (const bad of [null, undefined, "", "attempts", "attempts-up", "pods-desc", "ATTEMPTS-desc", "attempts-desc-x"]) expect(parseBootSort(bad)).toBeNull();
  });
  it("writes the default as no parameter and round-trips the rest", () => {
    expect(bootSortParam(DEFAULT_BOOT_SORT)).toBeNull();
    expect(bootSortParam({ column: "node", desc: true })).toBe("node-desc");
    expect(parseBootSort(bootSortParam({ column: "findings", desc: true }))).toEqual({ column: "findings", desc: true });
  });
});

describe("nextBootSort", () => {
  it("turns the sorted column around and starts counts largest first, names and times from the start", () => {
    expect(nextBootSort(DEFAULT_BOOT_SORT, "node")).toEqual({ column: "node", desc: true });
    expect(nextBootSort(DEFAULT_BOOT_SORT, "attempts")).toEqual({ column: "attempts", desc: true });
    expect(nextBootSort({ column: "attempts", desc: true }, "attempts")).toEqual({ column: "attempts", desc: false });
    expect(nextBootSort({ column: "attempts", desc: true }, "start")).toEqual({ column: "start", desc: false });
  });
});

describe("sortBootRows", () => {
  it("keeps the table's own order by default and leaves its input alone", () => {
    const copy = [...ROWS];
    expect(ids(sortBootRows(ROWS, DEFAULT_BOOT_SORT))).toEqual(["1.1", "1.2", "2.1", "3.-", "4.1"]);
    expect(ROWS).toEqual(copy);
  });
  it("sorts nodes the other way with each node's boots still in their order", () => {
    expect(ids(sortBootRows(ROWS, { column: "node", desc: true }))).toEqual(["4.1", "3.-", "2.1", "1.1", "1.2"]);
  });
  it("sorts by failed sandbox attempts, most first, the node without boots last", () => {
    expect(ids(sortBootRows(ROWS, { column: "attempts", desc: true }))).toEqual(["1.2", "4.1", "2.1", "1.1", "3.-"]);
    expect(ids(sortBootRows(ROWS, { column: "attempts", desc: false }))).toEqual(["1.1", "2.1", "4.1", "1.2", "3.-"]);
  });
  it("breaks ties in the table's own order, in both directions", () => {
    // boots 1.2 and 4.1 both start at 100 000 and both have 3 findings
    expect(ids(sortBootRows(ROWS, { column: "start", desc: false }))).toEqual(["1.1", "2.1", "1.2", "4.1", "3.-"]);
    expect(ids(sortBootRows(ROWS, { column: "findings", desc: true }))).toEqual(["1.2", "4.1", "2.1", "1.1", "3.-"]);
  });
  it("puts a boot with no end last by end and by span, whichever way", () => {
    expect(ids(sortBootRows(ROWS, { column: "span", desc: true }))).toEqual(["1.2", "1.1", "4.1", "2.1", "3.-"]);
    expect(ids(sortBootRows(ROWS, { column: "span", desc: false }))).toEqual(["4.1", "1.1", "1.2", "2.1", "3.-"]);
    expect(ids(sortBootRows(ROWS, { column: "end", desc: true }))).toEqual(["1.2", "4.1", "1.1", "2.1", "3.-"]);
  });
  it("sorts by how the boot was detected, by name", () => {
    expect(ids(sortBootRows(ROWS, { column: "detected", desc: false }))).toEqual(["1.2", "4.1", "1.1", "2.1", "3.-"]);
  });
});

describe("nodeRuns", () => {
  it("spans consecutive boots of one node, a node without boots alone", () => {
    expect(nodeRuns(sortBootRows(ROWS, DEFAULT_BOOT_SORT))).toEqual([2, 0, 1, 1, 1]);
    expect(nodeRuns(sortBootRows(ROWS, { column: "attempts", desc: true }))).toEqual([1, 1, 1, 1, 1]);
    expect(nodeRuns([])).toEqual([]);
  });
});

describe("windowAttempts", () => {
  it("adds the failure windows' attempts of one boot and nothing else", () => {
    expect(
      windowAttempts([
        { detector: "sandbox-failure-window", metrics: { attempts: 7182 } },
        { detector: "sandbox-failure-window", metrics: { attempts: 12 } },
        { detector: "retry-storm", metrics: { attempts: 500 } },
        { detector: "sandbox-failure-window", metrics: {} },
      ]),
    ).toBe(7194);
    expect(windowAttempts([])).toBe(0);
  });
});
