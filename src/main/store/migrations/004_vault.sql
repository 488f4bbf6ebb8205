-- Issue 6: the vault. The file holds ciphertext only: a check value sealed under the master key
-- (it tells a right passphrase or keychain key from a wrong one), each workspace's data key
-- wrapped by the master key, and each secret's AES-256-GCM envelope under its data key.
-- Names and bound hosts are not secret and stay readable, so listing needs no unlock.
CREATE TABLE vault_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  mode TEXT NOT NULL CHECK (mode IN ('keychain', 'passphrase')),
  -- The keychain account of the master key (random per data dir), or the passphrase's id.
  key_id TEXT NOT NULL,
  -- Passphrase mode: JSON {salt (base64), N, r, p} of scrypt; null in keychain mode.
  kdf TEXT,
  check_value BLOB NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE vault_data_keys (
  tenant TEXT PRIMARY KEY,
  wrapped BLOB NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE secrets (
  tenant TEXT NOT NULL,
  name TEXT NOT NULL,
  envelope BLOB NOT NULL,
  -- JSON array of host[:port] the secret may be sent to.
  hosts TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, name)
);
