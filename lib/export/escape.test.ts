import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvRow, escapeMarkdown, markdownCode, markdownLink, markdownTableCell } from "./escape";

/** A minimal RFC 4180 reader for one record (the test's oracle). */
function parseCsvRecord(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = "";
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (line[i] === '"' && line[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else field += line[i++];
      }
    } else while (i < line.length && line[i] !== "," && !(line[i] === "\r" && line[i + 1] === "\n" && i + 2 === line.length)) field += line[i++];
    out.push(field);
    if (line[i] === ",") i++;
    else return out;
  }
}

describe("Markdown", () => {
  it("keeps log text literal: no HTML, no emphasis, no links, one line", () => {
    const line = '<script>alert(1)</script> *bold* [x](javascript:alert(1)) `code` | a\nb & c';
    const md = escapeMarkdown(line);
    expect(md).not.toMatch(/<|(?<!\\)[*[\]`|]/);
    expect(md).toBe("&lt;script&gt;alert\\(1\\)&lt;/script&gt; \\*bold\\* \\[x\\]\\(javascript:alert\\(1\\)\\) \\`code\\` \\| a b &amp; c");
    expect(markdownTableCell("a|b")).toBe("a\\|b");
  });

  it("code spans outrun the backticks inside", () => {
    expect(markdownCode("a `b` c")).toBe("``a `b` c``");
    expect(markdownCode("`x`")).toBe("`` `x` ``");
    expect(markdownCode("line1\nline2")).toBe("`line1 line2`");
  });

  it("links only to http(s) or this site", () => {
    expect(markdownLink("boot 2", "/i/abc/n/node-a/b/k?from=1")).toBe("[boot 2](/i/abc/n/node-a/b/k?from=1)");
    expect(markdownLink("x", "javascript:alert(1)")).toBe("x");
    expect(markdownLink("x", "//evil.example/")).toBe("x");
    expect(markdownLink("a]b", "https://h/p (1)")).toBe("[a\\]b](https://h/p%20%281%29)");
  });

  it("never lets an unescaped special character or a raw < through (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const md = escapeMarkdown(s);
        expect(md).not.toMatch(/[<\n\r]/);
        // every special character is preceded by a backslash that is itself not escaped
        const stripped = md.replace(/\\[\\`*_{}[\]()#+\-.!|~]/g, "").replace(/&(amp|lt|gt);/g, "");
        expect(stripped).not.toMatch(/[\\`*_{}[\]()#+\-.!|~<>&]/);
      }),
      { numRuns: 500 },
    );
  });
});

describe("CSV", () => {
  it("quotes, doubles quotes and defuses formulas", () => {
    expect(csvCell('say "hi", bye')).toBe('"say ""hi"", bye"');
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-cmd|' /C calc'!A0")).toBe("'-cmd|' /C calc'!A0");
    expect(csvCell("@SUM(1)")).toBe("'@SUM(1)");
    expect(csvCell("a\nb")).toBe('"a\nb"');
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(null)).toBe("");
    expect(csvRow(["a", 1, null])).toBe("a,1,\r\n");
  });

  it("round-trips any text through an RFC 4180 reader, formulas defused (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { minLength: 1, maxLength: 6 }), (cells) => {
        const back = parseCsvRecord(csvRow(cells));
        expect(back).toEqual(cells.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)));
      }),
      { numRuns: 500 },
    );
  });
});
