/**
 * Character references of XML and HTML in text copied from a web page that escaped it twice (an
 * issue tracker or a dashboard showing an event message as `Get &#34;http://localhost/v1/config&#34;`).
 *
 * Decoded: decimal `&#34;` and hexadecimal `&#x22;` references (code points 1 to 0x10FFFF, not a
 * surrogate), and the five entities XML predefines, `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`
 * (XML 1.0 section 4.6; HTML 5 defines them too). Anything else, a named HTML entity outside those
 * five included, is left as written. One pass: `&amp;#34;` gives `&#34;`, as a browser shows it.
 */

const NAMED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

const REF_RE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g;

/** True when `s` holds a reference `decodeEntities` would replace (cheap test first: an `&`). */
export function hasEntities(s: string): boolean {
  if (s.indexOf("&") < 0) return false;
  REF_RE.lastIndex = 0;
  for (let m = REF_RE.exec(s); m !== null; m = REF_RE.exec(s)) if (refText(m) !== null) return true;
  return false;
}

/** `s` with its character references decoded; `s` itself when it holds none. */
export function decodeEntities(s: string): string {
  if (s.indexOf("&") < 0) return s;
  return s.replace(REF_RE, (whole, dec?: string, hex?: string, name?: string) => refText([whole, dec, hex, name]) ?? whole);
}

function refText(m: ArrayLike<string | undefined>): string | null {
  if (m[3] !== undefined) return NAMED[m[3]];
  const cp = m[1] !== undefined ? Number.parseInt(m[1], 10) : Number.parseInt(m[2] as string, 16);
  if (!(cp >= 1 && cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return String.fromCodePoint(cp);
}
