import type {
  AppApiInput,
  AppApiMethod,
  AppApiResult,
  AppInfo,
  ToolDetail,
} from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import { summarizeTool, type ToolSpec } from '../../shared/toolSpec'
import type { RecordingSessions } from '../browse/recordingSessions'
import { type RunEngine } from '../engine/runEngine'
import type { Store } from '../store/store'
import { type Vault } from '../vault'
import type { SiteLogins } from '../logins/siteLogins'
import type { AppSettingsService } from './appSettings'
import type { SignInFlows } from '../logins/signInFlows'
import type { ToolRouters } from '../surface/toolRouters'
import type { ToolRouter } from '../router/router'
import type { SeenLogins } from '../logins/seenLogins'
import { replaceableTool } from '../surface/toolReplace'
import type { AppSync } from '../sync/appSync'

/** What the UI contract's handlers are made of (`createAppHandlers`). */
export interface AppHandlerDeps {
  store: Store
  /** The service's tool routers (`tools.search` uses the owner workspace's search router). */
  routers: ToolRouters
  engine: RunEngine
  recordings: RecordingSessions
  clock: () => number
  ulid: () => string
  /** UUIDs of new candidates; default `crypto.randomUUID`. */
  uuid?: () => string
  info: () => AppInfo
  /** The local workspace every UI action runs in. */
  tenant: string
  /** Secrets and the master key. */
  vault: Vault
  /** Saved site logins, sign-in flows, and the logins recordings and HARs showed. */
  logins: { saved: SiteLogins; flows: SignInFlows; seen: SeenLogins }
  /** The editable settings. */
  settings: AppSettingsService
  /** Settings → "Link to a server": tool sync with a team server (`sync.*`). */
  sync: AppSync
}

/**
 * What the handlers share: the factory's dependencies, the store, the owner workspace's search
 * router (shared with REST search: it keeps what it learned of each tool between searches) and
 * the id source of new candidates.
 */
export interface AppContext {
  deps: AppHandlerDeps
  store: Store
  router: ToolRouter
  uuid: () => string
}

/** The handlers of the named methods. */
export type HandlersOf<M extends AppApiMethod> = {
  [K in M]: (input: AppApiInput<K>) => Promise<AppApiResult<K>>
}

/** The stored tool `id`; 404 `not_found` when there is none. */
export function toolOr404(store: Store, id: string): ToolSpec {
  const tool = store.tools.get(id)
  if (!tool) throw new ServiceError('not_found', `No tool ${id}.`)
  return tool
}

/** Throws 404 `not_found` unless the trace `traceId` is stored. */
export function traceOr404(store: Store, traceId: string): void {
  if (!store.traces.list().some((t) => t.id === traceId))
    throw new ServiceError('not_found', `No trace ${traceId}.`)
}

/** A tool with its target exchange and the earlier tool it may replace, for the review view. */
export function detailOf(store: Store, tool: ToolSpec): ToolDetail {
  const target = store.traces.getExchange(tool.evidence.traceId, tool.evidence.targetExchangeId)
  const replaces = replaceableTool(tool, store.tools)
  return { tool, target, replaces: replaces ? summarizeTool(replaces) : null }
}
