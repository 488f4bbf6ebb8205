import { setTimeout as delay } from 'node:timers/promises'
import type { FastifyReply } from 'fastify'
import { CLEARANCE_COOKIE, challengePage, challengeSeed, isCleared } from './challenge'
import { readCookie } from './cookies'
import { signInWallPage } from './pages'
import type { OrdersState } from './state'

/** True for the data routes faults apply to: /api/* and /graphql. */
export const isApiPath = (path: string) => path.startsWith('/api/') || path === '/graphql'

const errorBody = (error: string) =>
  JSON.stringify({ error, message: `Fault switched on in the orders fixture: ${error}.` })

/**
 * Applies the live switches to one request before its route runs (`path` is below the prefix).
 * Waits `delayMs` first on data routes (aborted by the state's signal), then answers for the fault
 * when it preempts the route. Returns true when it answered (the caller must then return `reply`). 'drift' never preempts: it
 * reshapes the route's own answer (see drift). 'bot_check' covers pages too, not static files,
 * and lets a request through once it carries the clearance cookie the challenge script sets.
 */
export async function applyFaults(
  state: OrdersState,
  path: string,
  reply: FastifyReply,
): Promise<boolean> {
  const { fault, delayMs, retryAfterSeconds } = state.switches
  const api = isApiPath(path)
  if (api && delayMs > 0) {
    try {
      await delay(delayMs, undefined, { signal: state.signal })
    } catch {
      void reply.code(503).send()
      return true
    }
  }
  const json = (status: number, body: string) =>
    void reply.code(status).type('application/json; charset=utf-8').send(body)
  if (
    fault === 'bot_check' &&
    !path.startsWith('/static/') &&
    !isCleared(state.clearanceSecret, readCookie(reply.request, CLEARANCE_COOKIE))
  ) {
    void reply
      .code(403)
      .header('cf-mitigated', 'challenge')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(challengePage(challengeSeed(state.clearanceSecret), state.prefix))
    return true
  }
  if (!api) return false
  switch (fault) {
    case 'unauthorized':
      json(401, errorBody('unauthorized'))
      return true
    case 'rate_limited':
      if (retryAfterSeconds !== null) reply.header('retry-after', String(retryAfterSeconds))
      json(429, errorBody('rate_limited'))
      return true
    case 'html':
      void reply.code(200).type('text/html; charset=utf-8').send(signInWallPage(state.prefix))
      return true
    case 'server_error':
      json(500, errorBody('internal_error'))
      return true
    default:
      return false
  }
}

// Names after a redesign: every occurrence of a key is renamed, wherever it sits in the tree.
const RENAMED: Record<string, string> = {
  orders: 'items',
  count: 'total',
  order: 'record',
  item: 'productName',
  quantity: 'qty',
  createdAt: 'created_at',
  createOrder: 'placeOrder',
}

/** The 'drift' shape of a JSON body: keys renamed as after a site redesign, values unchanged. */
export function drift(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(drift)
  if (typeof body !== 'object' || body === null) return body
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [RENAMED[key] ?? key, drift(value)]),
  )
}
