-- Issue 27: a run's INSERT is sent together with its start reads (the engine's `createAhead`),
-- before the engine has seen the workspace's balance. This check goes out first in the run's
-- transaction and fails it, so nothing is stored, when the balance (as `usage` reads it: the
-- free grant for a workspace that never moved) covers less than one credit; the engine then
-- answers the 402 from its own read of the balance. SQLSTATE SC402 (class SC: Sitecall's own)
-- tells this refusal from any other failure.
CREATE FUNCTION sitecall_require_credit(p_tenant TEXT, p_grant INTEGER) RETURNS BOOLEAN
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF COALESCE((SELECT granted + purchased - charged FROM ledger_balances WHERE tenant = p_tenant),
      p_grant) >= 1 THEN
    RETURN TRUE;
  END IF;
  RAISE EXCEPTION 'workspace % has no credit left for a run', p_tenant USING ERRCODE = 'SC402';
END $$;
