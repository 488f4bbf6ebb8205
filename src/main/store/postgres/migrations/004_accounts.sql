-- Issue 27 A: accounts of a team server, their workspaces, members and invitations. The desktop
-- and `serve` keep their single local owner and never write these tables; they exist in both
-- stores so one contract suite proves the rules alike (the SQLite twin is 013_accounts.sql).

-- An account: a unique email-like name (lower-case) and its scrypt password hash
-- (`scrypt$N$r$p$salt$hash`, base64). Never the password.
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- An account's owner token (spec "Authentication" 3, one hour): only its SHA-256 is kept.
CREATE TABLE account_sessions (
  hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at BIGINT NOT NULL
);
CREATE INDEX account_sessions_by_expiry ON account_sessions (expires_at);

-- A workspace: the `tenant` every per-workspace record is keyed by. `kind` is `team` for one an
-- account made, `end_user` for the one an org key's end user gets on first use (`parent` is the
-- org key's workspace then).
CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('team', 'end_user')),
  parent TEXT,
  created_at BIGINT NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  added_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, account_id)
);
CREATE INDEX workspace_members_by_account ON workspace_members (account_id);

-- An invitation: its token's SHA-256 (the token is shown once), single use, 7 days.
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  accepted_by TEXT,
  accepted_at BIGINT
);

-- Login attempts per account name in the current 15-minute window (the login rate limit): one
-- upsert per attempt counts it under the row's lock, so nodes racing cannot pass the limit.
CREATE TABLE login_attempts (
  key TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL
);
