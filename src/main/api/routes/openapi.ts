import type { FastifyInstance } from 'fastify'
import type { ToolRepository } from '../../store/toolRepository'
import type { Authenticator } from '../../surface/caller'
import { openApiDocument } from '../openapi/document'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'

/** Path of the machine-readable description (interface.md "B"). */
const OPENAPI_PATH = '/openapi.json'

/**
 * `GET /openapi.json` (interface.md "B", "Versioning" 2): like every route of the account API but the
 * OAuth metadata (docs/architecture.md "Local server safety"), it takes an API key, the owner token or an
 * OAuth token with `tools:read` (401 without one): its `x-tools` are the caller's workspace's
 * verified tools, which no one else may read. `registerOpenApiGenerator`
 * must have run on the server before any route. The document is the routes' own schemas, for the
 * host asked.
 */
export function registerOpenApiRoute(
  app: FastifyInstance,
  deps: {
    auth: Pick<Authenticator, 'authenticate'>
    store: { toolsFor(tenant: string): Pick<ToolRepository, 'list'> }
  },
): void {
  app.get(
    OPENAPI_PATH,
    {
      schema: routeSchema({
        summary:
          "This description: OpenAPI 3.1.0, version 2026.09.28, with the workspace's verified " +
          'tools under `x-tools`.',
        tag: 'meta',
        auth: 'key',
        responses: { '200': json('The OpenAPI document.') },
        errors: [],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      return openApiDocument(app, {
        base: `http://${request.headers.host}`,
        tools: deps.store.toolsFor(caller.tenant).list({ status: 'verified' }),
      })
    },
  )
}
