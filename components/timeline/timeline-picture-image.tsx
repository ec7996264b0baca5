/**
 * The timeline picture (lib/export/timeline-picture.ts) as an element tree for next/og
 * (satori): the shapes as one SVG image, every text box as a positioned div (satori draws
 * text with its bundled font; text inside an SVG image would need fonts the rasteriser does
 * not have). Server-only; used by the `timeline.png` route.
 */
import { renderTimelineSvg, type TPicture, type TTextBox } from "@/lib/export/timeline-picture";

/**
 * Text the bundled font (Geist) can draw: anything else becomes "?". A missing glyph would
 * make next/og fetch a font from Google Fonts with the text in the request: log text and
 * notes must not leave the machine that way.
 */
export function pngSafeText(s: string): string {
  return s.replace(/[^\u0020-\u007e\u00a0-\u017f\u2013\u2014\u2018-\u201e\u2022\u2026\u2190-\u2193]/gu, "?");
}

function box(t: TTextBox) {
  const left = t.anchor === "start" ? t.x : t.anchor === "middle" ? t.x - t.maxW / 2 : t.x - t.maxW;
  return {
    position: "absolute" as const,
    left,
    top: t.y,
    width: t.maxW,
    display: "flex",
    justifyContent: t.anchor === "start" ? "flex-start" : t.anchor === "middle" ? "center" : "flex-end",
    fontSize: t.size,
    lineHeight: 1,
    color: t.color,
    fontWeight: t.bold ? 700 : 400,
    whiteSpace: "nowrap" as const,
    overflow: "hidden",
  };
}

export function TimelinePictureImage({ picture }: { picture: TPicture }) {
  const svg = `data:image/svg+xml;base64,${Buffer.from(renderTimelineSvg(picture, { text: false })).toString("base64")}`;
  return (
    <div style={{ display: "flex", position: "relative", width: picture.width, height: picture.height, background: picture.background }}>
      {/* eslint-disable-next-line @next/next/no-img-element -- satori draws <img>, not next/image */}
      <img src={svg} width={picture.width} height={picture.height} style={{ position: "absolute", left: 0, top: 0 }} alt="" />
      {picture.texts.map((t, i) => (
        <div key={i} style={box(t)}>
          {pngSafeText(t.text)}
        </div>
      ))}
    </div>
  );
}
