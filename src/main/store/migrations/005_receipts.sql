-- Issue 5: receipts of account-API operations (spec "B": a repeated operation key returns the same
-- receipt; the same key with other inputs is refused). One row per (workspace, operation key);
-- `op_key` carries the ledger's namespace (`search:<key>`, `task:<key>`) so the three search forms
-- share one row.
CREATE TABLE operation_receipts (
  tenant TEXT NOT NULL,
  op_key TEXT NOT NULL,
  operation TEXT NOT NULL,
  -- sha256 of the canonical JSON of the inputs that define the operation.
  input_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('completed', 'uncertain')),
  -- Credits the operation cost (charged once, in the ledger under the same key).
  cost INTEGER NOT NULL,
  result TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, op_key)
);
