import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { monotonicFactory } from 'ulid'
import type { FastifyInstance } from 'fastify'
import { createAuthenticator } from './api/auth'
import { createTeamAccounts } from './serverAccounts'
import { createAuthorizations } from './api/oauth/authorization'
import { createOwnerTokens, type OwnerTokens } from './api/oauth/ownerTokens'
import { createTokenService } from './api/oauth/tokens'
import {
  createRateLimiter,
  DEFAULT_RATE_LIMITS,
  type RateLimiter,
  type RateLimits,
} from './api/rateLimit'
import { scopeLookup } from './surface/toolScopes'
import { createAppHandlers, type AppHandlers } from './app/appHandlers'
import { repointDemoTools } from './app/demoTools'
import { buildServer, type ServerDeps } from './api/server'
import { registerAppRoutes } from './app/appRoutes'
import { registerMcpRoutes } from './mcp/mcpRoutes'
import { localSitesOf } from './surface/localSites'
import { createToolRouters, type ToolRouters } from './surface/toolRouters'
import { createBrowseSessions, type BrowseSessions } from './browse/browseSessions'
import { createBrowserWork } from './browse/browserWork'
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
import { dataDir, databasePath, DEFAULT_PORT, readSettings } from './config'
import { createAppSettings } from './app/appSettings'
import { createAppSync } from './sync/appSync'
import { createDeviceSwitch } from './sync/deviceAgent'
import { createBrowserPool } from './engine/browserPool'
import { createRenderedExecutor } from './engine/renderedExecutor'
import { createRunEngine, type RunEngine } from './engine/runEngine'
import { pooledRandom } from './engine/pooledRandom'
import { retentionFrom, startResultSweep } from './engine/resultRetention'
import type { ResultRetention } from './store/runRepository'
import type { SendRequest } from './engine/httpExecutor'
import { createEventBus, type EventBus } from './events'
import { findChromium, requireChromium, startRecording } from './recorder'
import { createStore, type SqliteStore, type Store } from './store/store'
import { lockDataDir, type DataDirLock } from './store/dataDirLock'
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
   * A team server's devices (issue 27 C, `server/devices.ts`): runs of sites only a device holds
   * go to it, and its routes are served. Default none.
   */
  devices?: DeviceHub
}

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
  /** The logins recordings and HARs showed, offered for saving (issue 24 item E). */
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
  let stopResultSweep: (() => void) | undefined
  const ownerTokens = config.ownerTokens ?? createOwnerTokens({ clock })
  const ownerToken = ownerTokens.issue().token
  let baseUrl = ''
  const signInLinks = createSignInLinks({ clock, baseUrl: () => baseUrl })
  const chromiumPath = () => requireChromium({ env, settingPath: settings.chromiumPath ?? null })
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
    ...('readAhead' in store ? { readAhead: (store as { readAhead: ReadAhead }).readAhead } : {}),
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
  // A linked desktop runs what only it holds for its team server (issue 27 C) while it serves.
  const device =
    !config.serverNode && store.kind === 'sqlite' && env.SITECALL_DEVICE !== 'off'
      ? createDeviceSwitch({
          store: store as SqliteStore,
          vault,
          keychain,
          engine,
          sites: () => logins.list(LOCAL_TENANT).map((l) => l.host),
          tenant: LOCAL_TENANT,
          ...(env.SITECALL_DEVICE_NAME ? { name: env.SITECALL_DEVICE_NAME } : {}),
        })
      : null
  const routers = createToolRouters()
  const handlers = createAppHandlers({
    store,
    routers,
    engine,
    recordings,
    clock,
    ulid: nextUlid,
    tenant: LOCAL_TENANT,
    vault,
    logins: { saved: logins, flows: signIns, seen: seenLogins },
    sync: createAppSync({
      store,
      vault,
      keychain,
      tenant: LOCAL_TENANT,
      clock,
      emit: (status) => {
        events.emit('sync.changed', { status })
        device?.update()
      },
    }),
    settings: createAppSettings({
      home,
      settings,
      env,
      onRetention: (retention) => {
        // A running sweep starts again with the new rule (and applies it at once).
        if (!stopResultSweep || config.resultRetention) return
        stopResultSweep()
        stopResultSweep = startResultSweep({
          runs: store.runs,
          clock,
          rule: retentionFrom(retention),
          ...(config.resultSweepMs !== undefined ? { everyMs: config.resultSweepMs } : {}),
        })
      },
    }),
    info: () => {
      const chromium = findChromium({ env, settingPath: settings.chromiumPath ?? null })
      return {
        version: '0.1.0',
        dataDir: home,
        apiUrl: baseUrl,
        chromium: { path: chromium.path, hint: chromium.hint },
      }
    },
  })
  const oauthTokens = createTokenService({ repo: store.oauth, clock })
  // A team server's accounts, workspaces and invitations (issue 27 A); the desktop has one owner.
  const teamAccounts = config.serverNode
    ? createTeamAccounts({ accounts: store.accounts, clock })
    : null
  const auth = createAuthenticator({
    keys: store.keys,
    owner: ownerTokens,
    tokens: oauthTokens,
    scopes: scopeLookup(store.scopes),
    toolsFor: store.toolsFor,
    tenant: LOCAL_TENANT,
    clock,
    ...(teamAccounts ? { accounts: teamAccounts.auth } : {}),
    ...('readAhead' in store ? { readAhead: (store as { readAhead: ReadAhead }).readAhead } : {}),
    limiter:
      config.rateLimits === null
        ? null
        : (config.rateLimiter ??
          createRateLimiter(config.rateLimits ?? DEFAULT_RATE_LIMITS, clock)),
  })
  const server = buildServer({
    ...(teamAccounts ? { teamAccounts } : {}),
    ...(config.devices ? { devices: config.devices } : {}),
    ...(config.logger !== undefined ? { logger: config.logger } : {}),
    store,
    clock,
    engine,
    events,
    auth,
    routers,
    // The UI's and MCP's routes are served by the same HTTP service, wired here so that no
    // surface imports another.
    appRoutes: (app) => registerAppRoutes(app, { auth, events, handlers }),
    mcpRoutes: (app) =>
      registerMcpRoutes(app, {
        tools: store.tools,
        toolsFor: store.toolsFor,
        engine,
        events,
        browse,
        indexing,
        routers,
        auth,
        clock,
        scopes: scopeLookup(store.scopes),
        localSites: localSitesOf(store),
      }),
    oauth: {
      authorizations: createAuthorizations({ repo: store.oauth, clock }),
      tokens: oauthTokens,
      ownerTokens,
      tenant: LOCAL_TENANT,
      // Rate limits off (benchmarks, fuzzing) turns registration's limits off too.
      ...(config.rateLimits === null ? { registrationLimits: null } : {}),
    },
    rendererDir: config.rendererDir === undefined ? defaultRendererDir() : config.rendererDir,
    ...(config.allowedHosts ? { allowedHosts: config.allowedHosts } : {}),
    vault,
    signIn: { links: signInLinks, flows: signIns },
    recordings,
    indexing,
    browserWork: createBrowserWork({
      browse,
      indexing,
      recordings,
      recordingTenant: LOCAL_TENANT,
    }),
  })
  let closed = false
  let lock: DataDirLock | null = null
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
    handlers,
    routers,
    server,
    ownerToken,
    ownerTokens,
    async listen() {
      const port = config.port ?? DEFAULT_PORT
      // One serving process per data dir: a second one refuses here, before
      // its recovery could end the first one's runs.
      if (!config.serverNode) {
        lock ??= lockDataDir(home)
        // Runs a crash or kill left in flight: writes end outcome_unknown, reads run again. Only
        // the serving process owns runs: a core opened without serving (`sitecall record`) next
        // to a running server must not end that server's runs.
        engine.recover()
      }
      stopResultSweep ??= startResultSweep({
        runs: store.runs,
        clock,
        rule: config.resultRetention ?? retentionFrom(settings.resultRetention),
        ...(config.resultSweepMs !== undefined ? { everyMs: config.resultSweepMs } : {}),
      })
      if (!config.serverNode) indexing.recover()
      const host = config.host ?? '127.0.0.1'
      await server.listen({ host, port })
      const address = server.server.address()
      const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
      baseUrl = `http://${local}:${typeof address === 'object' && address ? address.port : port}`
      if (!config.serverNode) repointDemoTools(store.tools, baseUrl, clock())
      device?.enable()
      return baseUrl
    },
    async close() {
      if (closed) return
      closed = true
      for (const timer of timers) clearInterval(timer)
      await device?.stop()
      stopResultSweep?.()
      await recordings.closeAll()
      await browse.closeAll()
      await signIns.closeAll()
      await indexing.close()
      await server.close()
      await browsers.close()
      store.close()
      lock?.release()
    },
  }
}

function defaultRendererDir(): string | null {
  const dir = fileURLToPath(new URL('../../out/renderer', import.meta.url))
  return existsSync(dir) ? dir : null
}
