-- Message templates mined per boot and bundle at ingest (lib/patterns): the timeline's patterns
-- panel, "new in this boot" and the compare page's diff read these rows, not the events.
CREATE TABLE "LogPattern" (
    "id" SERIAL NOT NULL,
    "incidentId" TEXT NOT NULL,
    "bootId" INTEGER NOT NULL,
    "bundleId" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "firstTs" TIMESTAMPTZ(3),
    "lastTs" TIMESTAMPTZ(3),
    "firstEventId" BIGINT NOT NULL,
    "lanes" TEXT NOT NULL,
    "components" TEXT NOT NULL,
    "bucketMs" INTEGER NOT NULL,
    "buckets" TEXT NOT NULL,
    CONSTRAINT "LogPattern_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "LogPattern_bootId_idx" ON "LogPattern"("bootId");
CREATE INDEX "LogPattern_incidentId_idx" ON "LogPattern"("incidentId");
ALTER TABLE "LogPattern" ADD CONSTRAINT "LogPattern_bootId_fkey" FOREIGN KEY ("bootId") REFERENCES "Boot"("id") ON DELETE CASCADE ON UPDATE CASCADE;
