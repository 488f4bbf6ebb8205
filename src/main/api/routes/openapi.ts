import type { FastifyInstance } from 'fastify'
import type { ToolRepository } from '../../store/toolRepository'
import { openApiDocument } from '../openapi/document'
import { routeSchema } from '../openapi/routeSchema'
import { json } from '../openapi/docParts'

/** Path of the machine-readable description (spec "B"). */
export const OPENAPI_PATH = '/openapi.json'

/**
 * `GET /openapi.json` (spec "B", "Versioning" 2): public like the OAuth metadata (no route here
 * authenticates); `registerOpenApiGenerator` must have run on the server before any route. The
 * document is the routes' own schemas, for the host asked, with the current verified tools under `x-tools`.
 */
export function registerOpenApiRoute(
  app: FastifyInstance,
  deps: { store: { tools: Pick<ToolRepository, 'list'> } },
): void {
  app.get(
    OPENAPI_PATH,
    {
      schema: routeSchema({
        summary: 'This description: OpenAPI 3.1.0, version 2026.09.28 (public).',
        tag: 'meta',
        auth: 'public',
        responses: { '200': json('The OpenAPI document.') },
        errors: [],
      }),
    },
    async (request) =>
      openApiDocument(app, {
        base: `http://${request.headers.host}`,
        tools: deps.store.tools.list({ status: 'verified' }),
      }),
  )
}
