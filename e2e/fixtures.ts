/**
 * Bundles for end-to-end tests, built with the sample generator (lib/sample) so the tests
 * go through the real upload and ingest code with realistic logs.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildTarGz } from "../lib/bundle/tar-build";
import { generateCalicoNodename } from "../lib/sample/calico-boot";

/**
 * Writes the Calico nodename race (the startup race of docs/detectors.md, generator defaults) as an
 * EKS-style `.tar.gz` into a fresh temp folder and returns its path.
 */
export async function calicoBundle(): Promise<string> {
  const s = generateCalicoNodename();
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-"));
  const file = path.join(dir, s.truth.archiveName.endsWith(".tar.gz") ? s.truth.archiveName : "calico.tar.gz");
  await writeFile(file, buildTarGz(s.files.map((f) => ({ path: f.path, content: f.content, mtimeMs: s.truth.collectedMs }))));
  return file;
}

/**
 * Writes the two-boots scenario (the Calico nodename race on the node's boot 2, a healthy
 * boot 3 two hours later; `npm run sample -- --list`) as a `.tar.gz` and returns its path.
 */
export async function twoBootsBundle(): Promise<string> {
  const { bundleTarGz, generateScenario } = await import("../lib/sample/index");
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-"));
  const file = path.join(dir, "two-boots.tar.gz");
  await writeFile(file, bundleTarGz(generateScenario("two-boots")));
  return file;
}

/**
 * Uploads `file` through the upload API (the same ingest as the page) as a new incident
 * titled `title`, waits until the bundle is parsed, and returns the incident id.
 */
export async function seedIncident(request: import("@playwright/test").APIRequestContext, file: string, title: string): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  const res = await request.post("/api/uploads", {
    multipart: { title, files: { name: path.basename(file), mimeType: "application/gzip", buffer: await readFile(file) } },
  });
  if (!res.ok()) throw new Error(`upload failed: ${res.status()} ${await res.text()}`);
  const { incidentId, bundleId } = (await res.json()) as { incidentId: string; bundleId: string };
  for (let i = 0; i < 240; i++) {
    const s = (await (await request.get(`/api/bundles/${bundleId}`)).json()) as { status: string; error: string | null };
    if (s.status === "ready") return incidentId;
    if (s.status === "failed") throw new Error(`ingest failed: ${s.error}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the bundle was not parsed within 2 minutes");
}
