-- What the ingest writes, made cheaper to write (figures: docs/scaling.md).
--
-- Large values the ingest writes once and that compress poorly are stored out of line as
-- they are (EXTERNAL) instead of PostgreSQL trying pglz on each one past the TOAST threshold
-- (about 2 kB) first: SourceBlock.data is Brotli already (lib/db/source-block-codec.ts);
-- Finding.evidence (event ids) is read back whole, so skipping the compression saves CPU on
-- both sides.
ALTER TABLE "SourceBlock" ALTER COLUMN "data" SET STORAGE EXTERNAL;
ALTER TABLE "Finding" ALTER COLUMN "evidence" SET STORAGE EXTERNAL;

-- EventDensity (the per-second rollup of Event) has no foreign keys to Boot and Bundle, as
-- Event has none: per-row checks would slow its COPY. The incident's delete removes its rows
-- (lib/incidents/delete-incident.ts), as it does its events.
ALTER TABLE "EventDensity" DROP CONSTRAINT "EventDensity_bootId_fkey";
ALTER TABLE "EventDensity" DROP CONSTRAINT "EventDensity_bundleId_fkey";
