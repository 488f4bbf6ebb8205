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
import { createToolHealthRepository, type ToolHealthRepository } from './toolHealthRepository'
import { createToolRepository, type ToolRepository } from './toolRepository'
import { createTraceRepository, type TraceRepository } from './traceRepository'

export interface Store {
  db: Db
  traces: TraceRepository
  tools: ToolRepository
  runs: RunRepository
  keys: KeyRepository
  logins: LoginRepository
  ledger: LedgerRepository
  health: ToolHealthRepository
  /** OAuth clients, grants, codes and tokens (issue 5 "Auth"). */
  oauth: OAuthRepository
  /** Tool scopes per workspace (spec "Tool scope"). */
  scopes: ScopeRepository
  /** Receipts of account-API operations by operation key (issue 5). */
  receipts: ReceiptRepository
  /** Index jobs of `POST /api/v1/index` (issue 5). */
  indexJobs: IndexJobRepository
  /** Local sites each workspace's owner allowed API URLs to reach (issue 13 item 3). */
  localSites: LocalSiteRepository
  close(): void
}

/** Opens the SQLite file at `path` (migrating it) and builds every repository over it. */
export function createStore(path: string): Store {
  const db = openDatabase(path)
  return {
    db,
    traces: createTraceRepository(db),
    tools: createToolRepository(db),
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
    close: () => db.close(),
  }
}
