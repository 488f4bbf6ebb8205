-- Bodies are stored once by content hash (DESIGN.md §4): the same script or JSON answer seen in
-- many exchanges costs one row.
CREATE TABLE bodies (
  hash TEXT PRIMARY KEY,
  encoding TEXT NOT NULL CHECK (encoding IN ('utf8', 'base64')),
  content TEXT NOT NULL
);

CREATE TABLE traces (
  id TEXT PRIMARY KEY,
  intent TEXT NOT NULL,
  start_url TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  storage_state TEXT
);

CREATE TABLE exchanges (
  trace_id TEXT NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  method TEXT NOT NULL,
  url TEXT NOT NULL,
  request_headers TEXT NOT NULL,
  request_body_hash TEXT REFERENCES bodies(hash),
  status INTEGER NOT NULL,
  response_headers TEXT NOT NULL,
  response_body_hash TEXT REFERENCES bodies(hash),
  resource_type TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms REAL NOT NULL,
  page_url TEXT NOT NULL,
  PRIMARY KEY (trace_id, id)
);
CREATE INDEX exchanges_by_seq ON exchanges(trace_id, seq);

CREATE TABLE actions (
  trace_id TEXT NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  at INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (trace_id, seq)
);

CREATE TABLE tools (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  site_host TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('candidate', 'verified', 'quarantined')),
  spec TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (site_host, name)
);

CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  status TEXT NOT NULL,
  state_revision INTEGER NOT NULL,
  inputs TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  idempotency_key TEXT,
  result TEXT,
  error TEXT,
  requirements TEXT NOT NULL DEFAULT '[]',
  via TEXT,
  sign_in TEXT,
  deadline_ms INTEGER,
  billed INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE UNIQUE INDEX runs_by_idempotency_key ON runs(tenant, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX runs_by_tool ON runs(tool_id, created_at);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  label TEXT NOT NULL,
  prefix TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL DEFAULT 'personal' CHECK (kind IN ('personal', 'org')),
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  last_used_at INTEGER
);
