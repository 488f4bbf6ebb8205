import type { ReadAhead } from '../readAhead'
import type { Store } from '../store'
import type { TraceRepository } from '../traceRepository'
import type { ToolRepository } from '../toolRepository'
import { OWNER_WORKSPACE, workspaceOf } from '../workspaces'
import { migratePg } from './migrate'
import { createPgAccountRepository } from './pgAccountRepository'
import { createPgKeyRepository } from './pgKeyRepository'
import { createPgLedgerRepository, prefetchUsage } from './pgLedgerRepository'
import { createPgOAuthRepository } from './pgOAuthRepository'
import { createPgReceiptRepository } from './pgReceiptRepository'
import { createPgRunRepository, prefetchRunByKey, type PgRunRepository } from './pgRunRepository'
import {
  createPgIndexJobRepository,
  createPgLocalSiteRepository,
  createPgScopeRepository,
  createPgToolHealthRepository,
} from './pgSmallRepositories'
import { connectSyncPg, type SyncPg, type SyncPgOptions } from './pgSync'
import { createPgToolRepository, prefetchToolRevision } from './pgToolRepository'
import { createPgToolSyncRepository } from './pgToolSyncRepository'
import { createPgTraceRepository } from './pgTraceRepository'
import {
  createPgLoginRepository,
  createPgSecretRepository,
  prefetchLogin,
} from './pgVaultRepositories'

/** The PostgreSQL store: the `Store` contract plus its connection (server parts use it too). */
export interface PgStore extends Store {
  readonly kind: 'postgres'
  pg: SyncPg
  runs: PgRunRepository
  /** A run's next reads sent together with its next statement (see `ReadAhead`). */
  readAhead: ReadAhead
}

export interface PgStoreOptions extends SyncPgOptions {
  /**
   * The team server node this store serves: recorded with the migrations it applies
   * (`schema_migrations.applied_by`) and with each run it creates (`runs.node_id`).
   */
  nodeId?: string
  /** Skip migrating (a caller that migrated already). */
  migrate?: boolean
}

/**
 * Opens the store on the PostgreSQL database at `url` and applies its migrations once (under an
 * advisory lock, so nodes starting together migrate once).
 *
 * Why synchronous: the core's repositories are synchronous (better-sqlite3), and the engine, the
 * API, MCP and the app call them in hundreds of places. A synchronous connection (`pgSync.ts`:
 * node-postgres on a helper thread, the caller blocked on `Atomics.wait` until it answers) keeps
 * that contract, so the same core runs on both stores and one contract suite proves them alike.
 * The cost is that each round trip blocks the node's event loop (0.4-0.8 ms on loopback on this
 * 2-core machine under load, more across a network): a node waits on one round trip at a time,
 * and a team server scales by running one node per core behind the load balancer. Statements
 * whose answers nobody waits for ride with the next one (`pgSync.ts`), the reads a run is about
 * to make are sent together (`readAhead`), a run with nothing to ask is stored in a transaction
 * that rides with those reads (`runs.createAhead`), and a verified tool's success, credit and
 * health are one statement (`runs.succeed`): a verified read run takes 3 round trips (it took 14).
 * Statement and lock timeouts bound how long a node can be held.
 * Throws `unavailable` when the database cannot be reached, or what a failed migration threw.
 */
export function createPgStore(url: string, options: PgStoreOptions = {}): PgStore {
  const pg = connectSyncPg(url, options)
  if (options.migrate !== false) migratePg(pg, options.nodeId)
  const traces = new Map<string, TraceRepository>()
  const tools = new Map<string, ToolRepository>()
  const tracesFor = (tenant: string): TraceRepository => {
    const workspace = workspaceOf(tenant)
    const repository = traces.get(workspace) ?? createPgTraceRepository(pg, workspace)
    traces.set(workspace, repository)
    return repository
  }
  const toolsFor = (tenant: string): ToolRepository => {
    const workspace = workspaceOf(tenant)
    const repository = tools.get(workspace) ?? createPgToolRepository(pg, workspace)
    tools.set(workspace, repository)
    return repository
  }
  return {
    kind: 'postgres',
    pg,
    traces: tracesFor(OWNER_WORKSPACE),
    tools: toolsFor(OWNER_WORKSPACE),
    tracesFor,
    toolsFor,
    runs: createPgRunRepository(pg, options.nodeId ?? null),
    readAhead: {
      caller: (workspace) => prefetchToolRevision(pg, workspaceOf(workspace)),
      runStart(tenant, siteHost, idempotencyKey, bills) {
        if (idempotencyKey) prefetchRunByKey(pg, tenant, idempotencyKey)
        if (bills) prefetchUsage(pg, tenant)
        prefetchLogin(pg, tenant, siteHost)
      },
      runEnd: (tenant) => prefetchToolRevision(pg, workspaceOf(tenant)),
    },
    keys: createPgKeyRepository(pg),
    logins: createPgLoginRepository(pg),
    ledger: createPgLedgerRepository(pg),
    health: createPgToolHealthRepository(pg),
    oauth: createPgOAuthRepository(pg),
    scopes: createPgScopeRepository(pg),
    receipts: createPgReceiptRepository(pg),
    indexJobs: createPgIndexJobRepository(pg),
    localSites: createPgLocalSiteRepository(pg),
    secrets: createPgSecretRepository(pg),
    accounts: createPgAccountRepository(pg),
    toolSync: createPgToolSyncRepository(pg),
    transaction: (fn) => pg.transaction(fn),
    // PostgreSQL's VACUUM reclaims dead rows by itself.
    purgeFreed: () => undefined,
    close: () => pg.close(),
  }
}
