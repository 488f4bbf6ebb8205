import type { PgStore } from './store/postgres/pgStore'

/** PostgreSQL's clock in milliseconds since the epoch: every node judges heartbeats by it. */
const DB_NOW = `(extract(epoch from clock_timestamp()) * 1000)::bigint`

export interface NodeLiveness {
  /**
   * One heartbeat, then (when this node has been connected for a whole timeout) the removal of
   * nodes whose heartbeat is older than the timeout and the takeover of their runs in flight.
   * Returns the ids of the runs taken over (the timer calls it; tests may too). Throws 503
   * `unavailable` when the database is away (the timer ignores it and tries again).
   */
  beat(): string[]
  /**
   * Stops the heartbeats (before the core drains and closes): the row times out, and any run
   * still in flight then is taken over by a live node.
   */
  stop(): void
}

export interface NodeLivenessOptions {
  store: PgStore
  nodeId: string
  /**
   * Ends or resumes runs as after a restart, seeing only the runs given (the core's
   * `engine.recover` under `store.runs.within`): writes already sent end `outcome_unknown`,
   * writes not sent fail `worker_lost`, reads run again.
   */
  recover: (runIds: string[]) => void
  /** A node silent this long (ms) is gone; heartbeats come five times as often. Default 10 s. */
  timeoutMs?: number
  /**
   * Whether each beat also takes over the runs of nodes it removed (default true). Off when the
   * run queue does it (`server/runQueue.ts`: a due job of a dead node's run).
   */
  adoptOrphans?: boolean
}

/**
 * Keeps a team server node's heartbeat in `server_nodes` and takes over the runs of nodes that
 * died ("a node that dies mid-run loses nothing"). At start it takes back the runs
 * its own id left in flight in an earlier life (a restart under the same `--node-id`). Two nodes
 * sweeping at once never take one run twice (`adoptOrphans` is one UPDATE). A node that lost the
 * database waits a whole timeout after it is back before it judges others, so a database outage
 * does not make nodes take over each other's runs.
 */
export function startNodeLiveness(options: NodeLivenessOptions): NodeLiveness {
  const { store, nodeId, recover } = options
  const timeoutMs = options.timeoutMs ?? 10_000
  const { pg, runs } = store
  let connectedSince: number | null = null
  const takeOver = (ids: string[]) => {
    if (ids.length) recover(ids)
    return ids
  }
  const register = () =>
    pg.query(
      `INSERT INTO server_nodes (id, started_at, heartbeat_at) VALUES ($1, ${DB_NOW}, ${DB_NOW})
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = ${DB_NOW}`,
      [nodeId],
    )
  const beat = (): string[] => {
    try {
      register()
    } catch (error) {
      connectedSince = null
      throw error
    }
    const now = Date.now()
    connectedSince ??= now
    if (now - connectedSince < timeoutMs) return []
    pg.query(`DELETE FROM server_nodes WHERE heartbeat_at < ${DB_NOW} - $1 AND id <> $2`, [
      timeoutMs,
      nodeId,
    ])
    return options.adoptOrphans === false ? [] : takeOver(runs.adoptOrphans())
  }
  // Runs this node id left in flight before a restart are no one's now.
  takeOver(runs.adopt([nodeId]))
  register()
  connectedSince = Date.now()
  const timer = setInterval(
    () => {
      try {
        beat()
      } catch {
        // The database is away: the next beat tries again.
      }
    },
    Math.max(100, Math.round(timeoutMs / 5)),
  )
  timer.unref()
  return {
    beat,
    stop: () => clearInterval(timer),
  }
}
