-- Issue 27 B: sync of tools between desktops and a team server (the SQLite twin is
-- 014_tool_sync.sql, whose desktop half, outbox and links, a server does not need).
--
-- Every tool of a workspace carries a `sync_revision` from the workspace's counter row in
-- `tool_revisions`, moved by triggers on every insert, change and delete whichever path writes
-- the tool (the sync route, an edit, the engine's quarantine). The counter row is locked until
-- the writer commits, so revisions are handed out in commit order: a reader that sees revision
-- N committed sees every revision below it. A deleted tool leaves a tombstone; applied pushes
-- are kept by operation key.
ALTER TABLE tools ADD COLUMN sync_revision BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tools_by_sync_revision ON tools (tenant, sync_revision);

CREATE TABLE tool_tombstones (
  tenant TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  revision BIGINT NOT NULL,
  deleted_at BIGINT NOT NULL,
  PRIMARY KEY (tenant, tool_id)
);
CREATE INDEX tool_tombstones_by_revision ON tool_tombstones (tenant, revision);

CREATE TABLE sync_operations (
  tenant TEXT NOT NULL,
  op_key TEXT NOT NULL,
  tool_id TEXT NOT NULL,
  status INTEGER NOT NULL,
  answer TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant, op_key)
);

-- Tools written before this migration: revision 1 of their workspace (at least).
INSERT INTO tool_revisions (tenant, revision) SELECT DISTINCT tenant, 1 FROM tools
  ON CONFLICT (tenant) DO UPDATE SET revision = GREATEST(tool_revisions.revision, 1);
UPDATE tools SET sync_revision = 1;

CREATE FUNCTION tools_sync_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO tool_revisions (tenant, revision) VALUES (OLD.tenant, 1)
      ON CONFLICT (tenant) DO UPDATE SET revision = tool_revisions.revision + 1;
    INSERT INTO tool_tombstones (tenant, tool_id, revision, deleted_at)
      SELECT OLD.tenant, OLD.id, revision, (extract(epoch FROM clock_timestamp()) * 1000)::bigint
        FROM tool_revisions WHERE tenant = OLD.tenant
      ON CONFLICT (tenant, tool_id) DO UPDATE SET revision = excluded.revision,
        deleted_at = excluded.deleted_at;
    RETURN OLD;
  END IF;
  INSERT INTO tool_revisions (tenant, revision) VALUES (NEW.tenant, 1)
    ON CONFLICT (tenant) DO UPDATE SET revision = tool_revisions.revision + 1
    RETURNING revision INTO NEW.sync_revision;
  IF TG_OP = 'INSERT' THEN
    DELETE FROM tool_tombstones WHERE tenant = NEW.tenant AND tool_id = NEW.id;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER tools_sync_stamp_write BEFORE INSERT OR UPDATE ON tools
  FOR EACH ROW EXECUTE FUNCTION tools_sync_stamp();
CREATE TRIGGER tools_sync_stamp_delete AFTER DELETE ON tools
  FOR EACH ROW EXECUTE FUNCTION tools_sync_stamp();
