import pg from 'pg'

/**
 * Gives up a stopped node's claim on its runs: deletes its `server_nodes` row, so the next due
 * job of a run it still had in flight is taken over by any live node's queue worker
 * (`runQueue.ts`: reads run again, writes already sent end `outcome_unknown`) without waiting
 * for its heartbeat to age. Called after the node's core closed (nothing of it runs any more), on a connection of
 * its own since the store's is closed by then. Returns false (and gives up) when the database
 * does not answer within `timeoutMs`: the row then times out as a dead node's would.
 */
export async function releaseNode(
  url: string,
  nodeId: string,
  timeoutMs = 3_000,
): Promise<boolean> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    application_name: `sitecall ${nodeId} (release)`,
  })
  try {
    await client.connect()
    await client.query('DELETE FROM server_nodes WHERE id = $1', [nodeId])
    return true
  } catch {
    // No answer in time: the row times out as a dead node's would (see above).
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}
