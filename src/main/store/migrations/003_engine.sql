-- Issue 4: what a run already sent (kept when it is cancelled or its answer is lost), the
-- billing ledger, and the health of each tool (quarantine after repeated drift).
ALTER TABLE runs ADD COLUMN effects TEXT NOT NULL DEFAULT '[]';
ALTER TABLE runs ADD COLUMN mutating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN bill_on_success INTEGER NOT NULL DEFAULT 0;
CREATE INDEX runs_by_status ON runs(status);

-- One row per movement of credits; `ref` makes a charge happen once (a run, an operation key).
CREATE TABLE ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'purchase', 'charge')),
  -- Credits: positive for grants and purchases, negative for charges.
  amount INTEGER NOT NULL,
  ref TEXT NOT NULL,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL,
  UNIQUE (tenant, ref)
);

CREATE TABLE tool_health (
  tool_id TEXT PRIMARY KEY,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_failure_code TEXT,
  last_good_inputs TEXT,
  quarantined_at INTEGER,
  checked_at INTEGER
);
