import { API_SCOPES } from '../../../shared/apiScopes'
import type { ToolSpec } from '../../../shared/toolSpec'
import { scopeForRoute } from '../oauth/routeScopes'
import type { CatalogueRoute } from './catalogue'
import { COMPONENT_SCHEMAS, schemaRef } from './components'
import { parseErrorEntry } from './errorStatus'
import { ROUTE_DOCS, routeKey, type ParamDoc, type RouteAuth, type RouteDoc } from './routeDocs'

/** Spec "Versioning" 2: the description's OpenAPI version and its own version string. */
export const OPENAPI_VERSION = '3.1.0'
export const API_VERSION = '2026.09.28'

/** Marks an operation whose route the catalogue knows but `ROUTE_DOCS` does not describe. */
export const UNDOCUMENTED = 'x-undocumented'

export interface DocumentInput {
  routes: CatalogueRoute[]
  /** `http://127.0.0.1:PORT`: the server, and the base of the OAuth URLs. */
  base: string
  /** Tools to list under `x-tools` (surface A calls), usually the verified ones. */
  tools: ToolSpec[]
}

const AUTH_ERRORS: Record<RouteAuth, string[]> = {
  key: [
    'unauthorized',
    'revoked',
    'forbidden',
    'invalid_input',
    'unknown_scope',
    'invalid_scope',
    'rate_limited',
  ],
  owner: ['unauthorized', 'revoked', 'forbidden', 'invalid_input', 'rate_limited'],
  session: ['unauthorized'],
  public: [],
}
/** Every route: `Host`/`Origin` refusals (forbidden) and a server fault (internal). */
const SERVER_ERRORS = ['forbidden', 'internal']
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const SCOPING_HEADERS: ParamDoc[] = [
  {
    name: 'X-Service-End-User',
    in: 'header',
    description: 'With an org key: act as that end user, in its own workspace (403 otherwise).',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  },
  {
    name: 'X-Service-Scope',
    in: 'header',
    description: 'A tool scope slug: only its apps and tools (403 not_in_scope outside).',
    schema: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
  },
]

/**
 * Builds the OpenAPI 3.1.0 document of every catalogued route (spec "Versioning" 2; issue 5
 * "OpenAPI"): request bodies are the schema constants the routes validate with, each operation
 * lists the spec error codes it can answer per status (the `Error` envelope with `code`
 * narrowed to them), and its security. A route without an entry in `ROUTE_DOCS` is still listed,
 * with a generic body and the error envelope, and marked `x-undocumented`.
 */
export function buildOpenApiDocument(input: DocumentInput): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  const operationIds = new Set<string>()
  for (const route of input.routes) {
    const path = openApiPath(route.url)
    const doc = ROUTE_DOCS[routeKey(route.method, route.url)] ?? undefined
    const operation = doc ? documented(route, doc) : undocumented(route)
    let id = operationId(route)
    while (operationIds.has(id)) id += '_'
    operationIds.add(id)
    ;(paths[path] ??= {})[route.method.toLowerCase()] = { operationId: id, ...operation }
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Sitecall local service',
      version: API_VERSION,
      description:
        'Private, verified API tools compiled from web workflows: site tool calls under ' +
        '/api/v1, the account API under /v1, runs, scopes and MCP. Every refusal is ' +
        '`{error: {code, message}}`; branch on `code`.',
    },
    servers: [{ url: input.base }],
    paths,
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key `svc_live_…` (personal or org), an OAuth access token, or the owner token.',
        },
        ownerToken: {
          type: 'http',
          scheme: 'bearer',
          description: "The app owner's token (one hour): the app's own routes.",
        },
        oauth2: {
          type: 'oauth2',
          description:
            'Authorization code with S256 PKCE for public clients (POST /oauth/clients).',
          flows: {
            authorizationCode: {
              authorizationUrl: `${input.base}/oauth/authorize`,
              tokenUrl: `${input.base}/oauth/token`,
              refreshUrl: `${input.base}/oauth/token`,
              scopes: API_SCOPES,
            },
          },
        },
      },
    },
    'x-tools': input.tools.map((tool) => ({
      name: tool.name,
      siteHost: tool.siteHost,
      call: `/api/v1/sites/${tool.siteHost}/call/${tool.name}`,
      description: tool.description,
      mutating: tool.mutating,
      version: tool.version,
      inputs: tool.inputs,
    })),
  }
}

/** Fastify's `:name` and `*` as OpenAPI path templates. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{wildcard}')
}

function documented(route: CatalogueRoute, doc: RouteDoc) {
  const errors = [...AUTH_ERRORS[doc.auth], ...SERVER_ERRORS, ...doc.errors]
  if (BODY_METHODS.has(route.method)) errors.push('bad_request', 'payload_too_large')
  return {
    summary: doc.summary,
    tags: [doc.tag],
    security: security(route, doc.auth),
    parameters: [
      ...pathParams(route.url),
      ...(doc.params ?? []),
      ...(doc.auth === 'key' ? SCOPING_HEADERS : []),
    ],
    ...(doc.body
      ? {
          requestBody: {
            required: doc.body.required ?? false,
            content: { [doc.body.contentType ?? 'application/json']: { schema: doc.body.schema } },
          },
        }
      : {}),
    responses: responses(doc, errors),
  }
}

function undocumented(route: CatalogueRoute) {
  const demo = route.url.startsWith('/demo/')
  return {
    summary: demo
      ? "The orders demo site (spec B rule 3): a page or API of a foreign-looking site; its answers are the site's own."
      : 'Not yet described: a generic body and the error envelope.',
    tags: [demo ? 'demo' : 'undocumented'],
    [UNDOCUMENTED]: true,
    security: demo ? [] : [{ bearer: [] }],
    parameters: pathParams(route.url),
    ...(BODY_METHODS.has(route.method)
      ? { requestBody: { content: { 'application/json': { schema: schemaRef('Object') } } } }
      : {}),
    responses: {
      '200': { description: 'Success.' },
      default: {
        description: 'A refusal.',
        content: { 'application/json': { schema: schemaRef('Error') } },
      },
    },
  }
}

function security(route: CatalogueRoute, auth: RouteAuth) {
  if (auth === 'public') return []
  if (auth !== 'key') return [{ ownerToken: [] }]
  const scope = scopeForRoute(route.method, route.url.replace(/:[^/]+/g, 'x'))
  return scope ? [{ bearer: [] }, { oauth2: [scope] }] : [{ bearer: [] }]
}

function pathParams(url: string) {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)
  if (url.endsWith('*')) names.push('wildcard')
  return names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))
}

function responses(doc: RouteDoc, errors: string[]) {
  const out: Record<string, unknown> = {}
  for (const [status, r] of Object.entries(doc.responses))
    out[status] = {
      description: r.description,
      ...(r.schema
        ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } }
        : {}),
    }
  const byStatus = new Map<number, Set<string>>()
  for (const entry of errors) {
    const { code, status } = parseErrorEntry(entry)
    if (!byStatus.has(status)) byStatus.set(status, new Set())
    byStatus.get(status)!.add(code)
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    if (out[status]) continue
    const list = [...codes].sort()
    out[status] = {
      description: `Refused: ${list.join(', ')}.`,
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': { description: 'Seconds.', schema: { type: 'integer' } } } }
        : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [
              schemaRef('Error'),
              { properties: { error: { properties: { code: { enum: list } } } } },
            ],
          },
        },
      },
    }
  }
  // The token endpoint answers its own errors as RFC 6749 §5.2 says; the server's checks
  // before it (Host, Origin, the body's media type) still answer the spec envelope.
  if (doc.oauthErrors)
    for (const status of ['400', '401']) {
      const envelope = (out[status] as { content?: { 'application/json': { schema: object } } })
        ?.content?.['application/json'].schema
      const schema = envelope
        ? { oneOf: [schemaRef('OAuthError'), envelope] }
        : schemaRef('OAuthError')
      out[status] = {
        description: 'RFC 6749 §5.2 token error (or the envelope of a server check).',
        content: { 'application/json': { schema } },
      }
    }
  return out
}

function operationId(route: CatalogueRoute): string {
  const words = route.url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by_${part.slice(1)}` : part))
  return [route.method.toLowerCase(), ...words].join('_').replace(/[^A-Za-z0-9_]/g, '_')
}
