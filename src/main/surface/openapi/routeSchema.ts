import type { FastifySchema } from 'fastify'

/**
 * Who may call a route: `key` (bearer API key, OAuth access token or owner token, with tool
 * scopes), `owner` (the owner token only), `public` (no credentials: metadata, the demo site,
 * the OAuth registration and this document), `session` (the owner's browser session of the
 * consent page: owner token as bearer, cookie or `?token=`).
 */
export type RouteAuth = 'key' | 'owner' | 'public' | 'session'

/** A query or header parameter of a route. */
export interface ParamDoc {
  name: string
  in: 'query' | 'header'
  required?: boolean
  description: string
  schema: object
}

/** One answer of a route other than a refusal. */
export interface ResponseDoc {
  description: string
  /** JSON schema of the body; absent: no body described. */
  schema?: object
  /** Default `application/json`. */
  contentType?: string
  headers?: Record<string, { description: string; schema: object }>
}

/**
 * The contract of one route beyond its method and path. `errors` are docs/interface.md codes the route
 * itself answers (the auth layer's and the server's own are added when the document is made);
 * `code@status` names a status other than the code's first one in `ERROR_STATUS`.
 */
export interface RouteDoc {
  summary: string
  tag: string
  auth: RouteAuth
  body?: { schema: object; contentType?: string; required?: boolean }
  params?: ParamDoc[]
  /** The query as one object schema, checked like a body (`validQuery`); wins over `params`. */
  query?: object
  responses: Record<string, ResponseDoc>
  errors: string[]
  /** The refusals are RFC 6749 §5.2's `{error, error_description}` (the token endpoint). */
  oauthErrors?: boolean
}

/** Extension keys a route schema carries for the document's generator (removed from output). */
export const X_AUTH = 'x-auth'
export const X_ERRORS = 'x-errors'
export const X_OAUTH_ERRORS = 'x-oauth-errors'
export const X_BODY_OPTIONAL = 'x-body-optional'

/** A route schema as `routeSchema` makes it: Fastify's parts plus the generator's extensions. */
export type RouteSchema = FastifySchema & {
  summary: string
  tags: string[]
  [X_AUTH]: RouteAuth
  [X_ERRORS]: string[]
  [X_OAUTH_ERRORS]?: true
  [X_BODY_OPTIONAL]?: true
}

/**
 * The Fastify `schema` of a route from its contract: `body` (validated by the server's compiler,
 * see `routeValidation.ts`), `querystring` and `headers` from its parameters, `response` from
 * its answers, and the summary, tag, auth and error codes @fastify/swagger turns into the
 * `/openapi.json` operation (interface.md "Versioning" 2). One object serves validation and document.
 */
export function routeSchema(doc: RouteDoc): RouteSchema {
  const schema: RouteSchema = {
    summary: doc.summary,
    tags: [doc.tag],
    [X_AUTH]: doc.auth,
    [X_ERRORS]: doc.errors,
    ...(doc.oauthErrors ? { [X_OAUTH_ERRORS]: true as const } : {}),
  }
  if (doc.body) {
    schema.body = doc.body.schema
    if (doc.body.contentType) schema.consumes = [doc.body.contentType]
    if (!doc.body.required) schema[X_BODY_OPTIONAL] = true
  }
  const query = (doc.params ?? []).filter((p) => p.in === 'query')
  const headers = (doc.params ?? []).filter((p) => p.in === 'header')
  if (doc.query) schema.querystring = doc.query
  else if (query.length) schema.querystring = paramsObject(query)
  if (headers.length) schema.headers = paramsObject(headers)
  schema.response = Object.fromEntries(
    Object.entries(doc.responses).map(([status, r]) => [status, responseSchema(r)]),
  )
  return schema
}

function paramsObject(params: ParamDoc[]) {
  return {
    type: 'object',
    properties: Object.fromEntries(
      params.map((p) => [p.name, { ...p.schema, description: p.description }]),
    ),
    required: params.filter((p) => p.required).map((p) => p.name),
  }
}

function responseSchema(r: ResponseDoc) {
  return {
    description: r.description,
    ...(r.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(r.headers).map(([name, h]) => [
              name,
              { ...h.schema, description: h.description },
            ]),
          ),
        }
      : {}),
    ...(r.schema
      ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } }
      : { type: 'null' }),
  }
}
