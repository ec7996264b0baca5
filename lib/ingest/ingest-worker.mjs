// Worker-thread entry of the ingest pool (ingest-pool.ts): loads the TypeScript task module,
// says { ready: true }, then answers { id, method, arg } messages with { id, result } or
// { id, error: { message, name, code, stack } }, after any number of { id, progress } (bytes read
// since the last one, from tasks that take a progress callback). Byte arrays in `result.rows` are transferred, not copied.
// Plain JavaScript: a worker starts outside any loader.
//
// The tasks load from one ES module that esbuild bundles from lib/ingest/ingest-tasks.ts and
// its imports (npm packages stay imports), kept in node_modules/.cache/bootline/ beside a list
// of its inputs with their sizes and modification times; it is built again when any of them
// changed. Threads start faster that way than through tsx's loader (docs/scaling.md), which
// remains the fallback when esbuild cannot build.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parentPort, threadId } from "node:worker_threads";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");

/** URL of the bundled tasks, built when missing or stale. Throws when esbuild fails. */
async function bundledTasks() {
  const dir = path.join(root, "node_modules", ".cache", "bootline");
  const out = path.join(dir, "ingest-tasks.mjs");
  const list = `${out}.inputs.json`;
  try {
    const inputs = JSON.parse(readFileSync(list, "utf8"));
    const fresh = inputs.every(([p, size, mtimeMs]) => {
      const st = statSync(path.join(root, p));
      return st.size === size && st.mtimeMs === mtimeMs;
    });
    if (fresh) return pathToFileURL(out).href;
  } catch {
    // no bundle yet, or an input is gone: build
  }
  const esbuild = await import("esbuild");
  mkdirSync(dir, { recursive: true });
  const tmp = `${out}.${process.pid}-${threadId}`;
  // esbuild's service process would otherwise live as long as this thread
  const r = await esbuild
    .build({
      absWorkingDir: root,
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
    const st = statSync(path.join(root, p));
    return [p, st.size, st.mtimeMs];
  });
  writeFileSync(`${tmp}.inputs.json`, JSON.stringify(inputs));
  // several threads may build at once: each renames its own complete files into place
  renameSync(tmp, out);
  renameSync(`${tmp}.inputs.json`, list);
  return pathToFileURL(out).href;
}

async function loadTasks() {
  try {
    return await import(await bundledTasks());
  } catch {
    const { register } = await import("tsx/esm/api");
    register();
    return await import("./ingest-tasks.ts");
  }
}

const { TASKS } = await loadTasks();
parentPort.postMessage({ ready: true });
parentPort.on("message", async ({ id, method, arg }) => {
  try {
    // a task that reads a large input tells its bytes read as it goes: { id, progress }
    const result = await TASKS[method](arg, (bytes) => parentPort.postMessage({ id, progress: bytes }));
    const transfer = Array.isArray(result?.rows) ? result.rows.filter((r) => r instanceof Uint8Array).map((r) => r.buffer) : [];
    parentPort.postMessage({ id, result }, transfer);
  } catch (e) {
    // the parts of the error, so the caller rebuilds it (name and code tell what failed; the stack is for the log)
    const err = e instanceof Error ? e : new Error(String(e));
    parentPort.postMessage({
      id,
      error: { message: err.message, name: err.name, code: typeof err.code === "string" ? err.code : undefined, stack: err.stack },
    });
  }
});
