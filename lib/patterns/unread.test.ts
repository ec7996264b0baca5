import { describe, expect, it } from "vitest";
import { unreadPatterns } from "./unread";

describe("unreadPatterns", () => {
  it("mines the lines no record, banner or blank took, most frequent first, with each template's first line", () => {
    const lines = [
      "2026-03-14T02:00:00Z read line one", // line 1: a record
      "widget 17 spun up in 3ms",
      "",
      "widget 18 spun up in 5ms",
      "  continuation of a record", // line 5: the record of line 4? no: taken below
      "cache miss for key user/42",
      "widget 19 spun up in 4ms",
    ];
    expect(unreadPatterns(lines, [{ line: 1 }, { line: 5, endLine: 5 }])).toEqual([
      { template: "widget <*> spun up in <*>", count: 3, firstLine: 2 },
      { template: "cache miss for key <*>", count: 1, firstLine: 6 },
    ]);
  });

  it("leaves out the lines a collector's noise rule names and gives nothing for a file read whole", () => {
    const lines = ["Warning: Journal file /var/log/journal/x/system.journal is truncated, ignoring file.", "job 7 queued"];
    expect(unreadPatterns(lines, [], ["journalctl-warnings"])).toEqual([{ template: "job <*> queued", count: 1, firstLine: 2 }]);
    expect(unreadPatterns(["a 1", "b 2"], [{ line: 1, endLine: 2 }])).toEqual([]);
    expect(unreadPatterns([], [])).toEqual([]);
  });
});
