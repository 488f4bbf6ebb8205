import type { FastifyInstance } from 'fastify'
import { APP_EVENT_NAMES, type AppResult } from '../../shared/appApi'
import { createAppDispatch } from './appDispatch'
import type { Authenticator } from '../surface/caller'
import type { EventBus } from '../events'
import type { AppHandlers } from './appHandlers'
import { routeSchema } from '../surface/openapi/routeSchema'
import { json } from '../surface/openapi/docParts'
import { APP_API_INPUT_SCHEMAS, APP_API_METHODS } from '../../shared/appApi'
import { registerHarUploadRoute } from './harUploadRoute'

/** What the UI's HTTP transport is built from: the owner check, the push events, the use cases. */
export interface AppRouteDeps {
  auth: Authenticator
  events: EventBus
  handlers: AppHandlers
}

/**
 * The web transport of the UI contract (docs/architecture.md "House style"): `POST /app-api/<method>` answers an
 * `AppResult`, `GET /app-api/events` streams the push events as server-sent events. Owner token only.
 */
export function registerAppRoutes(app: FastifyInstance, deps: AppRouteDeps): void {
  const dispatch = createAppDispatch(deps.handlers, (error) => app.log.error(error))
  registerHarUploadRoute(app, deps)

  app.post<{ Params: { method: string } }>(
    '/app-api/:method',
    {
      schema: routeSchema({
        summary: "The UI's contract over HTTP: answers `{ok, value}` or `{ok: false, error}`.",
        tag: 'app',
        auth: 'owner',
        body: { schema: { anyOf: APP_API_METHODS.map((m) => APP_API_INPUT_SCHEMAS[m]) } },
        responses: { '200': json('An AppResult: refusals of a method travel as `ok: false`.') },
        errors: ['bad_request'],
      }),
    },
    async (request): Promise<AppResult<unknown>> => {
      deps.auth.requireOwner(request)
      return dispatch(request.params.method, request.body)
    },
  )

  app.get(
    '/app-api/events',
    {
      schema: routeSchema({
        summary: "The UI's push events as server-sent events (owner token, also as `?token=`).",
        tag: 'app',
        auth: 'owner',
        params: [
          {
            name: 'token',
            in: 'query',
            description: 'The owner token.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': { description: 'Event stream.', contentType: 'text/event-stream', schema: {} },
        },
        errors: [],
      }),
    },
    (request, reply) => {
      deps.auth.requireOwner(request)
      reply.hijack()
      const res = reply.raw
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      })
      res.write(': connected\n\n')
      const offs = APP_EVENT_NAMES.map((event) =>
        deps.events.on(event, (data) => res.write(`data: ${JSON.stringify({ event, data })}\n\n`)),
      )
      // Proxies and browsers drop idle streams; a comment line every 25 s keeps it open.
      const ping = setInterval(() => res.write(': ping\n\n'), 25_000)
      request.raw.on('close', () => {
        clearInterval(ping)
        offs.forEach((off) => off())
      })
    },
  )
}
