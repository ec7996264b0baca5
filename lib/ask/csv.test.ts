import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";

describe("toCsv", () => {
  it("quotes what needs quoting and keeps NULL apart from an empty string", () => {
    const columns = [
      { name: "id", type: "int8", numeric: true },
      { name: "message", type: "text", numeric: false },
    ];
    expect(
      toCsv({
        columns,
        rows: [
          ["1", 'said "hi", twice\nthen left'],
          ["2", null],
          ["3", ""],
        ],
      }),
    ).toBe('id,message\r\n1,"said ""hi"", twice\nthen left"\r\n2,\r\n3,""\r\n');
  });
});
