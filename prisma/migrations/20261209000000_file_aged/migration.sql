-- A file's records by where their time comes from: "aged", counted back from a relative age
-- (kubectl's `5m`); "sinceBoot", of the records without a UTC time those whose own time is seconds
-- since boot. Files stored before it count 0.
ALTER TABLE "SourceFile" ADD COLUMN "aged" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "SourceFile" ADD COLUMN "sinceBoot" INTEGER NOT NULL DEFAULT 0;
