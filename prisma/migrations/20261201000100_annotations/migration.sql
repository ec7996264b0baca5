-- CreateTable
CREATE TABLE "Annotation" (
    "id" SERIAL NOT NULL,
    "incidentId" TEXT NOT NULL,
    "bootId" INTEGER NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "eventId" BIGINT,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Annotation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Annotation_bootId_ts_idx" ON "Annotation"("bootId", "ts");

-- CreateIndex
CREATE INDEX "Annotation_incidentId_idx" ON "Annotation"("incidentId");

-- AddForeignKey
ALTER TABLE "Annotation" ADD CONSTRAINT "Annotation_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Annotation" ADD CONSTRAINT "Annotation_bootId_fkey" FOREIGN KEY ("bootId") REFERENCES "Boot"("id") ON DELETE CASCADE ON UPDATE CASCADE;
