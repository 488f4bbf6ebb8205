import PgBoss from 'pg-boss'
import { Counter, Gauge, type Registry } from 'prom-client'
import type { PgStore } from '../store/postgres/pgStore'
import { PgError } from '../store/postgres/pgSync'
import { refusedAhead } from '../store/postgres/pgRunRepository'

/** The pg-boss queue that holds every run in flight on a team server. */
export const RUN_QUEUE = 'sitecall-runs'
/** pg-boss's own schema in the server's database (made and migrated by pg-boss itself). */
export const RUN_QUEUE_SCHEMA = 'pgboss'
/** Statuses of a run that a node is executing (the engine's RUNNING). */
const IN_FLIGHT = ['accepted', 'working']
/** SQLSTATE of a unique violation (a run of the same Idempotency-Key committed first). */
const UNIQUE_VIOLATION = '23505'
/** PostgreSQL's clock in milliseconds since the epoch (as `serverNodes.ts` judges heartbeats). */
const DB_NOW = `(extract(epoch from clock_timestamp()) * 1000)::bigint`

/** A run's job payload: only the run's id (the run record holds the rest). */
interface RunJob {
  runId: string
}

/** What a worker did with one due job (kept as the job's output, and counted). */
type RunJobOutcome = 'ended' | 'held' | 'taken_over'

export interface RunQueue {
  /**
   * Puts `runId`'s job in the queue on the store's own connection: inside the transaction that
   * creates the run when one is open (sent with its next statement or COMMIT, so the run and its
   * job commit together or not at all), else at once. Synchronous, as the store is. The job
   * falls due one lease later: the node that created the run executes it at once and the job
   * only matters if that node dies first.
   */
  enlist(runId: string): void
  /**
   * Works the due jobs once (the workers call it every poll; tests may too): for each, a run
   * that ended (or waits on a person) completes it; a run in flight on a live node puts it back
   * for one more lease; a run in flight on a node whose heartbeat stopped is taken over by this
   * node (reads run again, writes already sent end `outcome_unknown`, writes not sent fail
   * `worker_lost`: the engine's recovery), its job completed with the output
   * `{outcome: 'taken_over', by: nodeId}`. Resolves with what was done to each job. Costs four
   * statements on pg-boss's pool per poll however many jobs are due, none on the store's.
   */
  workDue(): Promise<RunJobOutcome[]>
  /**
   * Gives a job to every run in flight that has none pending and is older than a lease (runs
   * created before this queue, or resumed after a person answered them). Resolves with how many.
   */
  enlistMissing(): Promise<number>
  /** Jobs worked by this node so far, by outcome. */
  readonly counts: Readonly<Record<RunJobOutcome, number>>
  /**
   * The queue's jobs not done yet, by pg-boss state (`created`, `retry`, `active`), all nodes;
   * read on pg-boss's own connections (not the store's: no round trip of a run's counted).
   */
  depth(): Promise<Record<string, number>>
  /** Stops polling and closes pg-boss's connections (jobs stay in the database). */
  stop(): Promise<void>
}

export interface RunQueueOptions {
  /** The server's PostgreSQL URL (pg-boss keeps a pool of its own: `poolSize` connections). */
  url: string
  /** The node's store: runs are created and judged on its connection. */
  store: PgStore
  nodeId: string
  /**
   * How long (ms) a job waits before a worker looks at it, and between looks while its node is
   * alive; also how old a heartbeat may be for its node to count as alive. Use the node timeout.
   */
  leaseMs: number
  /**
   * Ends or resumes the runs given, as after a restart (the core's `engine.recover` under
   * `store.runs.within`).
   */
  recover: (runIds: string[]) => void
  /** Poll for due jobs (default: on). Tests turn it off and call `workDue`. */
  poll?: boolean
  /** pg-boss's pool size (default 2). */
  poolSize?: number
  /** Called with a worker's error (the poll goes on). */
  onError?: (error: unknown) => void
}

/**
 * Makes every run `store` creates in flight (`accepted`, `working`) get its job in the same
 * transaction (`RunQueue.enlist`): the run's INSERT and the job's commit together, so no run a
 * client was told of lacks one. A run started by the engine (`createSoon`) costs one round trip
 * for all of it (BEGIN, the run's INSERT, the job's INSERT, COMMIT): its INSERT is not waited
 * for, so a run of the same Idempotency-Key committed meanwhile by another node fails the
 * transaction (23505, nothing committed) and the run is made again the waited way, which finds
 * that run (`created: false`, no job). Runs created waiting on a person get none: any node may
 * answer them; once answered, `enlistMissing` gives them one.
 */
export function enlistRunsOf(store: PgStore, queue: Pick<RunQueue, 'enlist'>): void {
  const runs = store.runs
  const create = runs.create.bind(runs)
  const createSoon = runs.createSoon.bind(runs)
  const withJob = <T extends { created: boolean }>(
    run: { runId: string; status: string },
    make: () => T,
  ): T =>
    store.pg.transaction(() => {
      const made = make()
      if (made.created && IN_FLIGHT.includes(run.status)) queue.enlist(run.runId)
      return made
    })
  const createAhead = runs.createAhead.bind(runs)
  runs.create = (run, now) => withJob(run, () => create(run, now))
  // The job rides with the run's INSERT, the start reads and the COMMIT; a refusal (the key's run
  // exists, no credit) rolls both back and the engine decides the waited way.
  runs.createAhead = (run, now, creditOf) => {
    try {
      return withJob(run, () => createAhead(run, now, creditOf)!)
    } catch (error) {
      if (refusedAhead(error)) return null
      throw error
    }
  }
  runs.createSoon = (run, now) => {
    try {
      return withJob(run, () => createSoon(run, now))
    } catch (error) {
      if (!(error instanceof PgError && error.code === UNIQUE_VIOLATION)) throw error
      return withJob(run, () => ({ ...create(run, now), persisted: Promise.resolve() }))
    }
  }
}

/** pg-boss's `db` executor over the store's synchronous connection (see `RunQueue.enlist`). */
function storeExecutor(store: PgStore): PgBoss.Db {
  return {
    executeSql(text: string, values: unknown[]) {
      const params = values.map((v) =>
        v !== null && typeof v === 'object' && !(v instanceof Buffer) ? JSON.stringify(v) : v,
      )
      if (store.pg.inTransaction) {
        store.pg.defer(text, params)
        return Promise.resolve({ rows: [] })
      }
      return Promise.resolve({ rows: store.pg.query(text, params).rows })
    },
  }
}

/**
 * pg-boss started on `options.url` with the run queue in it, made when absent. A start that
 * fails stops its pg-boss before trying again (its pool and supervision timers would otherwise
 * keep a node that never listens alive): nodes starting together on a new database race to
 * create pg-boss's schema and the queue, and the loser of a race may fail where its next try
 * finds them made. Rejects with the last error after `attempts` tries.
 */
async function openQueue(
  options: RunQueueOptions,
  leaseSeconds: number,
  attempts = 3,
): Promise<PgBoss> {
  for (let attempt = 1; ; attempt++) {
    const boss = new PgBoss({
      connectionString: options.url,
      schema: RUN_QUEUE_SCHEMA,
      max: options.poolSize ?? 2,
      application_name: `sitecall ${options.nodeId} queue`,
      schedule: false,
      supervise: true,
    })
    boss.on('error', (error) => options.onError?.(error))
    try {
      await boss.start()
      if (!(await boss.getQueue(RUN_QUEUE))) {
        try {
          await boss.createQueue(RUN_QUEUE, {
            name: RUN_QUEUE,
            policy: 'standard',
            // A run may be held by a live node for a long time (a waiting write, a slow site):
            // each look puts the job back for one lease, so the limit must outlast any run.
            retryLimit: 100_000,
            retryDelay: leaseSeconds,
            expireInSeconds: 60,
            retentionMinutes: 24 * 60,
          })
        } catch (error) {
          // Another node created it at the same moment.
          if (!(await boss.getQueue(RUN_QUEUE))) throw error
        }
      }
      return boss
    } catch (error) {
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined)
      if (attempt >= attempts) throw error
      options.onError?.(error)
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt))
    }
  }
}

/**
 * Starts a node's part of the durable run queue (runs go through a durable queue on
 * PostgreSQL), on pg-boss 10 (why pg-boss: docs/team-server.md "The run queue"). Creates
 * pg-boss's schema and the queue when absent (pg-boss migrates under its own advisory lock, so
 * nodes starting together are safe), then polls for due jobs every lease/5 (at least pg-boss's
 * 0.5 s) and gives jobs to jobless runs in flight every lease. Each run created on a node gets a
 * job with the run id as its singleton key in the same transaction (`enlist`); a worker in
 * every node looks at the due ones (`workDue`). Rejects when the database cannot be reached.
 */
export async function startRunQueue(options: RunQueueOptions): Promise<RunQueue> {
  const leaseSeconds = Math.max(1, Math.ceil(options.leaseMs / 1000))
  const boss = await openQueue(options, leaseSeconds)
  const queue: QueueNode = {
    boss,
    options,
    leaseSeconds,
    counts: { ended: 0, held: 0, taken_over: 0 },
    working: false,
  }
  const executor = storeExecutor(options.store)
  const workDue = () => workDueJobs(queue)
  const enlistMissing = () => enlistMissingRuns(queue)
  const timers: NodeJS.Timeout[] = []
  if (options.poll !== false) {
    const guarded = (fn: () => Promise<unknown>) => () => {
      fn().catch((error: unknown) => options.onError?.(error))
    }
    timers.push(
      setInterval(guarded(workDue), Math.max(500, Math.round(options.leaseMs / 5))),
      setInterval(guarded(enlistMissing), leaseSeconds * 1000),
    )
    for (const timer of timers) timer.unref()
  }
  return {
    enlist(runId) {
      void boss
        .send(
          RUN_QUEUE,
          { runId },
          {
            ...jobOptions(runId, leaseSeconds),
            startAfter: leaseSeconds,
            db: executor,
          },
        )
        .catch((error: unknown) => options.onError?.(error))
    },
    workDue,
    enlistMissing,
    counts: queue.counts,
    depth: () => queueDepth(boss),
    async stop() {
      for (const timer of timers) clearInterval(timer)
      await boss.stop({ graceful: false, wait: true, close: true })
    },
  }
}

/**
 * A run's job: one per run (its id is the singleton key), retried every lease for as long as the
 * run is in flight (`retryLimit` high enough never to end a live run's job).
 */
function jobOptions(runId: string, leaseSeconds: number) {
  return { singletonKey: runId, retryLimit: 100_000, retryDelay: leaseSeconds }
}

/** One node's part of the run queue: pg-boss, its options, the lease, counts, the busy flag. */
interface QueueNode {
  boss: PgBoss
  options: RunQueueOptions
  leaseSeconds: number
  /** Due jobs judged since start, by outcome (`RunQueue.counts`). */
  counts: Record<RunJobOutcome, number>
  /** A `workDue` pass is running: a second one in the meantime does nothing. */
  working: boolean
}

/**
 * What the runs of due jobs need (see `RunQueue.workDue`): one read on pg-boss's pool for all
 * of them (the node's event loop is not blocked by it), then the store only for a takeover.
 */
async function judgeRuns(queue: QueueNode, runIds: string[]): Promise<Map<string, RunJobOutcome>> {
  const { boss, options } = queue
  const { rows } = (await boss.getDb().executeSql(
    `SELECT r.id, r.status, r.node_id, n.heartbeat_at >= ${DB_NOW} - $2 AS alive
       FROM runs r LEFT JOIN server_nodes n ON n.id = r.node_id WHERE r.id = ANY($1::text[])`,
    [runIds, options.leaseMs],
  )) as {
    rows: Array<{ id: string; status: string; node_id: string | null; alive: boolean | null }>
  }
  const outcomes = new Map<string, RunJobOutcome>(runIds.map((id) => [id, 'ended']))
  const dead = new Set<string>()
  for (const row of rows) {
    if (!IN_FLIGHT.includes(row.status) || row.node_id === null) continue
    if (row.node_id === options.nodeId || row.alive) outcomes.set(row.id, 'held')
    else {
      outcomes.set(row.id, 'taken_over')
      dead.add(row.node_id)
    }
  }
  if (dead.size) {
    // One guarded UPDATE: a run another worker took first is not taken again.
    const taken = options.store.runs.adopt([...dead])
    if (taken.length) options.recover(taken)
  }
  return outcomes
}

/** `RunQueue.workDue`: fetches due jobs, judges their runs, and settles each job by outcome. */
async function workDueJobs(queue: QueueNode): Promise<RunJobOutcome[]> {
  const { boss, options } = queue
  if (queue.working) return []
  queue.working = true
  try {
    const jobs = await boss.fetch<RunJob>(RUN_QUEUE, { batchSize: 100 })
    if (!jobs.length) return []
    let judged: Map<string, RunJobOutcome>
    try {
      judged = await judgeRuns(
        queue,
        jobs.map((job) => job.data.runId),
      )
    } catch (error) {
      options.onError?.(error)
      await boss.fail(
        RUN_QUEUE,
        jobs.map((job) => job.id),
      )
      return []
    }
    const outcomes = jobs.map((job) => judged.get(job.data.runId) ?? 'ended')
    const idsOf = (outcome: RunJobOutcome) =>
      jobs.filter((_, i) => outcomes[i] === outcome).map((job) => job.id)
    for (const outcome of outcomes) queue.counts[outcome]++
    const held = idsOf('held')
    if (held.length) await boss.fail(RUN_QUEUE, held)
    const ended = idsOf('ended')
    if (ended.length) await boss.complete(RUN_QUEUE, ended)
    // A takeover is rare and worth its record: its job's output names the node.
    for (const id of idsOf('taken_over'))
      await boss.complete(RUN_QUEUE, id, { outcome: 'taken_over', by: options.nodeId })
    return outcomes
  } finally {
    queue.working = false
  }
}

/** `RunQueue.enlistMissing`: a job for every run in flight older than a lease that has none. */
async function enlistMissingRuns(queue: QueueNode): Promise<number> {
  const { boss, options, leaseSeconds } = queue
  const { rows } = (await boss.getDb().executeSql(
    `SELECT r.id FROM runs r
      WHERE r.status = ANY($1::text[]) AND r.node_id IS NOT NULL
        AND r.created_at < ${DB_NOW} - $2
        AND NOT EXISTS (SELECT 1 FROM ${RUN_QUEUE_SCHEMA}.job j
                         WHERE j.name = $3 AND j.singleton_key = r.id
                           AND j.state IN ('created', 'retry', 'active'))`,
    [IN_FLIGHT, options.leaseMs, RUN_QUEUE],
  )) as { rows: Array<{ id: string }> }
  if (rows.length)
    await boss.insert(
      rows.map((r) => ({
        name: RUN_QUEUE,
        data: { runId: r.id },
        ...jobOptions(r.id, leaseSeconds),
        startAfter: new Date(Date.now() + leaseSeconds * 1000),
      })),
    )
  return rows.length
}

/** `RunQueue.depth`: jobs not done yet, by state. */
async function queueDepth(boss: PgBoss): Promise<Record<string, number>> {
  const { rows } = (await boss.getDb().executeSql(
    `SELECT state, count(*)::int AS n FROM ${RUN_QUEUE_SCHEMA}.job
        WHERE name = $1 AND state IN ('created', 'retry', 'active') GROUP BY state`,
    [RUN_QUEUE],
  )) as { rows: Array<{ state: string; n: number }> }
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]))
}

/**
 * Adds the run queue's metrics to a node's registry (`/metrics`, labelled by node like the
 * rest): `sitecall_run_queue_jobs{state}` (jobs not done yet, all nodes: `created` ones wait for
 * their due time, `retry` ones are held by a live node, `active` ones a worker is looking at)
 * and `sitecall_run_queue_worked_total{outcome}` (due jobs this node's worker completed as
 * `ended` or `taken_over`, or put back as `held`).
 */
export function registerRunQueueMetrics(registry: Registry, queue: RunQueue): void {
  new Gauge({
    name: 'sitecall_run_queue_jobs',
    help: 'Jobs of the run queue not done yet, by pg-boss state (all nodes).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      try {
        const depth = await queue.depth()
        for (const state of ['created', 'retry', 'active']) this.set({ state }, depth[state] ?? 0)
      } catch {
        // The database is away: sitecall_database_up says so.
      }
    },
  })
  const counted: Record<RunJobOutcome, number> = { ended: 0, held: 0, taken_over: 0 }
  new Counter({
    name: 'sitecall_run_queue_worked_total',
    help: "Due run jobs this node's worker looked at, by outcome (ended, held, taken_over).",
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      for (const outcome of Object.keys(counted) as RunJobOutcome[]) {
        const now = queue.counts[outcome]
        if (now > counted[outcome]) this.inc({ outcome }, now - counted[outcome])
        counted[outcome] = now
      }
    },
  })
}
