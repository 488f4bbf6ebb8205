import { isServiceError, ServiceError } from '../../shared/errors'
import type {
  IndexJobRecord,
  IndexJobRepository,
  IndexJobStatus,
} from '../store/indexJobRepository'
import type { Store } from '../store/store'
import { indexSite, siteOf, type IndexOutcome, type IndexSiteDeps } from './indexSite'
import type { DestinationCheck } from '../engine/guardProxy'

/** interface.md "Limits": concurrent indexing jobs 3 by default, index jobs per day 5. */
export interface IndexLimits {
  /** Jobs `queued` or `running` at once per workspace; one more is 429 `index_busy`. */
  concurrentJobs: number
  /** Jobs a workspace may create within `dayMs`; one more is 429 `index_limit`. */
  jobsPerDay: number
  /** The rolling window of `jobsPerDay`, ms (24 hours). */
  dayMs: number
}

const INDEX_LIMITS: IndexLimits = { concurrentJobs: 3, jobsPerDay: 5, dayMs: 86_400_000 }

/** The index job as the API answers it (interface.md "Index job"; fields beyond it "not shown"). */
export interface IndexJob {
  /** `idx_<ulid>` */
  id: string
  status: IndexJobStatus
  /** Candidates compiled: a job is done with something to show when `status` is done and this is above 0. */
  indexed: number
  url: string
  /** host[:port] of `url`: one active job per site. */
  site: string
  intent: string | null
  /** Why the job ended without a candidate, else null (see `IndexReason`, plus `interrupted`). */
  reason: string | null
  message: string | null
  traceId: string | null
  /** The candidates it compiled, each runnable at its `endpoint`. */
  tools: Array<{ id: string; name: string; status: string; endpoint: string }>
  signIn: { url: string } | null
  /** Milliseconds since the Unix epoch. */
  createdAt: number
  finishedAt: number | null
}

export interface IndexingDeps extends IndexSiteDeps {
  store: Pick<Store, 'tracesFor' | 'toolsFor' | 'indexJobs'>
  jobLimits?: Partial<IndexLimits>
}

/** Indexing of the local service: `POST /v1/index` (at once) and index jobs (in the background). */
export interface Indexing {
  /** Observes and compiles now; see {@link indexSite}. Stoppable with {@link Indexing.stop}. */
  index(
    tenant: string,
    input: { url: string; intent: string; traceId?: string; guard?: DestinationCheck },
  ): Promise<IndexOutcome>
  /**
   * Starts an index job, or returns the workspace's active job on the same site (`created`
   * false). `admit` runs once the limits passed and before the job exists (a balance check that
   * may throw); the function it returns runs once the job exists (the charge).
   *
   * @throws ServiceError 429 `index_limit` (`jobsPerDay` in the window; `retryAfterSeconds` says
   *   when the oldest leaves it), 429 `index_busy` (`concurrentJobs` active; details list them).
   */
  startJob(
    tenant: string,
    input: { url: string; intent?: string; guard?: DestinationCheck },
    admit?: (jobId: string) => () => void,
  ): { job: IndexJob; created: boolean }
  getJob(tenant: string, id: string): IndexJob | null
  /**
   * Cuts short the workspace's running observations (jobs and `POST /v1/index`): each stops its
   * recording at once and compiles what it saw. Returns how many were running.
   */
  stop(tenant: string): number
  /** Fails the jobs an earlier process left `queued` or `running` (reason `interrupted`). */
  recover(): number
  /** A new `trc_<ulid>` to pass to {@link Indexing.index}, known before the browser starts. */
  newTraceId(): string
  /** Throws `chromium_not_found` (503) when no Chromium can be launched: check before billing. */
  requireBrowser(): void
  /** Resolves when no observation is running (tests, shutdown). */
  idle(): Promise<void>
  /** Stops every observation and waits for them; safe to call twice. */
  close(): Promise<void>
}

interface Running {
  tenant: string
  controller: AbortController
  done: Promise<unknown>
}

/** Reasons after which a job `failed` rather than being `done` with nothing indexed. */
const FAILING_REASONS = new Set(['sign_in_required', 'site_unreachable', 'browser_failed'])
/** The indexing service's deps, limits, and the observations running now. */
interface IndexingContext {
  deps: IndexingDeps
  limits: IndexLimits
  jobs: IndexJobRepository
  running: Set<Running>
  /** Set by `close`: observations started later are stopped at once. */
  closed: boolean
}

/**
 * Creates the indexing service (interface.md "C" `POST /api/v1/index`, `GET /api/v1/index/{id}`,
 * "Index job", "Capacity and timing" `index_busy` / `index_limit`, "Limits").
 *
 * A job is stored `queued`, turns `running` as its browser starts, and ends `done` (observed and
 * compiled: `indexed` is the number of candidates saved, 0 with reason `no_evidence` or `stopped`
 * when nothing carried the intent's evidence) or `failed` (reason `sign_in_required` with
 * `signIn.url`, `site_unreachable`, `browser_failed`, or `interrupted` when the app stopped
 * under it). A job without an intent compiles for `list the data of <url>`: the page's own data
 * requests on load.
 *
 * The limits count stored jobs, per workspace: at most `concurrentJobs` queued or running, at
 * most `jobsPerDay` created in any rolling `dayMs` window (clock injectable). Asking for a site
 * with an active job returns that job; it counts against neither limit.
 */
export function createIndexing(deps: IndexingDeps): Indexing {
  const ctx: IndexingContext = {
    deps,
    limits: { ...INDEX_LIMITS, ...deps.jobLimits },
    jobs: deps.store.indexJobs,
    running: new Set(),
    closed: false,
  }
  const { jobs, running } = ctx
  return {
    index: (tenant, input) =>
      track(ctx, tenant, (signal) => indexSite(deps, tenant, { ...input, signal })),
    startJob: (tenant, input, admit) => startJob(ctx, tenant, input, admit),
    getJob(tenant, id) {
      const record = jobs.get(tenant, id)
      return record ? present(ctx, record) : null
    },
    stop(tenant) {
      let count = 0
      for (const entry of running)
        if (entry.tenant === tenant && !entry.controller.signal.aborted) {
          entry.controller.abort()
          count++
        }
      return count
    },

    recover: () =>
      jobs.failActive(
        'interrupted',
        'The app stopped while this job ran: start a new index job.',
        deps.clock(),
      ),

    newTraceId: () => `trc_${deps.ulid()}`,

    requireBrowser: () => void deps.chromiumPath(),

    idle: () => idle(ctx),
    async close() {
      ctx.closed = true
      for (const entry of running) entry.controller.abort()
      await idle(ctx)
    },
  }
}

/** Resolves once no observation is running, including ones started while waiting. */
async function idle(ctx: IndexingContext): Promise<void> {
  while (ctx.running.size) await Promise.all([...ctx.running].map((r) => r.done))
}

/** A stored job as the API answers it, with the candidates it compiled that still exist. */
function present(ctx: IndexingContext, record: IndexJobRecord): IndexJob {
  return {
    id: record.id,
    status: record.status,
    indexed: record.indexed,
    url: record.url,
    site: record.site,
    intent: record.intent,
    reason: record.reason,
    message: record.message,
    traceId: record.traceId,
    tools: record.toolIds.flatMap((id) => {
      const tool = ctx.deps.store.toolsFor(record.tenant).get(id)
      return tool
        ? [{ id, name: tool.name, status: tool.status, endpoint: `/v1/tools/${id}/execute` }]
        : []
    }),
    signIn: record.signInUrl ? { url: record.signInUrl } : null,
    createdAt: record.createdAt,
    finishedAt: record.finishedAt,
  }
}

/** Runs `work` with a stop signal tracked for `stop(tenant)` and `close()`. */
function track<T>(
  ctx: IndexingContext,
  tenant: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  if (ctx.closed) controller.abort()
  const entry: Running = { tenant, controller, done: Promise.resolve() }
  const done = work(controller.signal).finally(() => ctx.running.delete(entry))
  entry.done = done.catch(() => undefined)
  ctx.running.add(entry)
  return done
}

/** Runs a stored job: `running`, then `done` or `failed` with what the observation found. */
async function runJob(
  ctx: IndexingContext,
  record: IndexJobRecord,
  signal: AbortSignal,
  guard: DestinationCheck | undefined,
): Promise<void> {
  const { deps, jobs } = ctx
  jobs.update(record.id, { status: 'running' }, deps.clock())
  let outcome: IndexOutcome
  try {
    outcome = await indexSite(deps, record.tenant, {
      url: record.url,
      intent: record.intent ?? `list the data of ${record.url}`,
      signal,
      ...(guard ? { guard } : {}),
    })
  } catch (error) {
    const denied = isServiceError(error) && error.code === 'destination_denied'
    jobs.update(
      record.id,
      {
        status: 'failed',
        reason: denied ? 'destination_denied' : 'browser_failed',
        message: isServiceError(error) ? error.message : String(error),
        finishedAt: deps.clock(),
      },
      deps.clock(),
    )
    return
  }
  const failed = outcome.reason !== null && FAILING_REASONS.has(outcome.reason)
  jobs.update(
    record.id,
    {
      status: failed ? 'failed' : 'done',
      indexed: outcome.candidate ? 1 : 0,
      reason: outcome.reason,
      message: outcome.message,
      traceId: outcome.traceId,
      toolIds: outcome.candidate ? [outcome.candidate.id] : [],
      signInUrl: outcome.signIn?.url ?? null,
      finishedAt: deps.clock(),
    },
    deps.clock(),
  )
}

/**
 * Throws when the workspace may start no job now: 429 `index_limit` (`jobsPerDay` in the
 * window, `retryAfterSeconds` until the oldest leaves it), 429 `index_busy` (`concurrentJobs`).
 */
function checkJobLimits(
  ctx: IndexingContext,
  tenant: string,
  active: IndexJobRecord[],
  now: number,
): void {
  const { jobs, limits } = ctx
  const since = now - limits.dayMs
  if (jobs.countSince(tenant, since) >= limits.jobsPerDay) {
    const oldest = jobs.oldestSince(tenant, since)
    const retryAfterSeconds = oldest
      ? Math.max(1, Math.ceil((oldest.createdAt + limits.dayMs - now) / 1000))
      : 1
    throw new ServiceError(
      'index_limit',
      `This workspace has started ${limits.jobsPerDay} index jobs in the last 24 hours: try tomorrow.`,
      { limit: limits.jobsPerDay, retryAfterSeconds },
    )
  }
  if (active.length >= limits.concurrentJobs)
    throw new ServiceError(
      'index_busy',
      `This workspace has ${limits.concurrentJobs} index jobs running: wait, and GET one of them.`,
      { limit: limits.concurrentJobs, jobs: active.map((j) => `/api/v1/index/${j.id}`) },
    )
}

/** `Indexing.startJob`: the site's active job, or a new one stored `queued` and started. */
function startJob(
  ctx: IndexingContext,
  tenant: string,
  input: { url: string; intent?: string; guard?: DestinationCheck },
  admit?: (jobId: string) => () => void,
): { job: IndexJob; created: boolean } {
  const { deps, jobs } = ctx
  const site = siteOf(input.url)
  const active = jobs.active(tenant)
  const same = active.find((j) => j.site === site)
  if (same) return { job: present(ctx, same), created: false }
  const now = deps.clock()
  checkJobLimits(ctx, tenant, active, now)
  const id = `idx_${deps.ulid()}`
  const charge = admit?.(id)
  const record: IndexJobRecord = {
    id,
    tenant,
    url: input.url,
    site,
    intent: input.intent ?? null,
    status: 'queued',
    indexed: 0,
    reason: null,
    message: null,
    traceId: null,
    toolIds: [],
    signInUrl: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  }
  jobs.create(record)
  charge?.()
  void track(ctx, tenant, (signal) => runJob(ctx, record, signal, input.guard)).catch(
    () => undefined,
  )
  return { job: present(ctx, jobs.get(tenant, id) ?? record), created: true }
}
