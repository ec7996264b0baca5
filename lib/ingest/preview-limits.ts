/**
 * Limits of the paste preview (`POST /api/preview`, lib/ingest/preview-text.ts), in a module of
 * its own so the upload page can check them before sending without loading the ingest code.
 */

/** Largest text the preview reads: 5 MiB of UTF-8. Larger pastes are still uploaded, as a file. */
export const PREVIEW_MAX_BYTES = 5 * 1024 * 1024;
