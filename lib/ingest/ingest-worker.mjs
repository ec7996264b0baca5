// Worker-thread entry of the ingest pool (ingest-pool.ts): registers tsx so the TypeScript
// task module loads as it does everywhere else, says { ready: true }, then answers
// { id, method, arg } messages with { id, result } or { id, error }. Byte arrays in
// `result.rows` are transferred, not copied.
// Plain JavaScript: a worker starts outside any loader.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { TASKS } = await import("./ingest-tasks.ts");
parentPort.postMessage({ ready: true });
parentPort.on("message", async ({ id, method, arg }) => {
  try {
    const result = await TASKS[method](arg);
    const transfer = Array.isArray(result?.rows) ? result.rows.filter((r) => r instanceof Uint8Array).map((r) => r.buffer) : [];
    parentPort.postMessage({ id, result }, transfer);
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
