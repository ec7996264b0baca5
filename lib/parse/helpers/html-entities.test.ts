import { describe, expect, it } from "vitest";
import { decodeEntities, hasEntities } from "./html-entities";

describe("decodeEntities", () => {
  it("decodes decimal, hexadecimal and the five named references", () => {
    expect(decodeEntities("Get &#34;http://localhost/v1/config&#34;: dial unix")).toBe('Get "http://localhost/v1/config": dial unix');
    expect(decodeEntities("&#x22;a&#X27;b&#39;")).toBe(`"a'b'`);
    expect(decodeEntities("&lt;none&gt; &amp; &quot;x&quot; &apos;y&apos;")).toBe(`<none> & "x" 'y'`);
    expect(decodeEntities("&#x1F600;")).toBe("\u{1F600}");
  });

  it("leaves other entities, out-of-range code points and bare ampersands as written, in one pass", () => {
    expect(decodeEntities("a &nbsp; b &copy; &#0; &#xD800; &#1114112; R&D &amp c")).toBe("a &nbsp; b &copy; &#0; &#xD800; &#1114112; R&D &amp c");
    expect(decodeEntities("&amp;#34;")).toBe("&#34;");
  });

  it("hasEntities is true only where something would be decoded", () => {
    expect(hasEntities('plain "text" & more')).toBe(false);
    expect(hasEntities("&#0; &nbsp;")).toBe(false);
    expect(hasEntities("x &#34;y&#34;")).toBe(true);
    expect(hasEntities("a &amp; b")).toBe(true);
  });
});
