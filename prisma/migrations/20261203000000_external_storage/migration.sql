-- What the ingest writes, made cheaper to write (measured on the 1M-line bench bundle).
--
-- Large values the ingest writes once and never compresses well: stored out of line as they
-- are (EXTERNAL) instead of letting PostgreSQL try pglz on each one past the TOAST threshold
-- (about 2 kB) first:
-- - SourceBlock.data is Brotli already (lib/timeline/source-block-codec.ts): its COPY (4,009
--   blocks, 22.8 MB) took 285 ms, 170 ms after; pglz stored nearly nothing smaller.
-- - Finding.evidence (event ids: a retry storm cites every attempt, a failure window thousands;
--   1,197 findings with 1.07 million ids): its COPY took 540 ms, 90 ms after. pglz made the
--   arrays 2.4 times smaller (8.6 MB -> 3.6 MB), which is not worth 0.45 s of the ingest's
--   CPU per million lines; reading them back skips the decompression too.
ALTER TABLE "SourceBlock" ALTER COLUMN "data" SET STORAGE EXTERNAL;
ALTER TABLE "Finding" ALTER COLUMN "evidence" SET STORAGE EXTERNAL;

-- EventDensity (the per-second rollup of Event, 41,838 rows for the bench bundle) loses its
-- foreign keys to Boot and Bundle, as Event has none: their per-row checks made its COPY take
-- 430 to 465 ms instead of 53 to 84. The incident's delete removes its rows
-- (lib/incidents/delete-incident.ts), as it does its events.
ALTER TABLE "EventDensity" DROP CONSTRAINT "EventDensity_bootId_fkey";
ALTER TABLE "EventDensity" DROP CONSTRAINT "EventDensity_bundleId_fkey";
