-- Issue 27 B: sync of tools between desktops and a team server (the PostgreSQL twin is
-- 005_tool_sync.sql). Two halves in one file, as both stores carry the whole schema:
--
-- Server half: every tool of a workspace carries a `sync_revision` from one counter per workspace
-- (`sync_revisions`), moved by triggers on every insert, change and delete whichever path writes
-- the tool (the sync route, an edit, the engine's quarantine); a deleted tool leaves a tombstone
-- with the revision of its deletion; applied pushes are kept by operation key, so a push sent
-- again answers what it answered the first time.
ALTER TABLE tools ADD COLUMN sync_revision INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tools_by_sync_revision ON tools (tenant, sync_revision);

CREATE TABLE sync_revisions (
  tenant TEXT PRIMARY KEY,
  revision INTEGER NOT NULL
);

CREATE TABLE tool_tombstones (
  tenant TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  deleted_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, tool_id)
);
CREATE INDEX tool_tombstones_by_revision ON tool_tombstones (tenant, revision);

CREATE TABLE sync_operations (
  tenant TEXT NOT NULL,
  op_key TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  status INTEGER NOT NULL,
  answer TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, op_key)
);

-- Tools written before this migration: revision 1 of their workspace.
INSERT INTO sync_revisions (tenant, revision) SELECT DISTINCT tenant, 1 FROM tools;
UPDATE tools SET sync_revision = 1;

-- `UPDATE OF` every column but sync_revision: the stamp below does not fire them again.
CREATE TRIGGER tools_sync_stamp_insert AFTER INSERT ON tools
BEGIN
  INSERT INTO sync_revisions (tenant, revision) VALUES (NEW.tenant, 1)
    ON CONFLICT (tenant) DO UPDATE SET revision = revision + 1;
  UPDATE tools SET sync_revision = (SELECT revision FROM sync_revisions WHERE tenant = NEW.tenant)
    WHERE id = NEW.id;
  DELETE FROM tool_tombstones WHERE tenant = NEW.tenant AND tool_id = NEW.id;
END;

CREATE TRIGGER tools_sync_stamp_update AFTER UPDATE OF id, tenant, name, site_host, status, spec,
  created_at, updated_at ON tools
BEGIN
  INSERT INTO sync_revisions (tenant, revision) VALUES (NEW.tenant, 1)
    ON CONFLICT (tenant) DO UPDATE SET revision = revision + 1;
  UPDATE tools SET sync_revision = (SELECT revision FROM sync_revisions WHERE tenant = NEW.tenant)
    WHERE id = NEW.id;
END;

CREATE TRIGGER tools_sync_stamp_delete AFTER DELETE ON tools
BEGIN
  INSERT INTO sync_revisions (tenant, revision) VALUES (OLD.tenant, 1)
    ON CONFLICT (tenant) DO UPDATE SET revision = revision + 1;
  INSERT INTO tool_tombstones (tenant, tool_id, revision, deleted_at)
    VALUES (OLD.tenant, OLD.id, (SELECT revision FROM sync_revisions WHERE tenant = OLD.tenant),
      CAST(unixepoch('subsec') * 1000 AS INTEGER))
    ON CONFLICT (tenant, tool_id) DO UPDATE SET revision = excluded.revision,
      deleted_at = excluded.deleted_at;
END;

-- Desktop half (src/main/sync/): a workspace linked to a server (`sitecall link`), the
-- server's revision each tool was last in step with, the outbox of changes to push, and
-- conflicts kept with both versions until the person chooses. None of it holds a token: the
-- refresh token is in the OS keychain, or sealed by the vault (`sealed_token`).
CREATE TABLE sync_links (
  tenant TEXT PRIMARY KEY,
  server_url TEXT NOT NULL,
  workspace TEXT,
  auth TEXT NOT NULL CHECK (auth IN ('oauth', 'token')),
  client_id TEXT,
  token_store TEXT NOT NULL CHECK (token_store IN ('keychain', 'vault')),
  sealed_token BLOB,
  pulled_revision INTEGER NOT NULL DEFAULT 0,
  linked_at INTEGER NOT NULL
);

CREATE TABLE sync_bases (
  tenant TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  PRIMARY KEY (tenant, tool_id)
);

-- One row per change to push, in order; `op_key` is the change's operation key (the server's
-- Idempotency-Key), fixed when the row is made, so a change sent but not acknowledged (a crash)
-- is sent again under the same key. A newer change of the same tool replaces one not sent yet.
CREATE TABLE sync_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('put', 'delete')),
  op_key TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);

CREATE TABLE sync_conflicts (
  tenant TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  mine TEXT,
  theirs TEXT,
  their_revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, tool_id)
);

-- A row here (only inside the transaction that applies pulled tools) keeps the triggers below
-- from putting the server's own changes in the outbox.
CREATE TABLE sync_applying (
  tenant TEXT PRIMARY KEY
);

CREATE TRIGGER tools_outbox_insert AFTER INSERT ON tools
WHEN NEW.status IN ('verified', 'quarantined')
  AND EXISTS (SELECT 1 FROM sync_links WHERE tenant = NEW.tenant)
  AND NOT EXISTS (SELECT 1 FROM sync_applying WHERE tenant = NEW.tenant)
BEGIN
  DELETE FROM sync_outbox WHERE tenant = NEW.tenant AND tool_id = NEW.id AND sent_at IS NULL;
  INSERT INTO sync_outbox (tenant, tool_id, op, op_key, created_at)
    VALUES (NEW.tenant, NEW.id, 'put', 'sop_' || lower(hex(randomblob(16))),
      CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER tools_outbox_update AFTER UPDATE OF name, site_host, status, spec ON tools
WHEN NEW.status IN ('verified', 'quarantined')
  AND EXISTS (SELECT 1 FROM sync_links WHERE tenant = NEW.tenant)
  AND NOT EXISTS (SELECT 1 FROM sync_applying WHERE tenant = NEW.tenant)
BEGIN
  DELETE FROM sync_outbox WHERE tenant = NEW.tenant AND tool_id = NEW.id AND sent_at IS NULL;
  INSERT INTO sync_outbox (tenant, tool_id, op, op_key, created_at)
    VALUES (NEW.tenant, NEW.id, 'put', 'sop_' || lower(hex(randomblob(16))),
      CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;

CREATE TRIGGER tools_outbox_delete AFTER DELETE ON tools
WHEN EXISTS (SELECT 1 FROM sync_links WHERE tenant = OLD.tenant)
  AND NOT EXISTS (SELECT 1 FROM sync_applying WHERE tenant = OLD.tenant)
BEGIN
  DELETE FROM sync_outbox WHERE tenant = OLD.tenant AND tool_id = OLD.id AND sent_at IS NULL;
  INSERT INTO sync_outbox (tenant, tool_id, op, op_key, created_at)
    VALUES (OLD.tenant, OLD.id, 'delete', 'sop_' || lower(hex(randomblob(16))),
      CAST(unixepoch('subsec') * 1000 AS INTEGER));
END;
