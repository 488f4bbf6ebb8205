-- Issue 12: a run's result is stored once as the JSON text the site answered, gzip-compressed
-- above a size (`result_codec` says which; `result` holds TEXT for 'json', a BLOB for 'gzip'),
-- with its stored size for the retention limit, and when a retention sweep dropped it. The
-- capability id is kept on the run itself, so reading a run parses no tool spec.
ALTER TABLE runs ADD COLUMN result_codec TEXT;
ALTER TABLE runs ADD COLUMN result_bytes INTEGER;
ALTER TABLE runs ADD COLUMN result_expired_at INTEGER;
ALTER TABLE runs ADD COLUMN capability_id TEXT;
UPDATE runs SET
  result_codec = CASE WHEN result IS NULL THEN NULL ELSE 'json' END,
  result_bytes = CASE WHEN result IS NULL THEN NULL ELSE length(CAST(result AS BLOB)) END,
  capability_id = (SELECT json_extract(spec, '$.capabilityId') FROM tools WHERE tools.id = runs.tool_id);
-- The retention sweep walks results oldest first and sums their bytes from this index alone.
CREATE INDEX runs_with_results ON runs(COALESCE(finished_at, updated_at), result_bytes)
  WHERE result_bytes IS NOT NULL;
