-- Issue 12: the ledger keeps site-tool runs' credits as a running count per workspace instead of
-- a row per run. A row per run wrote three more pages to the WAL on every succeeded call (the
-- ledger's table, its (tenant, ref) index and the AUTOINCREMENT counter); the run itself says it
-- was billed (`runs.billed`), and the Usage view lists run charges from there.
CREATE TABLE ledger_run_charges (
  tenant TEXT PRIMARY KEY,
  -- Credits charged for succeeded site-tool runs (one each).
  charged INTEGER NOT NULL DEFAULT 0
);
INSERT INTO ledger_run_charges (tenant, charged)
  SELECT tenant, -SUM(amount) FROM ledger
  WHERE kind = 'charge' AND ref LIKE 'run:%' GROUP BY tenant;
-- A run charged before this kept its row; the run is marked billed so the Usage view still lists it.
UPDATE runs SET billed = 1
  WHERE id IN (SELECT substr(ref, 5) FROM ledger WHERE kind = 'charge' AND ref LIKE 'run:%');
DELETE FROM ledger WHERE kind = 'charge' AND ref LIKE 'run:%';
