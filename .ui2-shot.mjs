import { chromium } from "@playwright/test";
const [url, out] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const p = await b.newPage({ viewport: { width: 1440, height: 900 }, timezoneId: "UTC" });
p.on("console", (m) => m.type() === "error" && console.log("console:", m.text()));
p.on("pageerror", (e) => console.log("pageerror:", e.message));
await p.goto(url);
await p.waitForTimeout(Number(process.env.WAIT ?? 4000));
if (process.env.KEYS) for (const k of process.env.KEYS.split(",")) { await p.keyboard.press(k); await p.waitForTimeout(300); }
await p.screenshot({ path: out, fullPage: true });
console.log(await p.evaluate(() => document.querySelector("[data-testid=events-count]")?.textContent));
await b.close();
