import fc from "fast-check";
import MarkdownIt from "markdown-it";
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

const md = new MarkdownIt("default", { html: true });

/** What a CommonMark/GFM reader makes of `escaped` as a document: its tokens, and its text when it is one plain paragraph. */
function readBack(escaped: string): { plain: boolean; text: string } {
  const blocks = md.parse(escaped, {});
  if (blocks.length === 0) return { plain: true, text: "" };
  const inline = blocks[1];
  const plain =
    blocks.length === 3 && blocks[0].type === "paragraph_open" && inline.type === "inline" && (inline.children ?? []).every((t) => t.type === "text");
  return { plain, text: (inline?.children ?? []).map((t) => t.content).join("") };
}

describe("Markdown", () => {
  it("keeps log text literal: no HTML, no emphasis, no links, one line", () => {
    const line = "<script>alert(1)</script> *bold* [x](javascript:alert(1)) `code` | a\nb & c &amp; _x_ snake_case";
    const out = escapeMarkdown(line);
    expect(out).toBe("\\<script>alert(1)\\</script> \\*bold\\* [x\\](javascript:alert(1)) \\`code\\` | a b & c \\&amp; \\_x\\_ snake_case");
    expect(readBack(out)).toEqual({ plain: true, text: line.replace("\n", " ") });
    expect(markdownTableCell("a|b")).toBe("a\\|b");
  });

  it("leaves dots, hyphens and plus signs of names and times alone", () => {
    expect(escapeMarkdown("ip-10-20-30-40.ec2.internal at T+12.103 s (3.269 s)")).toBe("ip-10-20-30-40.ec2.internal at T+12.103 s (3.269 s)");
    expect(escapeMarkdown("kube-system/calico-node-x7k2p")).toBe("kube-system/calico-node-x7k2p");
  });

  it("escapes a block marker only at the start", () => {
    expect(escapeMarkdown("# a # b")).toBe("\\# a # b");
    expect(escapeMarkdown("- a - b")).toBe("\\- a - b");
    expect(escapeMarkdown("> a > b")).toBe("\\> a > b");
    expect(escapeMarkdown("12. a 12. b")).toBe("12\\. a 12. b");
    expect(escapeMarkdown("3.269 s, #3, -x, +1")).toBe("3.269 s, #3, -x, +1");
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
    expect(markdownLink("a]b", "https://h/p (1)")).toBe("[a]b](https://h/p%20%281%29)");
    expect(markdownLink("a](b", "https://h/")).toBe("[a\\](b](https://h/)");
  });

  it("reads back as the same text, one plain paragraph, through a CommonMark reader (property)", () => {
    const chars = fc.constantFrom(
      ..."ab1 _*`~[]()<>&;#!\\|-+.=:/?x".split(""),
      "- ",
      "1. ",
      "# ",
      "---",
      "===",
      "&amp;",
      "&#35;",
      "\n",
      "<a>",
      "](",
      "1.",
      "www.x",
    );
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 30 }).map((a) => a.join("").trim()),
        (s) => {
          const out = escapeMarkdown(s);
          expect(out).not.toMatch(/[\n\r]/);
          expect(readBack(out)).toEqual({ plain: true, text: s.replace(/\n/g, " ") });
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("CSV", () => {
  it("quotes, doubles quotes and defuses formulas", () => {
    expect(csvCell('say "hi", bye')).toBe('"say ""hi"", bye"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
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
