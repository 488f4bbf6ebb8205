-- Issue 6: site logins move into the vault. The storage state is kept as an AES-256-GCM envelope
-- (`sealed_state`) under the workspace's data key; SQL cannot encrypt, so rows saved in the clear
-- before this version keep `storage_state` until the app seals them at its first unlocked start
-- and empties the column. `secrets` names the vault secrets of the login (username, password,
-- TOTP seed) as JSON; the values live only in `secrets` envelopes. `login_url` is the page the
-- person typed the password on, where an automatic sign-in starts.
CREATE TABLE logins_sealed (
  tenant TEXT NOT NULL,
  site_host TEXT NOT NULL,
  storage_state TEXT,
  sealed_state BLOB,
  secrets TEXT NOT NULL DEFAULT '{}',
  login_url TEXT,
  saved_at INTEGER NOT NULL,
  last_used_at INTEGER,
  PRIMARY KEY (tenant, site_host),
  CHECK (storage_state IS NOT NULL OR sealed_state IS NOT NULL)
);

INSERT INTO logins_sealed (tenant, site_host, storage_state, saved_at, last_used_at)
  SELECT tenant, site_host, storage_state, saved_at, last_used_at FROM logins;

DROP TABLE logins;
ALTER TABLE logins_sealed RENAME TO logins;
