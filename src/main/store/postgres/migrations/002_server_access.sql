-- What a team server's nodes must share to answer alike (issue 27 A): owner sessions and the
-- one-time codes of start links, and the per-key request buckets of the rate limit.

-- An owner token's SHA-256 and when it expires (ms since the epoch); the token is never stored.
CREATE TABLE owner_tokens (
  hash TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);
CREATE INDEX owner_tokens_by_expiry ON owner_tokens (expires_at);

-- A start link's one-time code: deleted by the node that redeems it, so it works once.
CREATE TABLE sign_in_codes (
  hash TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);

-- One token bucket per key (api key id, OAuth grant): tokens left at `at` (ms since the epoch).
CREATE TABLE rate_buckets (
  key TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  at BIGINT NOT NULL
);
