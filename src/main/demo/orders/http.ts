import type { FastifyReply, FastifyRequest } from 'fastify'
import { drift } from './faults'
import { readCookie } from './cookies'
import type { OrdersState } from './state'

const HTML = 'text/html; charset=utf-8'
export const SESSION_COOKIE = 'parcel_session'
export const PENDING_COOKIE = 'parcel_pending'

/**
 * A Set-Cookie value scoped to the site's prefix: HttpOnly, SameSite=Lax, no Max-Age (the server
 * decides when a session ends). `value` null clears the cookie.
 */
export function cookie(state: OrdersState, name: string, value: string | null): string {
  const base = `${name}=${value === null ? '' : encodeURIComponent(value)}; Path=${state.prefix || '/'}; HttpOnly; SameSite=Lax`
  return value === null ? `${base}; Max-Age=0` : base
}

/** The signed-in username of the request's session cookie, or null. */
export const cookieUser = (state: OrdersState, request: FastifyRequest): string | null =>
  state.sessions.user(readCookie(request, SESSION_COOKIE))

/** The username of `Authorization: Bearer <token>` (the SPA variant), or null. */
export function bearerUser(state: OrdersState, request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')
  return match ? state.sessions.tokenUser(match[1]) : null
}

/** Sends JSON; a 2xx body is reshaped when the 'drift' fault is on. */
export function sendJson(state: OrdersState, reply: FastifyReply, status: number, body: unknown) {
  const shaped = state.switches.fault === 'drift' && status < 300 ? drift(body) : body
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(shaped))
}

/** Sends a whole HTML page. */
export const sendHtml = (reply: FastifyReply, status: number, html: string) =>
  reply.code(status).header('cache-control', 'no-store').type(HTML).send(html)

/** A 303 to a path below the prefix (after a form POST the browser GETs it). */
export const redirect = (state: OrdersState, reply: FastifyReply, path: string) =>
  reply.redirect(`${state.prefix}${path}`, 303)

/** The path below the prefix, query excluded: '/demo/orders/api/orders?x=1' → '/api/orders'. */
export function sitePath(state: OrdersState, url: string): string {
  const path = url.split('?')[0] ?? '/'
  const below =
    state.prefix && path.startsWith(state.prefix) ? path.slice(state.prefix.length) : path
  return below || '/'
}
