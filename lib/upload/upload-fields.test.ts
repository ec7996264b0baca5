import { describe, expect, it } from "vitest";
import { checkUploadFields, normaliseCollected } from "./upload-fields";

const none = { node: "", tz: "", year: "", collected: "" };

describe("checkUploadFields", () => {
  it("takes empty fields as none", () => {
    expect(checkUploadFields(none)).toEqual({ ok: true, options: { node: undefined, tz: undefined, year: undefined, collectedMs: undefined } });
    expect(checkUploadFields({ node: "  ", tz: " ", year: " ", collected: "  " })).toMatchObject({ ok: true, options: { year: undefined } });
  });

  it("gives the values as the server takes them: trimmed, the year a number, the collection time UTC ms", () => {
    expect(checkUploadFields({ node: " ip-10-0-3-17 ", tz: " Europe/Berlin ", year: "2026", collected: "2026-03-14 02:30:00" })).toEqual({
      ok: true,
      options: { node: "ip-10-0-3-17", tz: "Europe/Berlin", year: 2026, collectedMs: Date.parse("2026-03-14T02:30:00Z") },
    });
    expect(checkUploadFields({ ...none, collected: "2026-03-14T04:30:00+02:00" })).toMatchObject({
      options: { collectedMs: Date.parse("2026-03-14T02:30:00Z") },
    });
  });

  it("accepts the zones the parser reads: IANA names and offsets", () => {
    for (const tz of ["UTC", "+02:00", "-0700", "UTC+9", "America/New_York"]) expect(checkUploadFields({ ...none, tz }).ok).toBe(true);
  });

  it("names the first field the server would refuse", () => {
    expect(checkUploadFields({ ...none, tz: "Mars/Olympus" })).toEqual({
      ok: false,
      message: "unknown time zone “Mars/Olympus” (use an IANA name such as Europe/Berlin, or an offset such as +02:00)",
    });
    expect(checkUploadFields({ ...none, tz: "x".repeat(65) })).toMatchObject({ ok: false, message: expect.stringMatching(/^time zone: /) });
    for (const year of ["1969", "2101", "20x6", "2026.5"])
      expect(checkUploadFields({ ...none, year })).toEqual({ ok: false, message: "year must be a four-digit year between 1970 and 2100" });
    expect(checkUploadFields({ ...none, collected: "yesterday" })).toEqual({
      ok: false,
      message: "collection time: not a date (ISO 8601, as 2026-03-14T02:10:00Z)",
    });
    expect(checkUploadFields({ ...none, collected: "2999-01-01T00:00:00Z" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^collection time: .*a day from now/),
    });
    expect(checkUploadFields({ ...none, node: "n".repeat(254) })).toMatchObject({ ok: false, message: expect.stringMatching(/^node name: /) });
    expect(checkUploadFields({ ...none, node: "a\0b" })).toEqual({ ok: false, message: "node name: holds a NUL character" });
  });
});

describe("normaliseCollected", () => {
  it("reads a space as T and a zone-less time as UTC; a date alone or a zoned time stays", () => {
    expect(normaliseCollected(" 2026-03-14 02:30:00 ")).toBe("2026-03-14T02:30:00Z");
    expect(normaliseCollected("2026-03-14T02:30:00+0200")).toBe("2026-03-14T02:30:00+0200");
    expect(normaliseCollected("2026-03-14")).toBe("2026-03-14");
  });
});
