import { randomUUID } from 'node:crypto'
import { monotonicFactory } from 'ulid'
import { createOwnerTokens, type OwnerTokens } from './api/oauth/ownerTokens'
import type { RateLimiter, RateLimits } from './api/rateLimit'
import type { ServerDeps } from './api/server'
import { createBrowseSessions, type BrowseSessions } from './browse/browseSessions'
import { createIndexing, type Indexing, type IndexLimits } from './browse/indexJobs'
import type { ObserveLimits } from './browse/observePage'
import { createRecordingSessions, type RecordingSessions } from './browse/recordingSessions'
import type { SessionBrowserDeps } from './browse/sessionBrowser'
import { createAutoSignIn } from './logins/signInAuto'
import { createLoginAutofill } from './logins/signInAutofill'
import { createSignInFlows, type SignInFlows } from './logins/signInFlows'
import { createSignInLinks, type SignInLinks } from './logins/signInLinks'
import { createSiteLogins, type SiteLogins } from './logins/siteLogins'
import { createSeenLogins, type SeenLogins } from './logins/seenLogins'
import { dataDir, databasePath, readSettings, type Settings } from './config'
import { createDeviceSwitch, type DeviceSwitch } from './sync/deviceAgent'
import { createBrowserPool, type BrowserPool } from './engine/browserPool'
import { createRenderedExecutor } from './engine/renderedExecutor'
import { createRunEngine, type RunEngine } from './engine/runEngine'
import { pooledRandom } from './engine/pooledRandom'
import type { ResultRetention } from './store/runRepository'
import type { SendRequest } from './engine/httpExecutor'
import { createEventBus, type EventBus } from './events'
import { requireChromium, startRecording } from './recorder'
import { createStore, type SqliteStore, type Store } from './store/store'
import type { DataDirLock } from './store/dataDirLock'
import type { ReadAhead } from './store/readAhead'
import type { DeviceHub } from './server/devices'
import { TRACE_CREDENTIALS } from './store/traceCredentials'
import { createKeychain, createVault, type Keychain, type Vault } from './vault'
import { summarizeTool } from '../shared/toolSpec'
import { sharedGuardProxy, signInSiteCheck } from './engine/guardProxy'
import { ownerWorkspace } from './surface/localSites'
import { toolSiteCheck } from './engine/destination'

/** The workspace of the person who runs the app; end-user workspaces come with org keys. */
export const LOCAL_TENANT = 'local'

export interface CoreConfig {
  /** Data dir; default `dataDir()` (SITECALL_HOME or the platform's app-data dir). */
  home?: string
  port?: number
  /** Record headless even when a display exists (tests, servers). */
  headless?: boolean
  clock?: () => number
  send?: SendRequest
  /** Built web UI; default `out/renderer` of this checkout when it exists. */
  rendererDir?: string | null
  env?: Record<string, string | undefined>
  /** The vault's OS keychain; null skips it. Default: the real one unless SITECALL_KEYCHAIN=off. */
  keychain?: Keychain | null
  /** Fastify's logger of the local service; default off (tests pass a stream to read it). */
  logger?: ServerDeps['logger']
  /** How often waiting runs are checked for expired requirements; default 30 s. */
  expirySweepMs?: number
  /** How often quarantined tools are rechecked; default 5 minutes. */
  recheckMs?: number
  /** Rendered runs at once; default 2. */
  browserCapacity?: number
  /** How long a rendered run queues for a browser before `browser_capacity`, ms; default 30,000. */
  browserWaitMs?: number
  /** Index-job limits (interface.md "Limits"); default 3 running and 5 a day per workspace. */
  indexLimits?: Partial<IndexLimits>
  /** Bounds of an unattended observation (load, settle, search), ms; tests shorten them. */
  observeLimits?: Partial<ObserveLimits>
  /** Per-key request limits; default 600 a minute, bursts of 100; null: off. */
  rateLimits?: RateLimits | null
  /** How long run results are kept; default settings.json `resultRetention`. */
  resultRetention?: ResultRetention
  /** How often the result retention sweep runs; default 10 minutes. */
  resultSweepMs?: number
  /** Owner tokens kept elsewhere (the team server's accounts); default: this process's own. */
  ownerTokens?: OwnerTokens
  /** The per-key limiter (the team server's, shared by its nodes); default: in memory. */
  rateLimiter?: RateLimiter
  /** Address to listen on; default 127.0.0.1 (the team server listens where it is told). */
  host?: string
  /**
   * A team server node (`sitecall server`): no data-dir lock, and a start recovers nothing (the
   * server's own recovery ends only runs of nodes that died). Default false.
   */
  serverNode?: boolean
  /** Hosts a request's `Host` may name besides loopback ones (a team server's public name). */
  allowedHosts?: ServerDeps['allowedHosts']
  /**
   * A team server's devices (`server/devices.ts`): runs of sites only a device holds
   * go to it, and its routes are served. Default none.
   */
  devices?: DeviceHub
}

/**
 * What a core's parts change after start-up: the listening URL (links and the UI's info read it),
 * the running result sweep (a settings change restarts it), the data dir's lock, and `closed`.
 */
export interface CoreState {
  baseUrl: string
  stopResultSweep: (() => void) | undefined
  lock: DataDirLock | null
  closed: boolean
}

/** The core's storage and secrets, opened first: everything after reads or seals through them. */
export interface CoreStores {
  env: Record<string, string | undefined>
  home: string
  clock: () => number
  /** Monotonic ULIDs on the core's clock. */
  nextUlid: () => string
  store: Store
  /** The store's read-ahead (PostgreSQL only). */
  readAhead: ReadAhead | undefined
  keychain: Keychain | null
  vault: Vault
  logins: SiteLogins
  events: EventBus
  settings: Settings
  ownerTokens: OwnerTokens
  ownerToken: string
}

/** The core's run-time services: the engine, the browsers and the sessions that record. */
export interface CoreServices {
  signInLinks: SignInLinks
  browsers: BrowserPool
  engine: RunEngine
  /** The engine's sweeps (expired waits, quarantine rechecks); cleared first on close. */
  timers: NodeJS.Timeout[]
  seenLogins: SeenLogins
  recordings: RecordingSessions
  browse: BrowseSessions
  signIns: SignInFlows
  indexing: Indexing
  /** A linked desktop's device agent; null on a server node, PostgreSQL or SITECALL_DEVICE=off. */
  device: DeviceSwitch | null
}

/**
 * Opens the store (the caller's, or the data dir's SQLite file) and the vault over it, seals
 * what an older version kept in the clear, and makes the event bus and the first owner token.
 */
export function openCoreStores(config: CoreConfig & { store?: Store }): CoreStores {
  const env = config.env ?? process.env
  const home = config.home ?? dataDir(env)
  const clock = config.clock ?? Date.now
  const ulid = monotonicFactory(pooledRandom())
  const nextUlid = () => ulid(clock())
  const store = config.store ?? createStore(databasePath(home))
  const keychain =
    config.keychain !== undefined
      ? config.keychain
      : env.SITECALL_KEYCHAIN === 'off'
        ? null
        : createKeychain({ env })
  const vault = createVault({
    secrets: store.secrets,
    keychain,
    passphrase: env.SITECALL_PASSPHRASE ?? null,
    clock,
  })
  const logins = createSiteLogins({
    repo: store.logins,
    vault,
    clock,
    // Sealing empties plaintext columns: checkpoint so the old pages leave the WAL file too.
    afterSealing: () => store.purgeFreed(),
  })
  void logins.sealPlaintext().catch(() => undefined)
  // Recorded cookies, Authorization values, URL userinfo and storage states are sealed at rest;
  // while the vault is locked only markers are kept.
  store.traces.useSealer(() => vault.sealerFor(LOCAL_TENANT, TRACE_CREDENTIALS))
  // Traces an older version kept in the clear are sealed once the vault opens, and the WAL's
  // old pages are checkpointed away (secure_delete is on for this connection).
  if (store.traces.plaintextCount() > 0)
    void vault
      .open()
      .then(() => {
        if (store.traces.sealPlaintext() > 0) store.purgeFreed()
      })
      .catch(() => undefined)
  const events = createEventBus()
  const settings = readSettings(home)
  const ownerTokens = config.ownerTokens ?? createOwnerTokens({ clock })
  const ownerToken = ownerTokens.issue().token
  const readAhead = 'readAhead' in store ? (store as { readAhead: ReadAhead }).readAhead : undefined
  return {
    env,
    home,
    clock,
    nextUlid,
    store,
    readAhead,
    keychain,
    vault,
    logins,
    events,
    settings,
    ownerTokens,
    ownerToken,
  }
}

/** The engine's part of the services: sign-in links, the lazy browser pool, the engine, its sweeps. */
function buildEngine(
  config: CoreConfig,
  stores: CoreStores,
  state: CoreState,
  chromiumPath: () => string,
): Pick<CoreServices, 'signInLinks' | 'browsers' | 'engine' | 'timers'> {
  const { store, clock, nextUlid, logins, events, vault } = stores
  const signInLinks = createSignInLinks({ clock, baseUrl: () => state.baseUrl })
  // Lazy: no Chromium starts until the first rendered run asks for a page.
  const browsers = createBrowserPool({
    chromiumPath,
    clock,
    headless: config.headless ?? true,
    ...(config.browserCapacity !== undefined ? { capacity: config.browserCapacity } : {}),
    ...(config.browserWaitMs !== undefined ? { waitMs: config.browserWaitMs } : {}),
  })
  const engine = createRunEngine({
    runs: store.runs,
    ...(stores.readAhead ? { readAhead: stores.readAhead } : {}),
    tools: store.tools,
    toolsFor: store.toolsFor,
    logins,
    mintSignInLink: (tenant, host) => signInLinks.mint(tenant, host),
    relogin: createAutoSignIn({
      logins,
      chromiumPath,
      clock,
      guardFor: async (siteHost) => (await sharedGuardProxy()).settingsFor(toolSiteCheck(siteHost)),
    }),
    recordedWithLogin: (tool) =>
      [tool.evidence.targetExchangeId, ...tool.steps.map((s) => s.exchangeId)].some((id) => {
        const recorded = id ? store.traces.getExchange(tool.evidence.traceId, id) : null
        return (
          !!recorded &&
          Object.keys(recorded.requestHeaders).some((h) => /^(cookie|authorization)$/i.test(h))
        )
      }),
    ledger: store.ledger,
    health: store.health,
    clock,
    ulid: nextUlid,
    ...(config.send ? { send: config.send } : {}),
    executeRendered: createRenderedExecutor({ pool: browsers }),
    secrets: vault,
    ...(config.devices
      ? { delegate: config.devices.delegate, approveElsewhere: config.devices.approveElsewhere }
      : {}),
    onRunUpdated: (run) => events.emit('runs.updated', { run }),
    onToolChanged: (tool) => events.emit('tools.changed', { tool: summarizeTool(tool) }),
  })
  const timers = [
    setInterval(() => engine.expireWaiting(), config.expirySweepMs ?? 30_000),
    setInterval(() => void engine.recheckQuarantined(), config.recheckMs ?? 5 * 60_000),
  ]
  for (const timer of timers) timer.unref()
  return { signInLinks, browsers, engine, timers }
}

/**
 * The browser sessions that record: the Record view's, the agents' browse sessions, the person's
 * sign-in windows and the index jobs, all on the core's Chromium, clock and logins.
 */
function buildSessions(
  config: CoreConfig,
  stores: CoreStores,
  signInLinks: SignInLinks,
  chromiumPath: () => string,
): Pick<CoreServices, 'seenLogins' | 'recordings' | 'browse' | 'signIns' | 'indexing'> {
  const { store, clock, nextUlid, logins, events, vault } = stores
  // The Record view's sessions and the agents' browse sessions record alike.
  const sessionBrowser: SessionBrowserDeps = {
    clock,
    ulid: nextUlid,
    uuid: randomUUID,
    chromiumPath,
    startRecording,
    refuseSecretValues: vault.refuseSecretValues,
    saveLogin: (tenant, host, state) => logins.save(tenant, host, state),
  }
  const seenLogins = createSeenLogins({ logins, traces: store.traces })
  const recordings = createRecordingSessions({
    ...sessionBrowser,
    store,
    tenant: LOCAL_TENANT,
    events,
    seenLogins,
    httpLogins: {
      // A locked vault keeps a saved login's password sealed: the person is asked again.
      saved: (tenant, host) => logins.credentials(tenant, host).catch(() => null),
      save: (tenant, host, login, pageUrl) => logins.saveHttpAuth(tenant, host, login, pageUrl),
    },
    ...(config.headless !== undefined ? { headless: config.headless } : {}),
  })
  const browse = createBrowseSessions({
    ...sessionBrowser,
    store,
    autofill: createLoginAutofill({
      logins,
      clock,
      mintSignInLink: (tenant, host, url) => signInLinks.mint(tenant, host, url),
    }),
  })
  const signIns = createSignInFlows({
    logins,
    chromiumPath,
    clock,
    ulid: nextUlid,
    siteOrigin: (host) => {
      const tool = store.tools.list({ siteHost: host })[0]
      return tool ? new URL(tool.steps[0]!.request.url).origin : null
    },
    // The person's own window connects only to its site, allowed local sites and the web.
    guardFor: async (tenant, siteHosts, onDenied) => {
      const allowed = store.localSites.list(ownerWorkspace(tenant)).map((s) => s.host)
      return (await sharedGuardProxy()).settingsFor(signInSiteCheck(siteHosts, allowed), onDenied)
    },
    ...(config.headless !== undefined ? { headless: config.headless } : {}),
  })
  const indexing = createIndexing({
    store,
    clock,
    ulid: nextUlid,
    uuid: randomUUID,
    chromiumPath,
    startRecording,
    logins: {
      load: async (tenant, siteHost) => (await logins.load(tenant, siteHost)).state,
      save: (tenant, siteHost, state) => logins.save(tenant, siteHost, state),
    },
    ...(config.indexLimits ? { jobLimits: config.indexLimits } : {}),
    ...(config.observeLimits ? { limits: config.observeLimits } : {}),
  })
  return { seenLogins, recordings, browse, signIns, indexing }
}

/**
 * The core's services in start-up order: engine, recording sessions, then (a linked desktop
 * only) the device agent that runs what only this desktop holds for its team server.
 */
export function buildCoreServices(
  config: CoreConfig,
  stores: CoreStores,
  state: CoreState,
): CoreServices {
  const { env, store, settings } = stores
  const chromiumPath = () => requireChromium({ env, settingPath: settings.chromiumPath ?? null })
  const engineParts = buildEngine(config, stores, state, chromiumPath)
  const sessions = buildSessions(config, stores, engineParts.signInLinks, chromiumPath)
  // A linked desktop runs what only it holds for its team server while it serves.
  const device =
    !config.serverNode && store.kind === 'sqlite' && env.SITECALL_DEVICE !== 'off'
      ? createDeviceSwitch({
          store: store as SqliteStore,
          vault: stores.vault,
          keychain: stores.keychain,
          engine: engineParts.engine,
          sites: () => stores.logins.list(LOCAL_TENANT).map((l) => l.host),
          tenant: LOCAL_TENANT,
          ...(env.SITECALL_DEVICE_NAME ? { name: env.SITECALL_DEVICE_NAME } : {}),
        })
      : null
  return { ...engineParts, ...sessions, device }
}
