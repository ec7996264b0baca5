-- SourceBlock.data is Brotli already (lib/timeline/source-block-codec.ts): without this,
-- PostgreSQL tries pglz on every block past the TOAST threshold (about 2 kB, nearly all of
-- them) before it gives up and stores it as it is. EXTERNAL stores it out of line without
-- that attempt: the SourceBlock COPY of the 1M-line bench bundle (4,009 blocks, 22.8 MB)
-- took 285 ms before, 170 ms after, and the stored bytes are the same.
ALTER TABLE "SourceBlock" ALTER COLUMN "data" SET STORAGE EXTERNAL;
