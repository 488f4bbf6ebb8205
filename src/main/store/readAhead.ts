/**
 * Reads a run is about to make, told to a store that can send them together with the next
 * statement (PostgreSQL: one round trip for all, `SyncPg.prefetch`). The SQLite store reads
 * locally and has none. Each hint only queues reads: what the engine then reads is answered from
 * them when it asks for exactly that, else read as before, so a hint never changes an answer
 * beyond reading it a moment earlier (within the same task of the event loop).
 */
export interface ReadAhead {
  /**
   * A request of a caller working in `workspace` was authenticated: the workspace's tools'
   * revision (read by every route that resolves or lists a tool) rides with the rate limit's
   * statement.
   */
  caller(workspace: string): void
  /**
   * A run of a tool of `siteHost` is about to start for `tenant`: its Idempotency-Key's run
   * (when it has a key), its workspace's balance (when it bills) and its saved login for the site
   * are read next.
   */
  runStart(tenant: string, siteHost: string, idempotencyKey: string | null, bills: boolean): void
  /**
   * A run of `tenant` is about to record its success: the tools' revision of its workspace (the
   * quarantine reads the tool's current status) is read with the transaction's first statement.
   */
  runEnd(tenant: string): void
}
