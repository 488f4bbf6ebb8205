import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { OAuthRepository } from '../../store/oauthRepository'
import type { Authorizations } from '../oauth/authorization'
import {
  createClientRegistrar,
  registerClient,
  type RegistrationLimits,
} from '../oauth/clientRegistration'
import { renderConsentPage, renderSignInNeededPage } from '../oauth/consentPage'
import { authorizationServerMetadata, OAUTH_PATHS } from '../oauth/metadata'
import type { IssuedOwnerToken, OwnerTokens } from '../oauth/ownerTokens'
import { OAuthError, type TokenService } from '../oauth/tokens'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'
import { OAUTH_CLIENT_BODY_SCHEMA, type OAuthClientBody } from '../../../shared/accountApiSchemas'
import { validBody } from '../routeValidation'
import { ownValue } from '../../../shared/safeKeys'

export interface OAuthRouteDeps {
  oauthRepo: OAuthRepository
  authorizations: Authorizations
  tokens: TokenService
  ownerTokens: OwnerTokens
  /** The owner's workspace: what an approved grant acts on. */
  tenant: string
  clock: () => number
  /** Limits of `POST /oauth/clients`; default `DEFAULT_REGISTRATION_LIMITS`; null: off (fuzzing). */
  registrationLimits?: RegistrationLimits | null
}

/** Forms of the consent page and the token endpoint are small. */
const FORM_LIMIT = 64 * 1024

const baseOf = (request: FastifyRequest) => `http://${request.headers.host}`
/** Cookies ignore ports: the port in the name keeps two local servers' sessions apart. */
const cookieName = (request: FastifyRequest) =>
  `sitecall_owner_${/:(\d+)$/.exec(request.headers.host ?? '')?.[1] ?? '80'}`

/**
 * OAuth 2.1 for public clients and the owner's session:
 * - `GET /.well-known/oauth-authorization-server` (RFC 8414), public;
 * - `POST /oauth/clients` (RFC 7591), public, answers 201 with the client information; rate
 *   limited and capped (429 `rate_limited`, `createClientRegistrar`);
 * - `GET /oauth/authorize` shows the consent page to the owner; `POST /oauth/authorize` takes
 *   the Approve/Deny form and redirects (303) back to the client with `code` or `error`;
 * - `POST /oauth/token` (form-encoded) exchanges a code with its PKCE verifier, or rotates a
 *   refresh token. Its errors are RFC 6749 §5.2's `{error, error_description}`, not the interface's
 *   envelope, because OAuth clients branch on that `error` (a refresh answered `invalid_grant`
 *   makes them sign in again);
 * - `POST /app-api/session/refresh` trades the UI's valid owner token for a fresh one;
 * - `POST /app-api/session/redeem` `{code}` trades the one-time code of the app's start link
 *   (`/app/?code=…`, what `sitecall serve` prints and opens) for an owner token;
 * - `POST /app-api/session/resume` gives a tab opened without a link a fresh token, when the
 *   browser holds the session cookie of a tab that signed in.
 *
 * The consent page needs the owner's session, since the one who opens it is the app's owner:
 * the owner token as a bearer header, as `?token=` on the GET (then kept in the cookie), or the
 * `sitecall_owner_<port>` cookie (HttpOnly, SameSite=Strict, Path=/) that every sign-in and
 * session refresh of the UI sets, so a browser where the app is open can approve.
 */
export function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): void {
  app.get(OAUTH_PATHS.metadata, { schema: METADATA_ROUTE }, async (request) =>
    authorizationServerMetadata(baseOf(request)),
  )
  const register =
    deps.registrationLimits === null
      ? (body: OAuthClientBody) => registerClient(deps.oauthRepo, body, deps.clock())
      : createClientRegistrar(deps.oauthRepo, deps.clock, deps.registrationLimits)
  app.post(OAUTH_PATHS.register, { schema: REGISTER_ROUTE }, async (request, reply) =>
    reply
      .status(201)
      .header('cache-control', 'no-store')
      .send(register(validBody(request, OAUTH_CLIENT_BODY_SCHEMA))),
  )
  app.post('/app-api/session/refresh', { schema: REFRESH_ROUTE }, async (request, reply) =>
    refreshSession(deps, request, reply),
  )
  app.post('/app-api/session/redeem', { schema: REDEEM_ROUTE }, async (request, reply) => {
    const { code } = validBody(request, REDEEM_BODY_SCHEMA)
    return sendSession(deps, request, reply, deps.ownerTokens.redeem(code))
  })
  app.post('/app-api/session/resume', { schema: RESUME_ROUTE }, async (request, reply) => {
    const current = readCookie(request.headers.cookie, cookieName(request))
    if (!current || !deps.ownerTokens.isValid(current))
      throw new ServiceError(
        'unauthorized',
        'This browser holds no open Sitecall session: open the link `sitecall serve` printed.',
      )
    return sendSession(deps, request, reply, deps.ownerTokens.refresh(current))
  })
  // Form bodies only here: elsewhere the API takes JSON and refuses other media types.
  void app.register(async (scoped) => {
    scoped.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => done(null, new URLSearchParams(body as string)),
    )
    scoped.get(OAUTH_PATHS.authorize, { schema: CONSENT_PAGE_ROUTE }, async (request, reply) =>
      showConsent(deps, request, reply),
    )
    scoped.post(OAUTH_PATHS.authorize, { schema: CONSENT_FORM_ROUTE }, async (request, reply) =>
      decideConsent(deps, request, reply),
    )
    scoped.post(OAUTH_PATHS.token, { schema: TOKEN_ROUTE }, async (request, reply) =>
      exchangeToken(deps, request, reply),
    )
  })
}

const METADATA_ROUTE = routeSchema({
  summary: 'OAuth authorization server metadata (RFC 8414).',
  tag: 'oauth',
  auth: 'public',
  responses: { '200': json('The metadata.') },
  errors: [],
})

const REGISTER_ROUTE = routeSchema({
  summary: 'Register a public OAuth client (RFC 7591).',
  tag: 'oauth',
  auth: 'public',
  body: { schema: OAUTH_CLIENT_BODY_SCHEMA, required: true },
  responses: { '201': json('The client information (`client_id`, no secret).') },
  errors: ['bad_request', 'invalid_input', 'rate_limited'],
})

const REFRESH_ROUTE = routeSchema({
  summary: "Trade the UI's valid owner token for a fresh one (one hour).",
  tag: 'app',
  auth: 'owner',
  responses: { '200': json('`{token, expiresAt, expiresInSeconds}`') },
  errors: ['bad_request'],
})

/** Body of `POST /app-api/session/redeem`: the start link's one-time code. */
const REDEEM_BODY_SCHEMA = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)

const REDEEM_ROUTE = routeSchema({
  summary: "Trade the one-time code of the app's start link for an owner token (one hour).",
  tag: 'app',
  auth: 'public',
  body: {
    schema: REDEEM_BODY_SCHEMA,
    required: true,
  },
  responses: { '200': json('`{token, expiresAt, expiresInSeconds}`') },
  errors: ['bad_request', 'unknown_argument', 'invalid_input', 'unauthorized'],
})

const RESUME_ROUTE = routeSchema({
  summary: "A fresh owner token for a browser that holds the app's session cookie.",
  tag: 'app',
  auth: 'session',
  responses: { '200': json('`{token, expiresAt, expiresInSeconds}`') },
  errors: ['unauthorized'],
})

const CONSENT_PAGE_ROUTE = routeSchema({
  summary: "The consent page (authorization code with S256 PKCE); needs the owner's session.",
  tag: 'oauth',
  auth: 'session',
  params: [
    'response_type',
    'client_id',
    'redirect_uri',
    'code_challenge',
    'code_challenge_method',
    'scope',
    'state',
  ].map((name) => ({
    name,
    in: 'query' as const,
    description: `OAuth 2.1 \`${name}\`.`,
    schema: { type: 'string' },
  })),
  responses: {
    '200': { description: 'The consent page.', contentType: 'text/html', schema: {} },
    '302': { description: 'Back to the client with an OAuth error.' },
  },
  errors: ['unauthorized', 'invalid_input'],
})

const CONSENT_FORM_ROUTE = routeSchema({
  summary: "The consent page's Approve/Deny form; redirects (303) back with `code` or `error`.",
  tag: 'oauth',
  auth: 'session',
  body: {
    contentType: 'application/x-www-form-urlencoded',
    required: true,
    schema: {
      type: 'object',
      required: ['consent', 'decision'],
      properties: { consent: { type: 'string' }, decision: { enum: ['approve', 'deny'] } },
    },
  },
  responses: { '303': { description: 'Back to the client.' } },
  errors: ['bad_request', 'unauthorized', 'invalid_input'],
})

const TOKEN_ROUTE = routeSchema({
  summary: 'Exchange a code (with its PKCE verifier) or rotate a refresh token.',
  tag: 'oauth',
  auth: 'public',
  body: {
    contentType: 'application/x-www-form-urlencoded',
    required: true,
    schema: {
      type: 'object',
      required: ['grant_type'],
      properties: {
        grant_type: { enum: ['authorization_code', 'refresh_token'] },
        code: { type: 'string' },
        code_verifier: { type: 'string' },
        redirect_uri: { type: 'string' },
        client_id: { type: 'string' },
        refresh_token: { type: 'string' },
        scope: { type: 'string' },
      },
    },
  },
  responses: {
    '200': json('`{access_token, token_type, expires_in, refresh_token, scope}`'),
  },
  errors: [],
  oauthErrors: true,
})

/** `POST /app-api/session/refresh`: a fresh owner token for a valid one, and its cookie. */
function refreshSession(deps: OAuthRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const header = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')
  if (!header) throw new ServiceError('unauthorized', 'Send the current owner token as a bearer.')
  return sendSession(deps, request, reply, deps.ownerTokens.refresh(header[1]!))
}

/** Answers with an owner token and sets the session cookie that lets other tabs resume. */
function sendSession(
  deps: OAuthRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  fresh: IssuedOwnerToken,
) {
  setSessionCookie(request, reply, fresh.token, fresh.expiresAt - deps.clock())
  return reply.header('cache-control', 'no-store').send({
    token: fresh.token,
    expiresAt: fresh.expiresAt,
    expiresInSeconds: Math.round((fresh.expiresAt - deps.clock()) / 1000),
  })
}

/** `GET /oauth/authorize`: the consent page for the owner, the session kept in its cookie. */
function showConsent(deps: OAuthRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const session = ownerSession(deps, request, true)
  if (!session) return signInNeeded(request, reply)
  const checked = deps.authorizations.check(request.query, baseOf(request))
  if (checked.kind === 'refuse') throw checked.error
  if (checked.kind === 'redirect') return reply.redirect(checked.url, 302)
  if (readCookie(request.headers.cookie, cookieName(request)) !== session)
    setSessionCookie(
      request,
      reply,
      session,
      (deps.ownerTokens.expiresAt(session) ?? deps.clock()) - deps.clock(),
    )
  return securePage(reply).type('text/html').send(renderConsentPage(checked.consent))
}

/** `POST /oauth/authorize`: the owner's Approve/Deny, answered by a redirect to the client. */
function decideConsent(deps: OAuthRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  if (!ownerSession(deps, request, false)) return signInNeeded(request, reply)
  const form = formOf(request.body)
  const decision = form?.get('decision')
  const consent = form?.get('consent')
  if (!consent || (decision !== 'approve' && decision !== 'deny'))
    throw new ServiceError(
      'invalid_input',
      'Send the consent form: consent=<id>&decision=approve|deny.',
    )
  const url = deps.authorizations.decide(
    consent,
    decision === 'approve',
    deps.tenant,
    baseOf(request),
  )
  // 303: the browser follows a POST's redirect with a GET (RFC 9110 §15.4.4).
  return reply.header('cache-control', 'no-store').redirect(url, 303)
}

/** `POST /oauth/token`: a code or refresh token exchanged; errors as RFC 6749 §5.2 has them. */
function exchangeToken(deps: OAuthRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
  try {
    const form = formOf(request.body)
    if (!form)
      throw new OAuthError(
        'invalid_request',
        'Send the parameters as application/x-www-form-urlencoded (RFC 6749 §3.2).',
      )
    const params: Record<string, string> = {}
    for (const [name, value] of form) {
      // RFC 6749 §3.2: a parameter must not be sent twice.
      if (Object.hasOwn(params, name))
        throw new OAuthError('invalid_request', `"${name}" was sent more than once.`)
      params[name] = value
    }
    return reply.send(deps.tokens.exchange(params))
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error
    if (error.status === 401) void reply.header('www-authenticate', 'Bearer')
    return reply.status(error.status).send({ error: error.error, error_description: error.message })
  }
}

/** The owner token this request carries, when it is valid (bearer, cookie, or GET `?token=`). */
function ownerSession(
  deps: OAuthRouteDeps,
  request: FastifyRequest,
  allowQuery: boolean,
): string | null {
  const candidates = [
    /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1],
    allowQuery ? ownValue(request.query, 'token') : undefined,
    readCookie(request.headers.cookie, cookieName(request)),
  ]
  return (
    candidates.find((t): t is string => typeof t === 'string' && deps.ownerTokens.isValid(t)) ??
    null
  )
}

function signInNeeded(request: FastifyRequest, reply: FastifyReply) {
  const error = new ServiceError(
    'unauthorized',
    "Approving access needs the app's owner session: open Sitecall in this browser, then reload.",
  )
  if (wantsHtml(request))
    return securePage(reply.status(401)).type('text/html').send(renderSignInNeededPage())
  return reply.status(401).send({ error: error.toBody() })
}

function formOf(body: unknown): URLSearchParams | null {
  return body instanceof URLSearchParams ? body : null
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html')
}

/**
 * A page that grants access must not be framed (clickjacking) nor leak its URL onwards:
 * `same-origin` sends no referrer to another origin (the client's redirect), yet lets the
 * consent form's POST carry its real `Origin`; under `no-referrer` a browser sends `Origin: null`
 * with a form POST (Fetch, "serializing a request origin"), which the server's origin check
 * refuses, so Approve failed in every real browser (seen in Chromium, test/e2e/syncLink.spec.ts).
 */
function securePage(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    )
    .header('referrer-policy', 'same-origin')
}

/** Sets the owner-session cookie of the consent page; `lifeMs` is what the token has left. */
function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  lifeMs: number,
) {
  const maxAge = Math.max(0, Math.floor(lifeMs / 1000))
  void reply.header(
    'set-cookie',
    `${cookieName(request)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}`,
  )
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return null
}
