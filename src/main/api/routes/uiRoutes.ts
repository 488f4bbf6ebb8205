import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'

/** Serves the built web UI under `/app/` and sends `/` there; without a build, says how to make one. */
export function registerUiRoutes(app: FastifyInstance, rendererDir: string | null): void {
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
