-- A klog event whose fields are the key=value pairs at the end of its message is stored once:
-- "fields" NULL and "fieldsAt" the index in the message where the pairs start (the reader
-- scans them from there). NULL for every other event. A nullable column without a default is
-- added without rewriting the table.
ALTER TABLE "Event" ADD COLUMN "fieldsAt" INTEGER;
