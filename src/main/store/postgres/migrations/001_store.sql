-- The store's tables on PostgreSQL: the same records as the SQLite file (migrations 001-012 of
-- ../../migrations), with what several nodes need to be right together. Times are milliseconds
-- since the Unix epoch (BIGINT), flags are 0/1 integers and JSON is text, as in SQLite, so both
-- implementations read rows the same way.

CREATE TABLE bodies (
  hash TEXT PRIMARY KEY,
  encoding TEXT NOT NULL CHECK (encoding IN ('utf8', 'base64')),
  content TEXT NOT NULL
);

CREATE TABLE traces (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  intent TEXT NOT NULL,
  start_url TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  storage_state TEXT
);
CREATE INDEX traces_by_tenant_time ON traces (tenant, created_at);

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
  started_at DOUBLE PRECISION NOT NULL,
  duration_ms DOUBLE PRECISION NOT NULL,
  page_url TEXT NOT NULL,
  PRIMARY KEY (trace_id, id)
);
CREATE INDEX exchanges_by_seq ON exchanges (trace_id, seq);
CREATE INDEX exchanges_by_request_body ON exchanges (request_body_hash);
CREATE INDEX exchanges_by_response_body ON exchanges (response_body_hash);

CREATE TABLE actions (
  trace_id TEXT NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  at DOUBLE PRECISION NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (trace_id, seq)
);

CREATE TABLE tools (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  name TEXT NOT NULL,
  site_host TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('candidate', 'verified', 'quarantined')),
  spec TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (tenant, site_host, name)
);

-- One counter row per workspace's tools: every write bumps it in the same transaction, so a
-- node's cache of parsed tools is current when the counter it read is (one indexed read).
CREATE TABLE tool_revisions (
  tenant TEXT PRIMARY KEY,
  revision BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  seq BIGSERIAL,
  tenant TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  capability_id TEXT,
  status TEXT NOT NULL,
  state_revision INTEGER NOT NULL,
  inputs TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  idempotency_key TEXT,
  -- The result's JSON text as bytes (codec json) or compressed (br, gzip).
  result BYTEA,
  result_codec TEXT,
  result_bytes INTEGER,
  result_expired_at BIGINT,
  error TEXT,
  requirements TEXT NOT NULL DEFAULT '[]',
  via TEXT,
  sign_in TEXT,
  deadline_ms INTEGER,
  billed INTEGER NOT NULL DEFAULT 0,
  effects TEXT NOT NULL DEFAULT '[]',
  mutating INTEGER NOT NULL DEFAULT 0,
  bill_on_success INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  finished_at BIGINT,
  -- The node that runs it now (server mode) and until when that node's claim holds.
  node_id TEXT,
  lease_until BIGINT
);
-- Two nodes racing on one Idempotency-Key: the second insert finds the first run.
CREATE UNIQUE INDEX runs_by_idempotency_key ON runs (tenant, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX runs_by_tool ON runs (tool_id, created_at);
CREATE INDEX runs_in_flight ON runs (status) WHERE status IN ('accepted', 'working', 'input_required');
CREATE INDEX runs_by_time ON runs (created_at);
CREATE INDEX runs_billed ON runs (tenant, seq) WHERE billed = 1;
CREATE INDEX runs_with_results ON runs (COALESCE(finished_at, updated_at), result_bytes)
  WHERE result_bytes IS NOT NULL;

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  label TEXT NOT NULL,
  prefix TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL DEFAULT 'personal' CHECK (kind IN ('personal', 'org')),
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  last_used_at BIGINT
);
CREATE INDEX api_keys_by_tenant ON api_keys (tenant, created_at);

CREATE TABLE logins (
  tenant TEXT NOT NULL,
  site_host TEXT NOT NULL,
  storage_state TEXT,
  sealed_state BYTEA,
  secrets TEXT NOT NULL DEFAULT '{}',
  login_url TEXT,
  saved_at BIGINT NOT NULL,
  last_used_at BIGINT,
  PRIMARY KEY (tenant, site_host)
);

-- Every movement of credits; one charge per (workspace, operation key or run).
CREATE TABLE ledger (
  id BIGSERIAL PRIMARY KEY,
  tenant TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'purchase', 'charge')),
  amount INTEGER NOT NULL,
  ref TEXT NOT NULL,
  reason TEXT NOT NULL,
  at BIGINT NOT NULL,
  UNIQUE (tenant, ref)
);

-- The running sums of a workspace's ledger, one row each: a charge checks and moves the balance
-- under that row's lock, so two nodes charging the last credit cannot both succeed.
CREATE TABLE ledger_balances (
  tenant TEXT PRIMARY KEY,
  granted INTEGER NOT NULL,
  purchased INTEGER NOT NULL DEFAULT 0,
  charged INTEGER NOT NULL DEFAULT 0,
  CHECK (charged <= granted + purchased)
);

CREATE TABLE tool_health (
  tool_id TEXT PRIMARY KEY,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_failure_code TEXT,
  last_good_inputs TEXT,
  quarantined_at BIGINT,
  checked_at BIGINT
);

CREATE TABLE vault_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  mode TEXT NOT NULL CHECK (mode IN ('keychain', 'passphrase')),
  key_id TEXT NOT NULL,
  kdf TEXT,
  check_value BYTEA NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE vault_data_keys (
  tenant TEXT PRIMARY KEY,
  wrapped BYTEA NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE secrets (
  tenant TEXT NOT NULL,
  name TEXT NOT NULL,
  envelope BYTEA NOT NULL,
  hosts TEXT NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant, name)
);

CREATE TABLE operation_receipts (
  tenant TEXT NOT NULL,
  op_key TEXT NOT NULL,
  operation TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('completed', 'uncertain')),
  cost INTEGER NOT NULL,
  result TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant, op_key)
);

CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE oauth_families (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  tenant TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX oauth_families_by_client ON oauth_families (client_id);

CREATE TABLE oauth_codes (
  hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES oauth_families(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

CREATE TABLE oauth_tokens (
  hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES oauth_families(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX oauth_tokens_by_family ON oauth_tokens (family_id);

CREATE TABLE tool_scopes (
  tenant TEXT NOT NULL,
  slug TEXT NOT NULL,
  apps TEXT NOT NULL,
  tools TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant, slug)
);

CREATE TABLE index_jobs (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  url TEXT NOT NULL,
  site TEXT NOT NULL,
  intent TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  indexed INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  message TEXT,
  trace_id TEXT,
  tool_ids TEXT NOT NULL DEFAULT '[]',
  sign_in_url TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX index_jobs_by_tenant_time ON index_jobs (tenant, created_at);
CREATE INDEX index_jobs_active ON index_jobs (tenant, status) WHERE status IN ('queued', 'running');

CREATE TABLE local_sites (
  tenant TEXT NOT NULL,
  host TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant, host)
);

-- Charges `amount` once per (tenant, ref), never below zero; the free grant is written with the
-- workspace's first movement. One statement from the client, atomic, right under races: the
-- ledger row's unique key makes a repeat wait for the first and do nothing, and the balance
-- row's lock orders two charges of one workspace.
CREATE FUNCTION sitecall_charge(p_tenant TEXT, p_ref TEXT, p_amount INTEGER, p_reason TEXT,
  p_at BIGINT, p_grant INTEGER) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sitecall_ensure_grant(p_tenant, p_at, p_grant);
  IF p_ref IS NOT NULL THEN
    INSERT INTO ledger (tenant, kind, amount, ref, reason, at)
      VALUES (p_tenant, 'charge', -p_amount, p_ref, p_reason, p_at)
      ON CONFLICT (tenant, ref) DO NOTHING;
    IF NOT FOUND THEN RETURN FALSE; END IF;
  END IF;
  UPDATE ledger_balances SET charged = charged + p_amount
    WHERE tenant = p_tenant AND granted + purchased - charged >= p_amount;
  IF NOT FOUND THEN
    IF p_ref IS NOT NULL THEN DELETE FROM ledger WHERE tenant = p_tenant AND ref = p_ref; END IF;
    RETURN FALSE;
  END IF;
  RETURN TRUE;
END $$;

CREATE FUNCTION sitecall_ensure_grant(p_tenant TEXT, p_at BIGINT, p_grant INTEGER) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_balances (tenant, granted) VALUES (p_tenant, p_grant)
    ON CONFLICT (tenant) DO NOTHING;
  IF FOUND THEN
    INSERT INTO ledger (tenant, kind, amount, ref, reason, at)
      VALUES (p_tenant, 'grant', p_grant, 'grant:free', 'one-time free grant', p_at)
      ON CONFLICT (tenant, ref) DO NOTHING;
  END IF;
END $$;
