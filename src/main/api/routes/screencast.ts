import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { openScreencastView } from '../screencastLink'
import type { ServerDeps } from '../serverDeps'
import { safeJson } from '../../../shared/safeJson'

/** Largest viewer message: a pasted text of 100 000 characters, 4 bytes each at worst, and JSON. */
const MAX_MESSAGE_BYTES = 512 * 1024

const SCREENCAST_PREFIX = '/app-api/screencast/'

/**
 * The in-page view of the recording browser (or of a sign-in's, by its `signin_` id): `GET
 * /app-api/screencast/<session id>` upgraded to a WebSocket carries the messages of `src/shared/screencast.ts` both ways. Like
 * every `/app-api` route it takes the owner token only (a bearer, or `?token=` since a browser's
 * WebSocket cannot send headers), refused with 401/403 before the upgrade; the server's Host and
 * Origin checks apply to the upgrade request as to any other. A plain GET answers 400
 * `bad_request`. What the socket carries is `openScreencastView`'s, as the desktop's port.
 *
 * WebSocket rather than server-sent events plus POSTs: input must reach the page in the order
 * typed (separate POSTs may overtake each other), each frame waits for the viewer's ack so one
 * connection carries the flow control, and a mouse move costs a message, not an HTTP request.
 */
export function registerScreencastRoutes(app: FastifyInstance, deps: ServerDeps): void {
  // The plugin routes every upgrade request of the server through Fastify: only this route may
  // take one, and a refused upgrade's socket (which Node's HTTP server no longer manages) is
  // closed once its refusal is written, so neither it nor the server's close hangs.
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.upgrade === undefined || request.url.startsWith(SCREENCAST_PREFIX)) return
    return reply.status(400).send({
      error: { code: 'bad_request', message: 'Only /app-api/screencast/<id> opens a WebSocket.' },
    })
  })
  app.addHook('onResponse', async (request) => {
    if (request.headers.upgrade !== undefined) request.raw.socket?.end()
  })
  // Encapsulated: the plugin's hooks see only this route.
  void app.register(async (scoped) => {
    await scoped.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } })
    scoped.route<{ Params: { sessionId: string } }>({
      method: 'GET',
      url: '/app-api/screencast/:sessionId',
      schema: routeSchema({
        summary:
          "The Record view's live view of a recording browser: a WebSocket carrying frames and the tab's state out, input and navigation in (`src/shared/screencast.ts`).",
        tag: 'app',
        auth: 'owner',
        params: [
          {
            name: 'token',
            in: 'query',
            description: 'The owner token (a browser WebSocket sends no headers).',
            schema: { type: 'string' },
          },
        ],
        responses: { '101': { description: 'Switching to the WebSocket protocol.' } },
        errors: ['bad_request'],
      }),
      preValidation: async (request) => void deps.auth.requireOwner(request),
      handler: (_request, reply) =>
        reply.status(400).send({
          error: {
            code: 'bad_request',
            message: 'Open this address as a WebSocket: it carries the recording browser’s view.',
          },
        }),
      wsHandler: (socket, request) => {
        const view = openScreencastView(
          deps.recordings,
          request.params.sessionId,
          {
            send(message) {
              if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message))
            },
            close: (code, reason) => socket.close(code, reason),
          },
          deps.signIn.flows,
        )
        socket.on('message', (data, isBinary) =>
          view.receive(isBinary ? undefined : safeJson(data.toString())),
        )
        socket.on('close', () => view.end())
      },
    })
  })
}
