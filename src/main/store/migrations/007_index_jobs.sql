-- Issue 5: index jobs of `POST /api/v1/index` (spec "C", resource "Index job"). One row per job;
-- the per-workspace limits (3 running, 5 a day) are counted from these rows, so they hold across
-- restarts. A job left queued or running by a crash is failed when the app starts again.
CREATE TABLE index_jobs (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  url TEXT NOT NULL,
  -- host[:port] of the url, as a tool's siteHost: one active job per site and workspace.
  site TEXT NOT NULL,
  intent TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  -- Candidates compiled by the job.
  indexed INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  message TEXT,
  trace_id TEXT,
  -- JSON array of the ids of the candidates the job saved.
  tool_ids TEXT NOT NULL DEFAULT '[]',
  sign_in_url TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER
);

CREATE INDEX index_jobs_by_tenant_time ON index_jobs (tenant, created_at);
CREATE INDEX index_jobs_active ON index_jobs (tenant, status) WHERE status IN ('queued', 'running');
