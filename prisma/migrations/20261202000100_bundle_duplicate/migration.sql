-- The same bundle (same sha256) uploaded again to an incident that already holds it
-- is recorded, not ingested twice; "duplicateOf" names the bundle it repeats.
ALTER TABLE "Bundle" ADD COLUMN "duplicateOf" TEXT;
