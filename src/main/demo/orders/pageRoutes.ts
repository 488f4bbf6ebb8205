import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { readCookie } from './cookies'
import { ordersAssets } from './assets'
import { isApiPath } from './faults'
import { cookieUser, redirect, SESSION_COOKIE, sendHtml, sendJson, sitePath } from './http'
import {
  graphqlPage,
  notFoundPage,
  orderPage,
  ordersPage,
  spaLoginPage,
  spaOrdersPage,
} from './pages'
import type { OrdersState } from './state'

/**
 * The HTML pages and their noise: static files, the locale dictionary, the analytics beacon
 * (`POST /collect`, 204). Cookie pages redirect to /login without a live session; /orders and
 * /orders/graphql issue a new CSRF token on each load.
 */
export function registerPageRoutes(app: FastifyInstance, state: OrdersState): void {
  const { prefix } = state
  for (const [path, asset] of ordersAssets())
    app.get(path, async (_request, reply) =>
      reply.header('cache-control', 'no-cache').type(asset.type).send(asset.body),
    )
  app.post('/collect', async (_request, reply) => reply.code(204).send())

  // Under a prefix, the prefix itself and the prefix with a slash as two routes: Fastify's
  // default ("both") announces the slashless one only as a HEAD, which route listings miss.
  const home = async (_request: FastifyRequest, reply: FastifyReply) =>
    redirect(state, reply, '/orders')
  if (!app.prefix) app.get('/', home)
  else
    for (const prefixTrailingSlash of ['slash', 'no-slash'] as const)
      app.get('/', { prefixTrailingSlash }, home)
  app.get('/orders', async (request, reply) => {
    const username = cookieUser(state, request)
    if (!username) return redirect(state, reply, '/login')
    const csrf = state.sessions.issueCsrf(readCookie(request, SESSION_COOKIE) as string)
    return sendHtml(reply, 200, ordersPage(prefix, username, csrf))
  })
  app.get('/orders/graphql', async (request, reply) => {
    if (!cookieUser(state, request)) return redirect(state, reply, '/login')
    const csrf = state.sessions.issueCsrf(readCookie(request, SESSION_COOKIE) as string)
    return sendHtml(reply, 200, graphqlPage(prefix, csrf))
  })
  app.get('/orders/:id', async (request, reply) => {
    if (!cookieUser(state, request)) return redirect(state, reply, '/login')
    return sendHtml(reply, 200, orderPage(prefix, (request.params as { id: string }).id))
  })
  app.get('/spa/login', async (_request, reply) => sendHtml(reply, 200, spaLoginPage(prefix)))
  app.get('/spa/orders', async (_request, reply) => sendHtml(reply, 200, spaOrdersPage(prefix)))
  app.setNotFoundHandler(async (request, reply) =>
    isApiPath(sitePath(state, request.url))
      ? sendJson(state, reply, 404, { error: 'not_found', message: 'No such route.' })
      : sendHtml(reply, 404, notFoundPage(prefix)),
  )
}
