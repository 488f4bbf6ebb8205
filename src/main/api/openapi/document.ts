import fastifySwagger from '@fastify/swagger'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { API_SCOPES } from '../../../shared/apiScopes'
import type { ToolSpec } from '../../../shared/toolSpec'
import { scopeForRoute } from '../oauth/routeScopes'
import { COMPONENT_SCHEMAS, schemaRef } from '../../surface/openapi/components'
import { parseErrorEntry } from './errorStatus'
import {
  X_AUTH,
  X_BODY_OPTIONAL,
  X_ERRORS,
  X_OAUTH_ERRORS,
  type RouteAuth,
  type RouteSchema,
} from '../../surface/openapi/routeSchema'

/** interface.md "Versioning" 2: the description's OpenAPI version and its own version string. */
const OPENAPI_VERSION = '3.1.0'
const API_VERSION = '2026.09.28'

/** Marks an operation whose route declares no contract (`schema`) of its own. */
const UNDOCUMENTED = 'x-undocumented'

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

const SCOPING_HEADERS = {
  'X-Service-End-User': {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description: 'With an org key: act as that end user, in its own workspace (403 otherwise).',
  },
  'X-Service-Scope': {
    type: 'string',
    pattern: '^[a-z0-9-]{1,40}$',
    description: 'A tool scope slug: only its apps and tools (403 not_in_scope outside).',
  },
  'X-Service-Workspace': {
    type: 'string',
    description:
      "Team server, with an account's owner token: the workspace (`ws_…`) to work in; default " +
      "the account's first. 403 forbidden when the account is not a member. Ignored otherwise.",
  },
}

/**
 * Registers @fastify/swagger (before any route, so its `onRoute` hook sees them all): each
 * operation of `/openapi.json` is made from the route's own `schema` (`routeSchema`): body,
 * parameters and answers as declared, plus the refusals its auth, the server and its own
 * `x-errors` can answer, grouped per status with the `Error` envelope's `code` narrowed to them,
 * and its security (interface.md "Versioning" 2). A route without a contract is still listed, with a
 * generic body and the error envelope, and marked `x-undocumented`.
 */
export function registerOpenApiGenerator(app: FastifyInstance): void {
  const operationIds = new Set<string>()
  void app.register(fastifySwagger, {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: {
        title: 'Sitecall local service',
        version: API_VERSION,
        description:
          'Private, verified API tools compiled from web workflows: site tool calls under ' +
          '/api/v1, the account API under /v1, runs, scopes and MCP. Every refusal is ' +
          '`{error: {code, message}}`; branch on `code`.',
      },
      components: {
        schemas: COMPONENT_SCHEMAS as never,
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
          // Its URLs are the server's: each request's document names them at its own base.
          oauth2: oauth2Scheme('http://127.0.0.1') as never,
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const method = [route.method].flat()[0]!
      let id = operationId(method, url)
      while (operationIds.has(id)) id += '_'
      operationIds.add(id)
      return { url: openApiPath(url), schema: operation(method, url, schema, id) as never }
    },
    transformObject: (made) => {
      if (!('openapiObject' in made)) return made.swaggerObject
      const { openapiObject } = made
      for (const item of Object.values(openapiObject.paths ?? {}))
        for (const op of Object.values(item as Record<string, Record<string, unknown>>)) {
          const body = op.requestBody as { required?: boolean } | undefined
          if (op[X_BODY_OPTIONAL] && body) body.required = false
          delete op[X_BODY_OPTIONAL]
        }
      return openapiObject
    },
  })
}

/**
 * The document for one request: @fastify/swagger's (made once, after every route exists) with
 * this server's base URL, the OAuth flow at that base, and the current verified tools under
 * `x-tools` (surface A calls).
 */
export function openApiDocument(
  app: FastifyInstance,
  input: { base: string; tools: ToolSpec[] },
): Record<string, unknown> {
  const doc = structuredClone(app.swagger()) as unknown as Record<string, unknown> & {
    components: { securitySchemes: Record<string, unknown> }
  }
  doc.components.securitySchemes.oauth2 = oauth2Scheme(input.base)
  return {
    openapi: doc.openapi,
    info: doc.info,
    servers: [{ url: input.base }],
    paths: doc.paths,
    components: doc.components,
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

/** The OAuth code flow at `base` (RFC 6749 §4.1 with S256 PKCE; interface.md "Authentication"). */
function oauth2Scheme(base: string) {
  return {
    type: 'oauth2',
    description: 'Authorization code with S256 PKCE for public clients (POST /oauth/clients).',
    flows: {
      authorizationCode: {
        authorizationUrl: `${base}/oauth/authorize`,
        tokenUrl: `${base}/oauth/token`,
        refreshUrl: `${base}/oauth/token`,
        scopes: API_SCOPES,
      },
    },
  }
}

/** Fastify's `:name` and `*` as OpenAPI path templates. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{wildcard}')
}

/** The contract a route declares with `routeSchema`, if any. */
function contractOf(schema: unknown): RouteSchema | null {
  return schema && typeof schema === 'object' && X_AUTH in schema ? (schema as RouteSchema) : null
}

function operation(method: string, url: string, given: RouteOptions['schema'], id: string) {
  const contract = contractOf(given)
  const params = pathParams(url)
  if (!contract) return undocumented(method, url, params, id)
  const { [X_AUTH]: auth, [X_ERRORS]: own, [X_OAUTH_ERRORS]: oauthErrors, ...rest } = contract
  const errors = [...AUTH_ERRORS[auth], ...SERVER_ERRORS, ...own]
  if (BODY_METHODS.has(method)) errors.push('bad_request', 'payload_too_large')
  const headers =
    auth === 'key'
      ? mergeObjects(rest.headers as ObjectSchema | undefined, SCOPING_HEADERS)
      : rest.headers
  return {
    ...rest,
    operationId: id,
    security: security(method, url, auth),
    ...(params ? { params } : {}),
    ...(headers ? { headers } : {}),
    response: {
      ...(rest.response as Record<string, unknown>),
      ...refusals(errors, rest.response as Record<string, unknown>, oauthErrors === true),
    },
  }
}

function undocumented(method: string, url: string, params: ObjectSchema | null, id: string) {
  const demo = url.startsWith('/demo/')
  return {
    operationId: id,
    summary: demo
      ? "The orders demo site (spec B rule 3): a page or API of a foreign-looking site; its answers are the site's own."
      : 'Not yet described: a generic body and the error envelope.',
    tags: [demo ? 'demo' : 'undocumented'],
    [UNDOCUMENTED]: true,
    security: demo ? [] : [{ bearer: [] }],
    ...(params ? { params } : {}),
    ...(BODY_METHODS.has(method) ? { body: schemaRef('Object'), [X_BODY_OPTIONAL]: true } : {}),
    response: {
      '200': { description: 'Success.', type: 'null' },
      default: {
        description: 'A refusal.',
        content: { 'application/json': { schema: schemaRef('Error') } },
      },
    },
  }
}

type ObjectSchema = { type: 'object'; properties: Record<string, unknown>; required: string[] }

function mergeObjects(base: ObjectSchema | undefined, extra: Record<string, unknown>) {
  return {
    type: 'object',
    properties: { ...(base?.properties ?? {}), ...extra },
    required: base?.required ?? [],
  }
}

function security(method: string, url: string, auth: RouteAuth) {
  if (auth === 'public') return []
  if (auth !== 'key') return [{ ownerToken: [] }]
  const scope = scopeForRoute(method, url.replace(/:[^/]+/g, 'x'))
  return scope ? [{ bearer: [] }, { oauth2: [scope] }] : [{ bearer: [] }]
}

function pathParams(url: string): ObjectSchema | null {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)
  if (url.endsWith('*')) names.push('wildcard')
  if (!names.length) return null
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    required: names,
  }
}

/**
 * The refusal answers of an operation: one per status its codes answer (`ERROR_STATUS`), the
 * `Error` envelope with `code` narrowed to them; a status the route already answers otherwise
 * keeps that answer. The token endpoint answers RFC 6749 §5.2 errors at 400 and 401; the
 * server's checks before it (Host, Origin, the body's media type) still answer the envelope.
 */
function refusals(errors: string[], declared: Record<string, unknown>, oauthErrors: boolean) {
  const out: Record<string, unknown> = {}
  const byStatus = new Map<number, Set<string>>()
  for (const entry of errors) {
    const { code, status } = parseErrorEntry(entry)
    if (!byStatus.has(status)) byStatus.set(status, new Set())
    byStatus.get(status)!.add(code)
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    if (declared[status]) continue
    const list = [...codes].sort()
    out[status] = {
      description: `Refused: ${list.join(', ')}.`,
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': { type: 'integer', description: 'Seconds.' } } }
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
  if (oauthErrors)
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

function operationId(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by_${part.slice(1)}` : part))
  return [method.toLowerCase(), ...words].join('_').replace(/[^A-Za-z0-9_]/g, '_')
}
