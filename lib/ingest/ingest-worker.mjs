// Worker-thread entry of the ingest pool (ingest-pool.ts): registers tsx so the TypeScript
// task module loads as it does everywhere else, then answers { id, method, arg } messages
// with { id, result } or { id, error }. Plain JavaScript: a worker starts outside any loader.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { TASKS } = await import("./ingest-tasks.ts");
parentPort.on("message", async ({ id, method, arg }) => {
  try {
    parentPort.postMessage({ id, result: await TASKS[method](arg) });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
