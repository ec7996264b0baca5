/**
 * The ingest's one redaction step (issue 7): called where analyse-bundle.ts decodes a file's
 * text, before parsing, so that stored messages, fields and raw source blocks never hold the
 * secret. The counts ride on the unpacked file (`redacted`) to the store step, which writes
 * them to `SourceFile.redacted` (process-bundle.ts).
 */
import type { UnpackedFile } from "../bundle/unpack";
import type { SqlConn } from "../db/sql";
import { redact } from "../redact/redact";

/** Redacts `text` (the decoded content of `file`), records the counts on `file`, returns the redacted text. */
export function redactFileText(file: UnpackedFile, text: string): string {
  const r = redact(text);
  if (r.total > 0) file.redacted = r.counts as Record<string, number>;
  else delete file.redacted;
  return r.text;
}

/**
 * Writes the redaction counts of a stored bundle's files to `SourceFile.redacted` (one
 * statement, inside the store transaction). `files[i].ord` is the file's index in `unpacked`.
 */
export async function storeRedactionCounts(
  tx: SqlConn,
  bundleId: string,
  files: ReadonlyArray<{ ord: number; path: string }>,
  unpacked: ReadonlyArray<UnpackedFile>,
): Promise<void> {
  const ords: number[] = [];
  const counts: string[] = [];
  for (const f of files) {
    const u = unpacked[f.ord]?.path === f.path ? unpacked[f.ord] : unpacked.find((x) => x.path === f.path);
    if (!u?.redacted) continue;
    ords.push(f.ord);
    counts.push(JSON.stringify(u.redacted));
  }
  if (!ords.length) return;
  await tx.query(
    `UPDATE "SourceFile" s SET redacted = v.r::jsonb
     FROM (SELECT unnest($2::int[]) AS ord, unnest($3::text[]) AS r) v
     WHERE s."bundleId" = $1 AND s.ord = v.ord`,
    [bundleId, ords, counts],
  );
}
