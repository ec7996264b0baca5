/**
 * The ingest's one redaction step (docs/hostile-input.md "Redaction"): called where
 * analyse-bundle.ts `analyseFile` decodes a file's text, before parsing, so that stored messages, fields and raw source blocks never hold
 * the secret. The counts come back with the file's analysis, are set on the unpacked file
 * (`redacted`) and written to `SourceFile.redacted` by the store step (pipeline.ts).
 */
import type { UnpackedFile } from "../bundle/unpack";
import type { SqlConn } from "../db/sql";
import { redact } from "../redact/redact";

/** Redacts a file's decoded text; returns the redacted text and the secrets replaced per kind (absent when none). */
export function redactFileText(text: string): { text: string; redacted?: Record<string, number> } {
  const r = redact(text);
  return r.total > 0 ? { text: r.text, redacted: r.counts as Record<string, number> } : { text: r.text };
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
