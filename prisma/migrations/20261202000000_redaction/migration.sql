-- Redaction on ingest (lib/redact/redact.ts): secrets replaced before storage are
-- counted per file and per kind, e.g. {"jwt": 2, "bearer": 1}; {} when none.
ALTER TABLE "SourceFile" ADD COLUMN "redacted" JSONB NOT NULL DEFAULT '{}';
