-- Issue 5 "Auth": OAuth 2.1 public clients (RFC 7591 registration, authorization codes with
-- S256 PKCE, rotating refresh tokens) and the tool scopes of spec "Tool scope". Codes and tokens
-- are stored as SHA-256 hashes only: a copy of this file grants nothing.
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- JSON array of the exact redirect URIs (loopback http or https).
  redirect_uris TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- One grant the owner approved: every token it yields shares the family, so a replayed refresh
-- token or code revokes them together (RFC 9700 §4.14.2, RFC 6749 §4.1.2).
CREATE TABLE oauth_families (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  tenant TEXT NOT NULL,
  -- Space-separated scope names (RFC 6749 §3.3).
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);

CREATE TABLE oauth_codes (
  hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES oauth_families(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

CREATE TABLE oauth_tokens (
  hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES oauth_families(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  -- A refresh token is used once: the rotation that consumed it.
  used_at INTEGER
);
CREATE INDEX oauth_tokens_by_family ON oauth_tokens(family_id);

CREATE TABLE tool_scopes (
  tenant TEXT NOT NULL,
  slug TEXT NOT NULL,
  -- JSON arrays of site hosts and tool names.
  apps TEXT NOT NULL,
  tools TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, slug)
);
