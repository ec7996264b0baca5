import { afterEach, describe, expect, it } from "vitest";
import { publicOrigin } from "./public-origin";

const h = (o: Record<string, string>) => new Headers(o);

describe("publicOrigin", () => {
  afterEach(() => {
    delete process.env.BOOTLINE_PUBLIC_URL;
  });

  it("uses the forwarded host and scheme, then the host header, then the fallback", () => {
    expect(publicOrigin(h({ host: "10.0.0.5:3000", "x-forwarded-host": "bootline.example", "x-forwarded-proto": "https" }))).toBe("https://bootline.example");
    expect(publicOrigin(h({ host: "127.0.0.1:3300" }), "http://127.0.0.1:3300/api/x")).toBe("http://127.0.0.1:3300");
    expect(publicOrigin(h({ host: "[::1]:3300" }), "http://[::1]:3300/")).toBe("http://[::1]:3300");
    expect(publicOrigin(h({}), "https://fallback.example/a/b")).toBe("https://fallback.example");
  });

  it("ignores a host header that is not a host", () => {
    expect(publicOrigin(h({ host: "evil.example/path?x=<y>" }), "http://127.0.0.1:3300/")).toBe("http://127.0.0.1:3300");
    expect(publicOrigin(h({ host: "a b" }), "http://127.0.0.1:3300/")).toBe("http://127.0.0.1:3300");
  });

  it("prefers BOOTLINE_PUBLIC_URL", () => {
    process.env.BOOTLINE_PUBLIC_URL = "https://bootline.corp.example/some/path";
    expect(publicOrigin(h({ host: "127.0.0.1:3300" }))).toBe("https://bootline.corp.example");
  });
});
