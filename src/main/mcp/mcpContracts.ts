import { json } from '../surface/openapi/docParts'
import { schemaRef } from '../surface/openapi/components'
import { routeSchema, type ParamDoc, type RouteSchema } from '../surface/openapi/routeSchema'

const MCP_QUERY: ParamDoc[] = [
  {
    name: 'scope',
    in: 'query',
    description: 'A tool scope slug: only its apps and tools.',
    schema: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
  },
  {
    name: 'apps',
    in: 'query',
    description: 'Comma-separated site hosts (1 to 200): only their tools.',
    schema: { type: 'string' },
  },
]
const MCP_SUMMARY = {
  GET: 'MCP Streamable HTTP: the server-sent notification stream of a session.',
  POST: 'MCP Streamable HTTP: JSON-RPC messages (initialize opens a session, Mcp-Session-Id).',
  DELETE: 'MCP Streamable HTTP: ends a session.',
}

/**
 * The route schema of one method of the MCP endpoint (`/mcp`, `/mcp/{slug}`; interface.md "C"): the
 * Streamable HTTP transport's JSON-RPC body for POST, the scope parameters and the session
 * header; the JSON-RPC answers themselves are the MCP SDK's.
 */
export function mcpRouteSchema(method: keyof typeof MCP_SUMMARY): RouteSchema {
  return routeSchema({
    summary: MCP_SUMMARY[method],
    tag: 'mcp',
    auth: 'key',
    ...(method === 'POST'
      ? {
          body: {
            required: true,
            schema: {
              description: 'A JSON-RPC 2.0 message or batch (MCP).',
              type: ['object', 'array'],
            },
          },
        }
      : {}),
    params: [
      ...MCP_QUERY,
      {
        name: 'Mcp-Session-Id',
        in: 'header',
        description: 'The session of an initialized client.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      '200': {
        description: 'JSON-RPC answer (or an event stream for GET).',
        schema: schemaRef('Object'),
      },
    },
    errors: ['bad_request', 'not_found', 'unknown_scope', 'invalid_scope'],
  })
}

/** The route schema of the protected resource metadata (RFC 9728 §3; §3.1 under a path). */
export function protectedResourceSchema(underPath: boolean): RouteSchema {
  return routeSchema({
    summary: underPath
      ? 'Protected resource metadata under the resource path (RFC 9728 §3.1).'
      : 'Protected resource metadata of the MCP endpoint (RFC 9728).',
    tag: 'oauth',
    auth: 'public',
    responses: { '200': json('The metadata.') },
    errors: [],
  })
}
