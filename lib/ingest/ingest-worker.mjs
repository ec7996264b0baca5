// Worker-thread entry of the ingest pool (ingest-pool.ts): loads the TypeScript task module,
// says { ready: true }, then answers { id, method, arg } messages with { id, result } or
// { id, error: { message, name, code, stack } }, after any number of { id, progress } (bytes read
// since the last one, from tasks that take a progress callback). Byte arrays in `result.rows` are transferred, not copied.
// A task sent with `rows: true` gets a RowSender (row-stream.ts): it posts { id, chunk, events }
// (the chunk's buffer transferred) and waits on { ack: id, bytes }; { cancel: id } stops it.
// Plain JavaScript: a worker starts outside any loader.
//
// The tasks load from one ES module that esbuild bundles (tasks-bundle.mjs: built by
// `npm run build`, again at run time when an input changed since); tsx's loader remains the
// fallback when it cannot be built.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, threadId } from "node:worker_threads";
import { bundledTasks } from "./tasks-bundle.mjs";

async function loadTasks() {
  try {
    return await import(await bundledTasks(`${process.pid}-${threadId}`));
  } catch {
    const { register } = await import("tsx/esm/api");
    register();
    return await import("./ingest-tasks.ts");
  }
}

// a full collection the tasks may ask for after a large file or node (held-parts.ts `collectAfterLarge`):
// V8 grows a thread's heap well past what is live before it collects on its own
try {
  setFlagsFromString("--expose-gc");
  globalThis.gc ??= runInNewContext("gc");
} catch {
  // no collection on demand: the heap is collected when V8 decides
}
const { TASKS, RowSender } = await loadTasks();
/** the row senders of the running tasks, by message id */
const senders = new Map();
parentPort.postMessage({ ready: true });
parentPort.on("message", async (m) => {
  if (m.ack !== undefined) return senders.get(m.ack)?.ack(m.bytes);
  if (m.cancel !== undefined) return senders.get(m.cancel)?.cancel();
  const { id, method, arg, rows } = m;
  try {
    const sender = rows ? new RowSender((chunk, events) => parentPort.postMessage({ id, chunk, events }, [chunk.buffer])) : undefined;
    if (sender) senders.set(id, sender);
    let result;
    try {
      // a task that reads a large input tells its bytes read as it goes: { id, progress }
      result = await TASKS[method](arg, (bytes) => parentPort.postMessage({ id, progress: bytes }), sender);
    } finally {
      senders.delete(id);
    }
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
