-- "Ask the data" (docs/sql.md): read-only SQL over one incident. The views of schema "ask" show
-- the rows of the incident bound to the connection that reads them: "AskBinding" maps a backend
-- process id (pg_backend_pid()) to an incident, written by the app (never by the reader), and
-- ask.incident() returns that incident. The role "bootline_ask" may read the views and nothing
-- else: no table of schema public is granted to it, so another incident's rows are out of reach
-- whatever the reader's SQL sets or calls.
CREATE TABLE "AskBinding" (
    "pid" INTEGER NOT NULL,
    "incidentId" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AskBinding_pkey" PRIMARY KEY ("pid")
);

CREATE SCHEMA "ask";

-- SECURITY DEFINER: the reader has no privilege on "AskBinding"; a fixed search_path so the
-- reader's objects cannot stand in for pg_catalog's or public's
CREATE FUNCTION "ask"."incident"() RETURNS TEXT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
AS $$ SELECT "incidentId" FROM public."AskBinding" WHERE "pid" = pg_backend_pid() $$;

-- security_barrier: the reader's conditions run after the incident filter, so a condition that
-- fails on a value (a cast in an error message) never sees another incident's rows
CREATE VIEW "ask"."incident" WITH (security_barrier) AS
  SELECT i."id", i."title", i."createdAt" AS "created_at", i."notes"
  FROM public."Incident" i WHERE i."id" = (SELECT "ask"."incident"());

CREATE VIEW "ask"."bundles" WITH (security_barrier) AS
  SELECT b."id", b."fileName" AS "file_name", b."sha256", b."byteSize" AS "byte_size", b."status", b."phase", b."error",
         b."collector", b."options", b."counts", b."createdAt" AS "created_at", b."startedAt" AS "started_at",
         b."finishedAt" AS "finished_at", b."duplicateOf" AS "duplicate_of"
  FROM public."Bundle" b WHERE b."incidentId" = (SELECT "ask"."incident"());

CREATE VIEW "ask"."files" WITH (security_barrier) AS
  SELECT f."id", f."bundleId" AS "bundle_id", f."ord", f."path", f."status", f."reason", f."kind", f."format",
         f."nodeName" AS "node_name", f."byteSize" AS "byte_size", f."lines", f."parsed", f."skipped", f."records",
         f."firstTs" AS "first_ts", f."lastTs" AS "last_ts", f."clockOffsetMs" AS "clock_offset_ms",
         f."timeZone" AS "time_zone", f."yearSource" AS "year_source"
  FROM public."SourceFile" f WHERE f."incidentId" = (SELECT "ask"."incident"());

CREATE VIEW "ask"."nodes" WITH (security_barrier) AS
  SELECT n."id", n."name", n."aliases", n."nameSource" AS "name_source"
  FROM public."Node" n WHERE n."incidentId" = (SELECT "ask"."incident"());

CREATE VIEW "ask"."boots" WITH (security_barrier) AS
  SELECT b."id", b."nodeId" AS "node_id", n."name" AS "node", b."bootKey" AS "boot_key", b."start" AS "start_ts",
         b."end" AS "end_ts", b."detectedBy" AS "detected_by", b."startApprox" AS "start_approx"
  FROM public."Boot" b JOIN public."Node" n ON n."id" = b."nodeId"
  WHERE b."incidentId" = (SELECT "ask"."incident"());

-- events on a boot are found through the boot (index "Event_bootId_ts_idx"), the others by
-- the same index's NULL entries; t_plus_ms: milliseconds since the boot's T+0
CREATE VIEW "ask"."events" WITH (security_barrier) AS
  SELECT e."id", e."bundleId" AS "bundle_id", e."fileId" AS "file_id", e."nodeId" AS "node_id", e."bootId" AS "boot_id",
         e."line", e."span", e."ts", (extract(epoch FROM e."ts" - b."start") * 1000)::BIGINT AS "t_plus_ms",
         e."precision", e."flags", e."component", e."lane", e."severity", e."kind", e."pod", e."sandboxId" AS "sandbox_id",
         e."errorClass" AS "error_class", e."message", e."fields"
  FROM public."Boot" b JOIN public."Event" e ON e."bootId" = b."id"
  WHERE b."incidentId" = (SELECT "ask"."incident"()) AND e."incidentId" = b."incidentId"
  UNION ALL
  SELECT e."id", e."bundleId", e."fileId", e."nodeId", e."bootId", e."line", e."span", e."ts", NULL::BIGINT,
         e."precision", e."flags", e."component", e."lane", e."severity", e."kind", e."pod", e."sandboxId",
         e."errorClass", e."message", e."fields"
  FROM public."Event" e WHERE e."bootId" IS NULL AND e."incidentId" = (SELECT "ask"."incident"());

CREATE VIEW "ask"."findings" WITH (security_barrier) AS
  SELECT f."id", f."nodeId" AS "node_id", f."bootId" AS "boot_id", f."detector", f."severity", f."start" AS "start_ts",
         f."end" AS "end_ts", f."title", f."explanation", f."metrics", f."evidence"
  FROM public."Finding" f WHERE f."incidentId" = (SELECT "ask"."incident"());

CREATE VIEW "ask"."patterns" WITH (security_barrier) AS
  SELECT p."id", p."bootId" AS "boot_id", p."bundleId" AS "bundle_id", p."template", p."count", p."firstTs" AS "first_ts",
         p."lastTs" AS "last_ts", p."firstEventId" AS "first_event_id", p."lanes", p."components"
  FROM public."LogPattern" p WHERE p."incidentId" = (SELECT "ask"."incident"());

CREATE VIEW "ask"."annotations" WITH (security_barrier) AS
  SELECT a."id", a."bootId" AS "boot_id", a."ts", a."eventId" AS "event_id", a."text", a."createdAt" AS "created_at"
  FROM public."Annotation" a WHERE a."incidentId" = (SELECT "ask"."incident"());

-- The reader's role: it logs in on PostgreSQL (the app opens its own connections as it, so
-- RESET ROLE leads nowhere), owns nothing, inherits nothing. Roles belong to the whole server:
-- another database may have made it already (or be making it now). Where the migrating role
-- may not create roles, the SQL page says so instead of running (lib/ask/ask-setup.ts).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bootline_ask') THEN
    BEGIN
      CREATE ROLE "bootline_ask" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
              WHEN insufficient_privilege THEN RAISE NOTICE 'bootline: cannot create role bootline_ask; the SQL page stays off';
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bootline_ask') THEN
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO "bootline_ask"', current_database());
    REVOKE ALL ON FUNCTION "ask"."incident"() FROM PUBLIC;
    GRANT USAGE ON SCHEMA "ask" TO "bootline_ask";
    GRANT EXECUTE ON FUNCTION "ask"."incident"() TO "bootline_ask";
    GRANT SELECT ON ALL TABLES IN SCHEMA "ask" TO "bootline_ask";
  END IF;
  -- PGlite has one connection, opened as a superuser: the reader becomes bootline_ask with
  -- SET LOCAL ROLE, and set_config('role', ...) would take it back; the sleeps would hold the
  -- one connection past any limit (PGlite has no statement_timeout); a session-level advisory
  -- lock would stay with the app's connection after the query. Only the superuser keeps them.
  IF version() LIKE '%PGlite%' THEN
    REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(TEXT, TEXT, BOOLEAN) FROM PUBLIC;
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_sleep(DOUBLE PRECISION) FROM PUBLIC;
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_sleep_for(INTERVAL) FROM PUBLIC;
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_sleep_until(TIMESTAMPTZ) FROM PUBLIC;
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_advisory_lock(BIGINT), pg_catalog.pg_advisory_lock(INTEGER, INTEGER),
      pg_catalog.pg_advisory_lock_shared(BIGINT), pg_catalog.pg_advisory_lock_shared(INTEGER, INTEGER),
      pg_catalog.pg_try_advisory_lock(BIGINT), pg_catalog.pg_try_advisory_lock(INTEGER, INTEGER),
      pg_catalog.pg_try_advisory_lock_shared(BIGINT), pg_catalog.pg_try_advisory_lock_shared(INTEGER, INTEGER) FROM PUBLIC;
  END IF;
END
$$;
