import type { FastifyInstance } from 'fastify'
import type { ServerDeps } from '../serverDeps'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'

/**
 * The browser routes of interface.md "B" (no body; fields of the answer "not shown", ours):
 * `POST /v1/browser/stop` stops the workspace's browser work and answers
 * `{stopped: true, browseSessions, indexing, recording, profileKept: true}`; `DELETE /v1/browser`
 * closes the workspace's browse sessions and answers `{cleared: true, browseSessions,
 * profileKept: true}`. Saved logins stay either way. What each ends is documented on
 * `createBrowserWork`. A browse session ended here answers `410 session_expired` on its next use.
 * Free; 401/403 like every route (OAuth tokens need `tools:index`).
 */
export function registerBrowserRoutes(app: FastifyInstance, deps: ServerDeps): void {
  app.post(
    '/v1/browser/stop',
    {
      schema: routeSchema({
        summary: "Stop the workspace's browser work; the profile and logins stay.",
        tag: 'indexing',
        auth: 'key',
        responses: { '200': json('`{stopped, browseSessions, indexing, recording, profileKept}`') },
        errors: [],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      return deps.browserWork.stop(caller.tenant)
    },
  )
  app.delete(
    '/v1/browser',
    {
      schema: routeSchema({
        summary: "Close the workspace's browse sessions.",
        tag: 'indexing',
        auth: 'key',
        responses: { '200': json('`{cleared, browseSessions, profileKept}`') },
        errors: [],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      return deps.browserWork.clear(caller.tenant)
    },
  )
}
