-- Issue 13 item 2: tools and traces belong to one workspace, like runs, logins, scopes, receipts
-- and index jobs already do, and every query of them says which. Rows written before belong to
-- the owner's workspace (`local`, the one the app's person works in).
ALTER TABLE traces ADD COLUMN tenant TEXT NOT NULL DEFAULT 'local';
CREATE INDEX traces_by_tenant_time ON traces (tenant, created_at);

-- A tool's name is unique on its site within a workspace, no longer across workspaces: SQLite
-- cannot change a table's UNIQUE constraint in place, and nothing references `tools`, so the
-- table is built again with the same rows.
CREATE TABLE tools_by_workspace (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  name TEXT NOT NULL,
  site_host TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('candidate', 'verified', 'quarantined')),
  spec TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (tenant, site_host, name)
);
INSERT INTO tools_by_workspace (id, tenant, name, site_host, status, spec, created_at, updated_at)
  SELECT id, 'local', name, site_host, status, spec, created_at, updated_at FROM tools;
DROP TABLE tools;
ALTER TABLE tools_by_workspace RENAME TO tools;
