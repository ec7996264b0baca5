-- Incident search (lib/search): the words of an event's text as a tsvector, for the per-bundle
-- GIN indexes built after a bundle is stored ("Event_search_<bundleId>", created at run time by
-- lib/search/search-index.ts, not here: an index on every row would be kept up by the ingest's
-- COPY). A word is a maximal run of letters and digits, lower-cased; runs of more than 500
-- characters are not words (a tsvector lexeme holds at most 2047 bytes). Built from the runs
-- directly (array_to_tsvector): no text-search parser, no positions, no stop words.
CREATE FUNCTION "bootline_search_words"(doc TEXT) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT coalesce(array_to_tsvector(array_agg(w)), ''::tsvector)
  FROM regexp_split_to_table(lower(doc), '[^[:alnum:]]+') AS w
  WHERE w <> '' AND length(w) <= 500
$$;
