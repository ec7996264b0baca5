-- Where a node's name came from: 'logs' (a log, a path or the upload's node option named it),
-- 'upload' (nothing did: the name was made from the upload's file name, shown as "not named by
-- the logs"), 'reviewer' (renamed by hand).
ALTER TABLE "Node" ADD COLUMN "nameSource" TEXT NOT NULL DEFAULT 'logs';
