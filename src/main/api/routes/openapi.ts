import type { FastifyInstance } from 'fastify'
import type { ToolRepository } from '../../store/toolRepository'
import { createRouteCatalogue } from '../openapi/catalogue'
import { buildOpenApiDocument } from '../openapi/document'

/** Path of the machine-readable description (spec "B"). */
export const OPENAPI_PATH = '/openapi.json'

/**
 * `GET /openapi.json` (spec "B", "Versioning" 2): public like the OAuth metadata (no route here
 * authenticates). Call it right after the Fastify instance is made, before any other route: it
 * installs the route catalogue, which only sees routes registered after it. The document is
 * built per request, for the host asked, with the current verified tools under `x-tools`.
 */
export function registerOpenApiRoute(
  app: FastifyInstance,
  deps: { store: { tools: Pick<ToolRepository, 'list'> } },
): void {
  const catalogue = createRouteCatalogue(app)
  app.get(OPENAPI_PATH, async (request) =>
    buildOpenApiDocument({
      routes: catalogue.list(),
      base: `http://${request.headers.host}`,
      tools: deps.store.tools.list({ status: 'verified' }),
    }),
  )
}
