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
 * Writes the Calico nodename race (INCIDENTS.md pattern 2, generator defaults) as an
 * EKS-style `.tar.gz` into a fresh temp folder and returns its path.
 */
export async function calicoBundle(): Promise<string> {
  const s = generateCalicoNodename();
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-"));
  const file = path.join(dir, s.truth.archiveName.endsWith(".tar.gz") ? s.truth.archiveName : "calico.tar.gz");
  await writeFile(file, buildTarGz(s.files.map((f) => ({ path: f.path, content: f.content, mtimeMs: s.truth.collectedMs }))));
  return file;
}
