import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { UI_SECURITY_HEADERS } from '../uiSecurity'
import { routeSchema } from '../../surface/openapi/routeSchema'

/**
 * Serves the built web UI under `/app/` and sends `/` there; without a build, says how to make
 * one. Every `/app/` answer carries the renderer's CSP, `Referrer-Policy: no-referrer` and
 * `X-Frame-Options: DENY` (no script of another origin, no framing).
 */
export function registerUiRoutes(app: FastifyInstance, rendererDir: string | null): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/app/') || request.url === '/app')
      for (const [name, value] of Object.entries(UI_SECURITY_HEADERS))
        void reply.header(name, value)
    return payload
  })
  app.get(
    '/',
    {
      schema: routeSchema({
        summary: 'Sends the browser to the web UI.',
        tag: 'app',
        auth: 'public',
        responses: { '302': { description: 'To `/app/`.' } },
        errors: [],
      }),
    },
    (request, reply) =>
      reply.redirect(
        `/app/${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`,
      ),
  )
  if (rendererDir) {
    void app.register(fastifyStatic, { root: rendererDir, prefix: '/app/', index: ['index.html'] })
  } else {
    app.get(
      '/app/',
      {
        schema: routeSchema({
          summary: 'The web UI.',
          tag: 'app',
          auth: 'public',
          responses: { '200': { description: 'The page.', contentType: 'text/html', schema: {} } },
          errors: [],
        }),
      },
      (_request, reply) =>
        reply
          .type('text/plain')
          .send(
            'The web UI is not built: run `npm run build:renderer`, then restart `sitecall serve`.',
          ),
    )
  }
}
