import type { ServerDeps } from './serverDeps'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import { isServiceError, ServiceError } from '../../shared/errors'
import {
  BODY_LIMIT_BYTES,
  bodyParseRefusal,
  refuseUnreadBody,
  registerBodyGuards,
} from '../surface/bodyGuards'
import { registerSiteCallRoutes } from './routes/siteCalls'
import { registerComposeRoutes } from './routes/compose'
import { registerAccountToolRoutes } from './routes/accountTools'
import { registerToolEditRoutes } from './routes/toolEdits'
import { registerRunRoutes } from './routes/runs'
import { registerPrepareRoutes } from './routes/prepare'
import { registerSearchRoutes } from './routes/search'
import { registerTaskRunRoutes } from './routes/taskRuns'
import { registerAccountRoutes } from './routes/accounts'
import { registerUiRoutes } from './routes/uiRoutes'
import { registerOrdersDemo } from '../demo/orders'
import { registerOAuthRoutes } from './routes/oauth'
import { registerScopeRoutes } from './routes/scopes'
import { registerSignInRoutes } from './routes/signIn'
import { registerOpenApiRoute } from './routes/openapi'
import { registerOpenApiGenerator } from './openapi/document'
import { registerRouteValidation } from './routeValidation'
import { registerIndexRoutes } from './routes/indexRoutes'
import { registerLocalSiteRoutes } from './routes/localSites'
import { registerKeyRoutes } from './routes/keys'
import { registerTeamAccountRoutes } from './routes/teamAccounts'
import { registerToolSyncRoutes } from './routes/toolSync'
import { registerDeviceRoutes } from './routes/devices'
import { registerBrowserRoutes } from './routes/browser'
import { registerScreencastRoutes } from './routes/screencast'

export type { ServerDeps }

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Builds the local service (docs/architecture.md "Processes"): surface A under `/api/v1`, the account API under `/v1`,
 * the UI's transport under `/app-api`, the web UI under `/app/`. Every refusal is the interface's error
 * body `{error:{code,message}}`. `Host` must be a loopback name and a present `Origin` must be
 * this server's own (no DNS rebinding, no drive-by requests from web pages).
 */
export function buildServer(deps: ServerDeps): FastifyInstance {
  // The UI's event streams never end by themselves: close() must cut them, or shutdown hangs.
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
  })
  // First: the OpenAPI generator and the validation see only routes registered after them.
  registerOpenApiGenerator(app)
  registerRouteValidation(app)

  app.addHook('onRequest', async (request) => {
    const host = request.headers.host ?? ''
    const hostname = host.replace(/:\d+$/, '')
    if (!LOOPBACK_HOSTS.has(hostname) && !deps.allowedHosts?.has(hostname.toLowerCase()))
      throw new ServiceError(
        'forbidden',
        `Host "${host}" is not this machine: the local service answers loopback names only.`,
      )
    const origin = request.headers.origin
    if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`)
      throw new ServiceError(
        'forbidden',
        `Requests from ${origin} are refused: only the app's own pages may call it.`,
      )
  })

  registerBodyGuards(app)

  app.setErrorHandler(async (error: FastifyError | ServiceError, request, reply) => {
    if (isServiceError(error)) {
      // RFC 9110 §10.2.3: a refusal that knows when to come back says so (429, 503).
      const retryAfter = error.details.retryAfterSeconds
      if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter))
      return reply.status(error.status).send({ error: error.toBody() })
    }
    const e = error as FastifyError
    const unread = bodyParseRefusal(e)
    if (unread) {
      const refusal = await refuseUnreadBody(request, unread, deps.auth)
      if (refusal.code === 'payload_too_large') void reply.header('connection', 'close')
      return reply.status(refusal.status).send({ error: refusal.toBody() })
    }
    if (e.statusCode && e.statusCode < 500)
      return reply.status(400).send({ error: { code: 'bad_request', message: e.message } })
    request.log.error(error)
    return reply
      .status(500)
      .send({ error: { code: 'internal', message: 'Internal error: retry once, then report it.' } })
  })

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: {
        code: 'not_found',
        message: `No route ${request.method} ${request.url.split('?')[0]}.`,
      },
    }),
  )

  // In a plugin, so the generator (a plugin itself, loaded in order) is in place before them.
  void app.register(async (api) => registerRoutes(api, deps))
  return app
}

/** Every route of the service, each concern's routes from its own module. */
function registerRoutes(app: FastifyInstance, deps: ServerDeps): void {
  registerOpenApiRoute(app, deps)
  registerSiteCallRoutes(app, deps)
  registerComposeRoutes(app, deps)
  registerAccountToolRoutes(app, deps)
  registerToolEditRoutes(app, deps)
  registerRunRoutes(app, deps)
  registerPrepareRoutes(app, deps)
  registerSearchRoutes(app, deps)
  registerTaskRunRoutes(app, deps)
  registerAccountRoutes(app, deps)
  deps.appRoutes(app)
  registerScreencastRoutes(app, deps)
  registerUiRoutes(app, deps.rendererDir)
  // Public like the pages it serves: docs/interface.md section B rule 3's demo observation page.
  registerOrdersDemo(app, { prefix: '/demo/orders' })
  registerOAuthRoutes(app, { ...deps.oauth, oauthRepo: deps.store.oauth, clock: deps.clock })
  registerScopeRoutes(app, { auth: deps.auth, scopes: deps.store.scopes, clock: deps.clock })
  registerSignInRoutes(app, deps.signIn)
  registerKeyRoutes(app, { auth: deps.auth, keys: deps.store.keys, clock: deps.clock })
  if (deps.teamAccounts)
    registerTeamAccountRoutes(app, {
      accounts: deps.store.accounts,
      team: deps.teamAccounts,
      clock: deps.clock,
    })
  // Tool sync with desktops: a team server's, like its accounts.
  if (deps.teamAccounts)
    registerToolSyncRoutes(app, { auth: deps.auth, store: deps.store, clock: deps.clock })
  // Devices that run what only they hold: a team server's, like sync.
  if (deps.devices) registerDeviceRoutes(app, { auth: deps.auth, devices: deps.devices })
  registerLocalSiteRoutes(app, {
    auth: deps.auth,
    localSites: deps.store.localSites,
    clock: deps.clock,
  })
  registerIndexRoutes(app, deps)
  registerBrowserRoutes(app, deps)
  // Last: OAuth routes registered before it serve the protected-resource metadata themselves.
  deps.mcpRoutes(app)
}
