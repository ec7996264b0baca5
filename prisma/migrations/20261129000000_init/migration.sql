-- CreateTable
CREATE TABLE "Incident" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "notes" TEXT,

    CONSTRAINT "Incident_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Bundle" (
    "id" TEXT NOT NULL,
    "incidentId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "byteSize" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "phase" TEXT NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "collector" TEXT,
    "options" JSONB NOT NULL DEFAULT '{}',
    "counts" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Bundle_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SourceFile" (
    "id" SERIAL NOT NULL,
    "bundleId" TEXT NOT NULL,
    "incidentId" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "duplicateOf" TEXT,
    "kind" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "nodeName" TEXT,
    "byteSize" BIGINT NOT NULL DEFAULT 0,
    "lines" INTEGER NOT NULL DEFAULT 0,
    "parsed" INTEGER NOT NULL DEFAULT 0,
    "blank" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "records" INTEGER NOT NULL DEFAULT 0,
    "noTimestamp" INTEGER NOT NULL DEFAULT 0,
    "continuation" INTEGER NOT NULL DEFAULT 0,
    "banner" INTEGER NOT NULL DEFAULT 0,
    "outOfOrder" INTEGER NOT NULL DEFAULT 0,
    "skippedByReason" JSONB NOT NULL DEFAULT '{}',
    "firstTs" TIMESTAMPTZ(3),
    "lastTs" TIMESTAMPTZ(3),
    "clockOffsetMs" INTEGER NOT NULL DEFAULT 0,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "zoneSource" TEXT NOT NULL DEFAULT 'default',
    "yearSource" TEXT,

    CONSTRAINT "SourceFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Node" (
    "id" SERIAL NOT NULL,
    "incidentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "Node_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Boot" (
    "id" SERIAL NOT NULL,
    "incidentId" TEXT NOT NULL,
    "nodeId" INTEGER NOT NULL,
    "bootKey" TEXT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3),
    "detectedBy" TEXT NOT NULL,
    "startApprox" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "Boot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" BIGSERIAL NOT NULL,
    "incidentId" TEXT NOT NULL,
    "bundleId" TEXT NOT NULL,
    "fileId" INTEGER NOT NULL,
    "nodeId" INTEGER,
    "bootId" INTEGER,
    "line" INTEGER NOT NULL,
    "span" INTEGER NOT NULL DEFAULT 1,
    "ts" TIMESTAMPTZ(3),
    "precision" TEXT NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "component" TEXT NOT NULL,
    "lane" TEXT NOT NULL,
    "severity" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "pod" TEXT,
    "sandboxId" TEXT,
    "errorClass" TEXT,
    "message" TEXT NOT NULL,
    "fields" TEXT,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventDensity" (
    "bootId" INTEGER NOT NULL,
    "sec" BIGINT NOT NULL,
    "lane" TEXT NOT NULL,
    "bundleId" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,

    CONSTRAINT "EventDensity_pkey" PRIMARY KEY ("bootId","sec","lane","bundleId")
);

-- CreateTable
CREATE TABLE "SourceBlock" (
    "fileId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "firstLine" INTEGER NOT NULL,
    "lineCount" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "SourceBlock_pkey" PRIMARY KEY ("fileId","seq")
);

-- CreateTable
CREATE TABLE "Finding" (
    "id" SERIAL NOT NULL,
    "incidentId" TEXT NOT NULL,
    "nodeId" INTEGER NOT NULL,
    "bootId" INTEGER NOT NULL,
    "detector" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3),
    "title" TEXT NOT NULL,
    "explanation" TEXT NOT NULL,
    "metrics" JSONB NOT NULL,
    "evidence" BIGINT[] DEFAULT ARRAY[]::BIGINT[],

    CONSTRAINT "Finding_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Bundle_incidentId_idx" ON "Bundle"("incidentId");

-- CreateIndex
CREATE INDEX "Bundle_sha256_idx" ON "Bundle"("sha256");

-- CreateIndex
CREATE INDEX "SourceFile_bundleId_idx" ON "SourceFile"("bundleId");

-- CreateIndex
CREATE INDEX "SourceFile_incidentId_idx" ON "SourceFile"("incidentId");

-- CreateIndex
CREATE UNIQUE INDEX "Node_incidentId_name_key" ON "Node"("incidentId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Boot_nodeId_bootKey_key" ON "Boot"("nodeId", "bootKey");

-- CreateIndex
CREATE INDEX "Event_bootId_ts_idx" ON "Event"("bootId", "ts");

-- CreateIndex
CREATE INDEX "Finding_incidentId_idx" ON "Finding"("incidentId");

-- CreateIndex
CREATE INDEX "Finding_bootId_idx" ON "Finding"("bootId");

-- AddForeignKey
ALTER TABLE "Bundle" ADD CONSTRAINT "Bundle_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SourceFile" ADD CONSTRAINT "SourceFile_bundleId_fkey" FOREIGN KEY ("bundleId") REFERENCES "Bundle"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SourceFile" ADD CONSTRAINT "SourceFile_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Node" ADD CONSTRAINT "Node_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Boot" ADD CONSTRAINT "Boot_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Boot" ADD CONSTRAINT "Boot_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventDensity" ADD CONSTRAINT "EventDensity_bootId_fkey" FOREIGN KEY ("bootId") REFERENCES "Boot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventDensity" ADD CONSTRAINT "EventDensity_bundleId_fkey" FOREIGN KEY ("bundleId") REFERENCES "Bundle"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SourceBlock" ADD CONSTRAINT "SourceBlock_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "SourceFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Finding" ADD CONSTRAINT "Finding_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Finding" ADD CONSTRAINT "Finding_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Finding" ADD CONSTRAINT "Finding_bootId_fkey" FOREIGN KEY ("bootId") REFERENCES "Boot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Raw SQL beyond Prisma's schema language (listed in lib/db/schema-drift.test.ts):
-- a partial index for the few events that carry a signal (detectors, milestones).
CREATE INDEX "Event_signal_idx" ON "Event"("incidentId", "kind", "ts") WHERE "kind" <> 'log';
