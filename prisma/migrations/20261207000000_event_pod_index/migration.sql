-- The events of one pod in a node boot, in time order: the timeline's pod filter reads this
-- index instead of scanning the boot's range. Partial (rows that name a pod), so plain log
-- lines cost the load nothing.
CREATE INDEX "Event_bootId_pod_ts_idx" ON "Event"("bootId", "pod", "ts") WHERE "pod" IS NOT NULL;
