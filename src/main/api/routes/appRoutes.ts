import type { FastifyInstance } from 'fastify'
import { Ajv } from 'ajv'
import { APP_API_INPUT_SCHEMAS, APP_EVENT_NAMES, isAppApiMethod, type AppResult } from '../../../shared/appApi'
import { isServiceError, ServiceError } from '../../../shared/errors'
import type { ServerDeps } from '../server'

/**
 * The web transport of the UI contract (DESIGN.md §7): `POST /app-api/<method>` answers an
 * `AppResult`, `GET /app-api/events` streams the push events as server-sent events. Owner token only.
 */
export function registerAppRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const ajv = new Ajv({ allErrors: true })
  const validators = new Map(Object.entries(APP_API_INPUT_SCHEMAS).map(([m, s]) => [m, ajv.compile(s)]))

  app.post<{ Params: { method: string } }>('/app-api/:method', async (request): Promise<AppResult<unknown>> => {
    deps.auth.requireOwner(request)
    const { method } = request.params
    try {
      if (!isAppApiMethod(method)) throw new ServiceError('not_found', 404, `No app method ${method}.`)
      const input = request.body ?? {}
      const validate = validators.get(method)!
      if (!validate(input)) throw new ServiceError('invalid_input', 400, `Invalid input for ${method}: ${ajv.errorsText(validate.errors)}.`)
      const handler = deps.handlers[method] as (input: unknown) => Promise<unknown>
      return { ok: true, value: await handler(input) }
    } catch (error) {
      if (isServiceError(error)) return { ok: false, error: error.toBody() }
      request.log.error(error)
      return { ok: false, error: { code: 'internal', message: String((error as Error).message ?? error) } }
    }
  })

  app.get('/app-api/events', (request, reply) => {
    deps.auth.requireOwner(request)
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
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
  })
}
