/** Next.js start-up hook: starts the ingest worker in the server process. */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.BOOTLINE_NO_WORKER !== "1") {
    const { startIngestWorker } = await import("./lib/ingest/worker");
    startIngestWorker().catch((e) => console.error(`bootline: ingest worker did not start: ${(e as Error).message}`));
  }
}
