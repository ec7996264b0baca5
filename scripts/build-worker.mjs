// `npm run build`'s first step: bundles the ingest threads' code into `.build/ingest-tasks.mjs`
// (lib/ingest/tasks-bundle.mjs), so that the app never writes it at run time.
import { BUILD_DIR, buildTasks } from "../lib/ingest/tasks-bundle.mjs";

const out = await buildTasks(BUILD_DIR);
console.log(`ingest threads' code bundled: ${out}`);
