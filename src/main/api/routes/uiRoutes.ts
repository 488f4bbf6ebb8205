import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { UI_SECURITY_HEADERS } from '../uiSecurity'

/**
 * Serves the built web UI under `/app/` and sends `/` there; without a build, says how to make
 * one. Every `/app/` answer carries the renderer's CSP, `Referrer-Policy: no-referrer` and
 * `X-Frame-Options: DENY` (issue 13 item 7: no script of another origin, no framing).
 */
export function registerUiRoutes(app: FastifyInstance, rendererDir: string | null): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/app/') || request.url === '/app')
      for (const [name, value] of Object.entries(UI_SECURITY_HEADERS))
        void reply.header(name, value)
    return payload
  })
  app.get('/', (request, reply) =>
    reply.redirect(
      `/app/${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`,
    ),
  )
  if (rendererDir) {
    void app.register(fastifyStatic, { root: rendererDir, prefix: '/app/', index: ['index.html'] })
  } else {
    app.get('/app/', (_request, reply) =>
      reply
        .type('text/plain')
        .send(
          'The web UI is not built: run `npm run build:renderer`, then restart `sitecall serve`.',
        ),
    )
  }
}
