import type { FastifyInstance } from 'fastify'
import type { OwnerTokens } from './api/oauth/ownerTokens'
import type { AppHandlers } from './app/appHandlers'
import { repointDemoTools } from './app/demoTools'
import type { ToolRouters } from './surface/toolRouters'
import type { BrowseSessions } from './browse/browseSessions'
import type { Indexing } from './browse/indexJobs'
import type { RecordingSessions } from './browse/recordingSessions'
import type { SignInFlows } from './logins/signInFlows'
import type { SignInLinks } from './logins/signInLinks'
import type { SiteLogins } from './logins/siteLogins'
import type { SeenLogins } from './logins/seenLogins'
import { DEFAULT_PORT } from './config'
import type { RunEngine } from './engine/runEngine'
import { retentionFrom, startResultSweep } from './engine/resultRetention'
import type { EventBus } from './events'
import type { SqliteStore, Store } from './store/store'
import { lockDataDir } from './store/dataDirLock'
import type { Vault } from './vault'
import {
  buildCoreServices,
  openCoreStores,
  type CoreConfig,
  type CoreServices,
  type CoreState,
  type CoreStores,
} from './coreServices'
import { buildCoreSurfaces, type CoreSurfaces } from './coreSurfaces'

export { LOCAL_TENANT, type CoreConfig } from './coreServices'

export interface Core<S extends Store = SqliteStore> {
  home: string
  store: S
  /** Secrets and the master key's mode; opened on first use. */
  vault: Vault
  engine: RunEngine
  events: EventBus
  recordings: RecordingSessions
  /** The agents' browse sessions: the MCP browser tools call these. */
  browse: BrowseSessions
  /** Saved site logins, sealed in the vault. */
  logins: SiteLogins
  /** The logins recordings and HARs showed, offered for saving. */
  seenLogins: SeenLogins
  /** Sign-in flows in a browser (UI `logins.signIn`, `sitecall login HOST`, one-time links). */
  signIns: SignInFlows
  /** One-time sign-in links of runs that met a sign-in wall (`signIn.url`). */
  signInLinks: SignInLinks
  /** `POST /v1/index` and the index jobs of `/api/v1/index`. */
  indexing: Indexing
  handlers: AppHandlers
  /** The tool routers every surface ranks with (one per workspace and list), made once here. */
  routers: ToolRouters
  server: FastifyInstance
  /** The first owner token of this process (one hour): the UI's session, printed in its URL. */
  ownerToken: string
  /** Mints and refreshes owner tokens (interface.md "Other time-bound states": one hour each). */
  ownerTokens: OwnerTokens
  /**
   * Takes the data dir's lock (409 `resource_locked` naming the process holding it), recovers
   * runs a crash left in flight, then listens on 127.0.0.1; resolves with the base URL.
   */
  listen(): Promise<string>
  /** Stops recordings, the server and the database; safe to call twice. */
  close(): Promise<void>
}

/** The composition root (docs/architecture.md "The pipeline and the rooms"): the only place that wires services together. */
export function createCore(config?: CoreConfig): Core
/**
 * A core over a store opened by the caller (the team server's PostgreSQL, `serverCommand.ts`)
 * instead of the data dir's SQLite file; the core closes it with itself.
 */
export function createCore<S extends Store>(config: CoreConfig & { store: S }): Core<S>
export function createCore(config: CoreConfig & { store?: Store } = {}): Core<Store> {
  const state: CoreState = { baseUrl: '', stopResultSweep: undefined, lock: null, closed: false }
  const stores = openCoreStores(config)
  const services = buildCoreServices(config, stores, state)
  const surfaces = buildCoreSurfaces(config, stores, services, state)
  const parts: CoreParts = { config, state, stores, services, surfaces }
  const { home, store, vault, events, logins, ownerToken, ownerTokens } = stores
  const { engine, recordings, browse, seenLogins, signIns, signInLinks, indexing } = services
  return {
    home,
    store,
    vault,
    engine,
    events,
    recordings,
    browse,
    logins,
    seenLogins,
    signIns,
    signInLinks,
    indexing,
    handlers: surfaces.handlers,
    routers: surfaces.routers,
    server: surfaces.server,
    ownerToken,
    ownerTokens,
    listen: () => listenCore(parts),
    close: () => closeCore(parts),
  }
}

/** A built core's parts, as its `listen` and `close` use them. */
interface CoreParts {
  config: CoreConfig
  state: CoreState
  stores: CoreStores
  services: CoreServices
  surfaces: CoreSurfaces
}

/**
 * `Core.listen`: takes the data dir's lock, recovers runs and index jobs a crash left, starts
 * the result sweep, listens, then points the demo tools at the URL and enables the device agent.
 */
async function listenCore({
  config,
  state,
  stores,
  services,
  surfaces,
}: CoreParts): Promise<string> {
  const { home, store, clock, settings } = stores
  const { server } = surfaces
  const port = config.port ?? DEFAULT_PORT
  // One serving process per data dir: a second one refuses here, before
  // its recovery could end the first one's runs.
  if (!config.serverNode) {
    state.lock ??= lockDataDir(home)
    // Runs a crash or kill left in flight: writes end outcome_unknown, reads run again. Only
    // the serving process owns runs: a core opened without serving (`sitecall record`) next
    // to a running server must not end that server's runs.
    services.engine.recover()
  }
  state.stopResultSweep ??= startResultSweep({
    runs: store.runs,
    clock,
    rule: config.resultRetention ?? retentionFrom(settings.resultRetention),
    ...(config.resultSweepMs !== undefined ? { everyMs: config.resultSweepMs } : {}),
  })
  if (!config.serverNode) services.indexing.recover()
  const host = config.host ?? '127.0.0.1'
  await server.listen({ host, port })
  const address = server.server.address()
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  state.baseUrl = `http://${local}:${typeof address === 'object' && address ? address.port : port}`
  if (!config.serverNode) repointDemoTools(store.tools, state.baseUrl, clock())
  services.device?.enable()
  return state.baseUrl
}

/**
 * `Core.close`, once: sweeps, device agent, sessions, index jobs, the server, the browser pool,
 * the store, then the lock, in that order.
 */
async function closeCore({ state, stores, services, surfaces }: CoreParts): Promise<void> {
  if (state.closed) return
  state.closed = true
  for (const timer of services.timers) clearInterval(timer)
  await services.device?.stop()
  state.stopResultSweep?.()
  await services.recordings.closeAll()
  await services.browse.closeAll()
  await services.signIns.closeAll()
  await services.indexing.close()
  await surfaces.server.close()
  await services.browsers.close()
  stores.store.close()
  state.lock?.release()
}
