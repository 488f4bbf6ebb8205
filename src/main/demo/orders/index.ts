import type { FastifyInstance } from 'fastify'
import { isServiceError } from '../../../shared/errors'
import { registerApiRoutes } from './apiRoutes'
import { applyFaults } from './faults'
import { sendJson, sitePath } from './http'
import { registerPageRoutes } from './pageRoutes'
import { registerSessionRoutes } from './sessionRoutes'
import { createOrdersState } from './state'
import type { OrdersRequestRecord, OrdersState } from './state'
import type { OrdersDemoOptions } from './types'

export type { OrdersState } from './state'
export { ORDERS_FAULTS, DEFAULT_USER } from './types'
export type { Order, OrdersDemoOptions, OrdersSwitches } from './types'
export { OPERATIONS, queryHash } from './graphqlQueries'
export { TOKEN_KEY } from './spaScripts'

/**
 * Registers the synthetic orders site (docs/interface.md section B rule 3: the demo observation page
 * for trying indexing) on `app` under `options.prefix`, in its own encapsulated plugin: its form
 * parser, hooks, error and not-found handlers touch no other route. The routes are public: the
 * service authenticates per route, and these never ask for a key (a browser opens them).
 * Returns the instance's state at once; the routes exist once `app` is ready.
 */
export function registerOrdersDemo(
  app: FastifyInstance,
  options: OrdersDemoOptions = {},
): OrdersState {
  const state = createOrdersState(options)
  void app.register(
    async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) =>
          done(null, Object.fromEntries(new URLSearchParams(body as string))),
      )
      // Faulted requests are logged too: the record is made on arrival, its body filled once parsed.
      const records = new WeakMap<object, OrdersRequestRecord>()
      scope.addHook('onRequest', async (request, reply) => {
        const path = sitePath(state, request.url)
        state.counts.set(path, (state.counts.get(path) ?? 0) + 1)
        if (state.recordRequests) {
          const record: OrdersRequestRecord = {
            method: request.method,
            path: request.url.slice(state.prefix.length) || '/',
            headers: { ...request.headers },
            body: undefined,
          }
          state.requests.push(record)
          records.set(request, record)
        }
        if (await applyFaults(state, path, reply)) return reply
      })
      scope.addHook('preHandler', async (request) => {
        const record = records.get(request)
        if (record) record.body = request.body
      })
      scope.setErrorHandler(
        async (error: { statusCode?: number; message: string }, _request, reply) => {
          // The service's own refusals (its Host and Origin checks run before these routes)
          // keep the service's status and envelope; only the site's own errors look like the site's.
          if (isServiceError(error))
            return reply.status(error.status).send({ error: error.toBody() })
          const status = error.statusCode && error.statusCode < 500 ? 400 : 500
          return sendJson(state, reply, status, {
            error: status === 400 ? 'bad_request' : 'internal_error',
            message: status === 400 ? error.message : 'Something went wrong.',
          })
        },
      )
      registerSessionRoutes(scope, state)
      registerApiRoutes(scope, state)
      registerPageRoutes(scope, state)
    },
    { prefix: state.prefix },
  )
  return state
}
