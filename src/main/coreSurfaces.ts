import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { createAuthenticator } from './api/auth'
import { createTeamAccounts, type TeamAccounts } from './serverAccounts'
import { createAuthorizations } from './api/oauth/authorization'
import { createTokenService } from './api/oauth/tokens'
import { createRateLimiter, DEFAULT_RATE_LIMITS } from './api/rateLimit'
import { scopeLookup } from './surface/toolScopes'
import { createAppHandlers, type AppHandlers } from './app/appHandlers'
import { buildServer } from './api/server'
import { registerAppRoutes } from './app/appRoutes'
import { registerMcpRoutes } from './mcp/mcpRoutes'
import { localSitesOf } from './surface/localSites'
import { createToolRouters, type ToolRouters } from './surface/toolRouters'
import { createBrowserWork } from './browse/browserWork'
import { createAppSettings } from './app/appSettings'
import { createAppSync } from './sync/appSync'
import { retentionFrom, startResultSweep } from './engine/resultRetention'
import { findChromium } from './recorder'
import {
  LOCAL_TENANT,
  type CoreConfig,
  type CoreServices,
  type CoreState,
  type CoreStores,
} from './coreServices'

/** The core's surfaces: the routers they rank with, the UI's handlers, and the HTTP service. */
export interface CoreSurfaces {
  routers: ToolRouters
  handlers: AppHandlers
  server: FastifyInstance
}

/**
 * The UI's handlers over the core's services, with the desktop's sync and settings; a change of
 * the result retention restarts a running sweep with the new rule.
 */
function buildHandlers(
  config: CoreConfig,
  stores: CoreStores,
  services: CoreServices,
  state: CoreState,
  routers: ToolRouters,
): AppHandlers {
  const { store, clock, nextUlid, vault, keychain, events, env, home, settings } = stores
  return createAppHandlers({
    store,
    routers,
    engine: services.engine,
    recordings: services.recordings,
    clock,
    ulid: nextUlid,
    tenant: LOCAL_TENANT,
    vault,
    logins: { saved: stores.logins, flows: services.signIns, seen: services.seenLogins },
    sync: createAppSync({
      store,
      vault,
      keychain,
      tenant: LOCAL_TENANT,
      clock,
      emit: (status) => {
        events.emit('sync.changed', { status })
        services.device?.update()
      },
    }),
    settings: createAppSettings({
      home,
      settings,
      env,
      onRetention: (retention) => {
        // A running sweep starts again with the new rule (and applies it at once).
        if (!state.stopResultSweep || config.resultRetention) return
        state.stopResultSweep()
        state.stopResultSweep = startResultSweep({
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
        apiUrl: state.baseUrl,
        chromium: { path: chromium.path, hint: chromium.hint },
      }
    },
  })
}

/**
 * The HTTP service: the authenticator (keys, owner and OAuth tokens, a team server's accounts,
 * the per-key limiter) and the server with the UI's and MCP's routes on it.
 */
function buildCoreServer(
  config: CoreConfig,
  stores: CoreStores,
  services: CoreServices,
  routers: ToolRouters,
  handlers: AppHandlers,
): FastifyInstance {
  const { store, clock, events, ownerTokens } = stores
  const { engine, browse, indexing, recordings } = services
  const oauthTokens = createTokenService({ repo: store.oauth, clock })
  // A team server's accounts, workspaces and invitations; the desktop has one owner.
  const teamAccounts: TeamAccounts | null = config.serverNode
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
    ...(stores.readAhead ? { readAhead: stores.readAhead } : {}),
    limiter:
      config.rateLimits === null
        ? null
        : (config.rateLimiter ??
          createRateLimiter(config.rateLimits ?? DEFAULT_RATE_LIMITS, clock)),
  })
  return buildServer({
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
    vault: stores.vault,
    signIn: { links: services.signInLinks, flows: services.signIns },
    recordings,
    indexing,
    browserWork: createBrowserWork({
      browse,
      indexing,
      recordings,
      recordingTenant: LOCAL_TENANT,
    }),
  })
}

/** The surfaces in start-up order: the tool routers, the UI's handlers, then the HTTP service. */
export function buildCoreSurfaces(
  config: CoreConfig,
  stores: CoreStores,
  services: CoreServices,
  state: CoreState,
): CoreSurfaces {
  const routers = createToolRouters()
  const handlers = buildHandlers(config, stores, services, state, routers)
  const server = buildCoreServer(config, stores, services, routers, handlers)
  return { routers, handlers, server }
}

/** The built web UI of this checkout (`out/renderer`), or null when it was not built. */
function defaultRendererDir(): string | null {
  const dir = fileURLToPath(new URL('../../out/renderer', import.meta.url))
  return existsSync(dir) ? dir : null
}
