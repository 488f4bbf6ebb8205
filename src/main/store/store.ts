import { createAccountRepository, type AccountRepository } from './accountRepository'
import { openDatabase, type Db } from './db'
import { createIndexJobRepository, type IndexJobRepository } from './indexJobRepository'
import { createKeyRepository, type KeyRepository } from './keyRepository'
import { createLedgerRepository, type LedgerRepository } from './ledgerRepository'
import { createLocalSiteRepository, type LocalSiteRepository } from './localSiteRepository'
import { createLoginRepository, type LoginRepository } from './loginRepository'
import { createOAuthRepository, type OAuthRepository } from './oauthRepository'
import { createReceiptRepository, type ReceiptRepository } from './receiptRepository'
import { createRunRepository, type RunRepository } from './runRepository'
import { createScopeRepository, type ScopeRepository } from './scopeRepository'
import { createSecretRepository, type SecretRepository } from './secretRepository'
import { createToolHealthRepository, type ToolHealthRepository } from './toolHealthRepository'
import { createToolRepository, type ToolRepository } from './toolRepository'
import { createToolSyncRepository, type ToolSyncRepository } from './toolSyncRepository'
import { createTraceRepository, type TraceRepository } from './traceRepository'
import { startWalCheckpoints } from './walCheckpoints'
import { OWNER_WORKSPACE, workspaceOf } from './workspaces'

/**
 * The core's records, whatever holds them (docs/architecture.md "one store interface, two
 * implementations"): the SQLite file of the desktop and `serve` (`createStore`), or PostgreSQL
 * shared by the nodes of a team server (`postgres/pgStore.ts`). Every repository is synchronous:
 * the engine, the API, MCP and the app call them as they did when SQLite was the only store.
 */
export interface Store {
  /** The owner's workspace's traces (the app's person: the recorder, the CLI, the app's views). */
  traces: TraceRepository
  /** The owner's workspace's tools (as `traces`). */
  tools: ToolRepository
  /**
   * The traces of the workspace a caller of tenant `tenant` works in (`org::user` works in `org`,
   * see `workspaceOf`); the same repository each time. API routes read and write through this
   *; the owner's tenant gives `traces`.
   */
  tracesFor(tenant: string): TraceRepository
  /** The tools of the workspace a caller of tenant `tenant` works in (as `tracesFor`). */
  toolsFor(tenant: string): ToolRepository
  runs: RunRepository
  keys: KeyRepository
  logins: LoginRepository
  ledger: LedgerRepository
  health: ToolHealthRepository
  /** OAuth clients, grants, codes and tokens. */
  oauth: OAuthRepository
  /** Tool scopes per workspace (interface.md "Tool scope"). */
  scopes: ScopeRepository
  /** Receipts of account-API operations by operation key. */
  receipts: ReceiptRepository
  /** Index jobs of `POST /api/v1/index`. */
  indexJobs: IndexJobRepository
  /** Local sites each workspace's owner allowed API URLs to reach. */
  localSites: LocalSiteRepository
  /** The vault's key record, data keys and sealed secrets. */
  secrets: SecretRepository
  /**
   * A team server's accounts, sessions, workspaces, members and invitations. The
   * desktop and `serve` never write them: their one owner works in `OWNER_WORKSPACE`.
   */
  accounts: AccountRepository
  /**
   * Tool revisions, tombstones and push answers of a team server's sync. The
   * desktop keeps its own side (links, outbox, conflicts) in `src/main/sync/`.
   */
  toolSync: ToolSyncRepository
  /**
   * Runs `fn` in one transaction: its writes through any repository land together or not at all
   * (a savepoint when one is open already). Returns what `fn` returned; rethrows what it threw.
   */
  transaction<T>(fn: () => T): T
  /**
   * Called after sealing emptied plaintext columns: old pages holding them are dropped where the
   * store keeps such pages (SQLite's WAL is checkpointed and truncated).
   */
  purgeFreed(): void
  /** Which implementation this is. */
  readonly kind: 'sqlite' | 'postgres'
  close(): void
}

/** The embedded store: the SQLite file of one data dir. */
export interface SqliteStore extends Store {
  db: Db
  readonly kind: 'sqlite'
}

/** Opens the SQLite file at `path` (migrating it) and builds every repository over it. */
export function createStore(path: string): SqliteStore {
  const db = openDatabase(path)
  const checkpoints = startWalCheckpoints(path)
  const traces = new Map<string, TraceRepository>()
  const tools = new Map<string, ToolRepository>()
  const tracesFor = (tenant: string): TraceRepository => {
    const workspace = workspaceOf(tenant)
    const repository = traces.get(workspace) ?? createTraceRepository(db, workspace)
    traces.set(workspace, repository)
    return repository
  }
  const toolsFor = (tenant: string): ToolRepository => {
    const workspace = workspaceOf(tenant)
    const repository = tools.get(workspace) ?? createToolRepository(db, workspace)
    tools.set(workspace, repository)
    return repository
  }
  return {
    db,
    kind: 'sqlite',
    transaction: (fn) => db.transaction(fn)(),
    purgeFreed: () => void db.pragma('wal_checkpoint(TRUNCATE)'),
    secrets: createSecretRepository(db),
    traces: tracesFor(OWNER_WORKSPACE),
    tools: toolsFor(OWNER_WORKSPACE),
    tracesFor,
    toolsFor,
    runs: createRunRepository(db),
    keys: createKeyRepository(db),
    logins: createLoginRepository(db),
    ledger: createLedgerRepository(db),
    health: createToolHealthRepository(db),
    oauth: createOAuthRepository(db),
    scopes: createScopeRepository(db),
    receipts: createReceiptRepository(db),
    indexJobs: createIndexJobRepository(db),
    localSites: createLocalSiteRepository(db),
    accounts: createAccountRepository(db),
    toolSync: createToolSyncRepository(db),
    close: () => {
      checkpoints.stop()
      db.close()
    },
  }
}
