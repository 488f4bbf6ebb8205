import type { ApiScope } from '../../../shared/apiScopes'

/**
 * Which OAuth scope each route needs (interface.md "Authentication" 4: search needs `tools:read`; the
 * others are ours, see `src/shared/apiScopes.ts`). Matched on the path, so a route's parameter
 * names do not matter. A route missing here takes no OAuth token at all (API keys and the owner
 * token only), so a new route is closed to tokens until someone decides its scope.
 */
const ROUTE_SCOPES: Array<{ methods: string[] | null; path: RegExp; scope: ApiScope }> = [
  { methods: ['POST'], path: /^\/v1\/tools\/search$/, scope: 'tools:read' },
  { methods: ['GET'], path: /^\/v1\/tools$/, scope: 'tools:read' },
  { methods: ['POST'], path: /^\/v1\/tool-router$/, scope: 'tools:read' },
  { methods: ['GET'], path: /^\/v1\/tools\/catalog$/, scope: 'tools:read' },
  { methods: ['GET'], path: /^\/v1\/usage$/, scope: 'tools:read' },
  { methods: ['GET'], path: /^\/api\/v1\/sites\/[^/]+$/, scope: 'tools:read' },
  { methods: ['GET'], path: /^\/api\/v1\/scopes$/, scope: 'tools:read' },
  { methods: ['GET'], path: /^\/openapi\.json$/, scope: 'tools:read' },
  // MCP: connecting lists tools; what a tool call needs is checked per call (requireScope).
  { methods: null, path: /^\/mcp(\/[^/]+)?$/, scope: 'tools:read' },
  { methods: ['POST'], path: /^\/api\/v1\/sites\/[^/]+\/call\/[^/]+$/, scope: 'tools:execute' },
  { methods: ['POST'], path: /^\/v1\/tools\/[^/]+\/execute$/, scope: 'tools:execute' },
  { methods: ['POST'], path: /^\/api\/v1\/compose\/v1\/call$/, scope: 'tools:execute' },
  { methods: null, path: /^\/api\/v1\/runs(\/.*)?$/, scope: 'tools:execute' },
  { methods: ['POST'], path: /^\/v1\/index$/, scope: 'tools:index' },
  { methods: null, path: /^\/api\/v1\/index(\/[^/]+)?$/, scope: 'tools:index' },
  { methods: ['POST'], path: /^\/v1\/tools\/prepare$/, scope: 'tools:index' },
  { methods: ['POST', 'DELETE'], path: /^\/v1\/browser(\/stop)?$/, scope: 'tools:index' },
  { methods: ['GET'], path: /^\/v1\/accounts$/, scope: 'accounts:read' },
  { methods: ['PUT', 'DELETE'], path: /^\/v1\/accounts\/[^/]+$/, scope: 'accounts:write' },
  { methods: ['POST'], path: /^\/api\/v1\/scopes$/, scope: 'scopes:write' },
  { methods: ['DELETE'], path: /^\/api\/v1\/scopes\/[^/]+$/, scope: 'scopes:write' },
  { methods: ['GET'], path: /^\/v1\/sync\/tools$/, scope: 'tools:read' },
  { methods: ['PUT', 'DELETE'], path: /^\/v1\/sync\/tools\/[^/]+$/, scope: 'tools:sync' },
  // A device (a linked desktop) claims and reports runs under the link's sync grant.
  {
    methods: ['GET', 'POST'],
    path: /^\/v1\/devices(\/[^/]+\/(next|runs\/[^/]+))?$/,
    scope: 'tools:sync',
  },
  // Unlinking a device (`DELETE /v1/devices/{id}`) takes the same grant.
  { methods: ['DELETE'], path: /^\/v1\/devices\/[^/]+$/, scope: 'tools:sync' },
]

/**
 * The scope a request needs when it comes with an OAuth token, or null when the route takes no
 * OAuth token. `path` is the URL path without the query.
 */
export function scopeForRoute(method: string, path: string): ApiScope | null {
  const upper = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()
  const hit = ROUTE_SCOPES.find(
    (r) => r.path.test(path) && (r.methods === null || r.methods.includes(upper)),
  )
  return hit?.scope ?? null
}
