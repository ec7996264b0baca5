-- Per boot and bundle, how many events hold each value of four columns (kind, errorClass,
-- component, pod), with the earliest time and the lowest id among them: counted by the ingest
-- threads as they format the rows (lib/ingest/facet-rows.ts), so "what changed" and "explain
-- against the whole boot" read these rows instead of grouping the boot's events.
CREATE TABLE "BootFacet" (
    "id" SERIAL NOT NULL,
    "incidentId" TEXT NOT NULL,
    "bootId" INTEGER NOT NULL,
    "bundleId" TEXT NOT NULL,
    "dim" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "lane" TEXT,
    "n" INTEGER NOT NULL,
    "firstTs" TIMESTAMPTZ(3),
    "firstEventId" BIGINT NOT NULL,
    CONSTRAINT "BootFacet_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "BootFacet_bootId_idx" ON "BootFacet"("bootId");
ALTER TABLE "BootFacet" ADD CONSTRAINT "BootFacet_bootId_fkey" FOREIGN KEY ("bootId") REFERENCES "Boot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- the bundles stored before this table: their counts from their events
INSERT INTO "BootFacet" ("incidentId", "bootId", "bundleId", "dim", "value", "lane", "n", "firstTs", "firstEventId")
SELECT "incidentId", "bootId", "bundleId", 'kind', kind, NULL, count(*)::int, min(ts), min(id) FROM "Event" WHERE "bootId" IS NOT NULL GROUP BY "incidentId", "bootId", "bundleId", kind
UNION ALL
SELECT "incidentId", "bootId", "bundleId", 'errorClass', "errorClass", NULL, count(*)::int, min(ts), min(id) FROM "Event" WHERE "bootId" IS NOT NULL AND "errorClass" IS NOT NULL GROUP BY "incidentId", "bootId", "bundleId", "errorClass"
UNION ALL
SELECT "incidentId", "bootId", "bundleId", 'component', component, min(lane), count(*)::int, min(ts), min(id) FROM "Event" WHERE "bootId" IS NOT NULL GROUP BY "incidentId", "bootId", "bundleId", component
UNION ALL
SELECT "incidentId", "bootId", "bundleId", 'pod', pod, NULL, count(*)::int, min(ts), min(id) FROM "Event" WHERE "bootId" IS NOT NULL AND pod IS NOT NULL GROUP BY "incidentId", "bootId", "bundleId", pod;
