// The ingest threads' code as one ES module: esbuild bundles lib/ingest/ingest-tasks.ts and its
// imports (npm packages stay imports) into `ingest-tasks.mjs`, beside a list of its inputs with
// their sizes and modification times (`ingest-tasks.mjs.inputs.json`). Threads start faster from
// it than through tsx's loader (docs/scaling.md).
//
// Where it lives: `.build/` in the project (its npm imports resolve from the project's
// node_modules), written by `npm run build` (scripts/build-worker.mjs), so that an install
// that is read-only at run time never writes; when that copy is missing or stale (an input
// changed since: development, tests) it is built again there at run time. Plain JavaScript:
// the worker entry loads it outside any loader.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, "..", "..");
const NAME = "ingest-tasks.mjs";

/** The folder `npm run build` writes the bundle to. */
export const BUILD_DIR = path.join(ROOT, ".build");

/** Is the bundle in `dir` there and built from the inputs as they are now? */
function isFresh(dir) {
  try {
    const inputs = JSON.parse(readFileSync(path.join(dir, `${NAME}.inputs.json`), "utf8"));
    statSync(path.join(dir, NAME));
    return inputs.every(([p, size, mtimeMs]) => {
      const st = statSync(path.join(ROOT, p));
      return st.size === size && st.mtimeMs === mtimeMs;
    });
  } catch {
    return false;
  }
}

/**
 * Builds the bundle into `dir` (created when missing). Several threads may build at once: each
 * writes its own files and renames them into place. Throws when esbuild fails or `dir` is not
 * writable.
 */
export async function buildTasks(dir, tag = String(process.pid)) {
  const esbuild = await import("esbuild");
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, NAME);
  const tmp = `${out}.${tag}`;
  // esbuild's service process would otherwise live as long as this thread
  const r = await esbuild
    .build({
      absWorkingDir: ROOT,
      entryPoints: [path.join(here, "ingest-tasks.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      outfile: tmp,
      metafile: true,
      logLevel: "silent",
    })
    .finally(() => esbuild.stop());
  const inputs = Object.keys(r.metafile.inputs).map((p) => {
    const st = statSync(path.join(ROOT, p));
    return [p, st.size, st.mtimeMs];
  });
  writeFileSync(`${tmp}.inputs.json`, JSON.stringify(inputs));
  renameSync(tmp, out);
  renameSync(`${tmp}.inputs.json`, `${out}.inputs.json`);
  return out;
}

/**
 * URL of a fresh bundle in `dir` (default `BUILD_DIR`), built there first when it is missing or
 * stale. Throws when esbuild cannot build or the folder is not writable (the caller falls back
 * to tsx's loader).
 */
export async function bundledTasks(tag, dir = BUILD_DIR) {
  if (!isFresh(dir)) await buildTasks(dir, tag);
  return pathToFileURL(path.join(dir, NAME)).href;
}
