import type { FastifyInstance, FastifyRequest } from 'fastify'
import { createGraphqlEndpoint } from './graphql'
import { readCookie } from './cookies'
import { bearerUser, cookieUser, SESSION_COOKIE, sendJson } from './http'
import type { OrdersState } from './state'
import { ownValue } from '../../../shared/safeKeys'

const UNAUTHORIZED = { error: 'unauthorized', message: 'Sign in first.' }
const CSRF_INVALID = {
  error: 'csrf_invalid',
  message: 'Send the X-CSRF-Token of the page you loaded last (meta csrf-token).',
}

const headerText = (request: FastifyRequest, name: string) => {
  const value = request.headers[name]
  return typeof value === 'string' ? value : undefined
}

/** How one family of order routes finds its caller and decides whether a write may happen. */
interface Guard {
  user(request: FastifyRequest): string | null
  mayWrite(request: FastifyRequest): boolean
}

function registerOrderRoutes(app: FastifyInstance, state: OrdersState, base: string, guard: Guard) {
  app.get(base, async (request, reply) => {
    const username = guard.user(request)
    if (!username) return sendJson(state, reply, 401, UNAUTHORIZED)
    const status = ownValue(request.query, 'status')
    const orders = state.orders.list(username, typeof status === 'string' ? status : null)
    return sendJson(state, reply, 200, { orders, count: orders.length })
  })

  app.post(base, async (request, reply) => {
    const username = guard.user(request)
    if (!username) return sendJson(state, reply, 401, UNAUTHORIZED)
    if (!guard.mayWrite(request)) return sendJson(state, reply, 403, CSRF_INVALID)
    const body = request.body
    const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
    const result = state.orders.create(username, {
      item: input.item,
      quantity: input.quantity,
      shipping: input.shipping,
    })
    if ('error' in result)
      return sendJson(state, reply, 400, { error: 'invalid_order', message: result.error })
    return sendJson(state, reply, 201, { order: result.order })
  })

  app.get(`${base}/:id`, async (request, reply) => {
    const username = guard.user(request)
    if (!username) return sendJson(state, reply, 401, UNAUTHORIZED)
    const order = state.orders.find(username, (request.params as { id: string }).id)
    return order
      ? sendJson(state, reply, 200, { order })
      : sendJson(state, reply, 404, { error: 'not_found', message: 'No such order.' })
  })
}

/**
 * The data routes: `/api/orders` (cookie session; writes need the CSRF token), `/api/spa/orders`
 * (bearer token; no cookie, no CSRF), and `POST /graphql` (either; mutations by cookie need the
 * CSRF token). Unauthenticated calls answer 401 JSON.
 */
export function registerApiRoutes(app: FastifyInstance, state: OrdersState): void {
  const csrfOk = (request: FastifyRequest) =>
    state.sessions.checkCsrf(
      readCookie(request, SESSION_COOKIE),
      headerText(request, 'x-csrf-token'),
    )
  registerOrderRoutes(app, state, '/api/orders', {
    user: (request) => cookieUser(state, request),
    mayWrite: csrfOk,
  })
  registerOrderRoutes(app, state, '/api/spa/orders', {
    user: (request) => bearerUser(state, request),
    mayWrite: () => true,
  })

  const graphql = createGraphqlEndpoint(state.orders)
  app.post('/graphql', async (request, reply) => {
    const bearer = bearerUser(state, request)
    const username = bearer ?? cookieUser(state, request)
    if (!username) return sendJson(state, reply, 401, UNAUTHORIZED)
    const answer = await graphql(request.body, { username, mayWrite: !!bearer || csrfOk(request) })
    return sendJson(state, reply, answer.status, answer.body)
  })
}
