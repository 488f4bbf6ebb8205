import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../../shared/errors'
import { ALL_API_SCOPES, type ApiScope } from '../../shared/apiScopes'
import type { ReadAhead } from '../store/readAhead'
import type { KeyRepository } from '../store/keyRepository'
import type { ToolRepository } from '../store/toolRepository'
import {
  resolveToolScopes,
  type ScopeLookup,
  type ScopedTool,
  type ToolScope,
} from '../surface/toolsInScope'
import {
  ACCOUNT_TOKEN_PREFIX,
  assertInScope,
  type AccountAuth,
  type Authenticator,
  type Caller,
} from '../surface/caller'
import type { OwnerTokens } from './oauth/ownerTokens'
import { scopeForRoute } from './oauth/routeScopes'
import { ACCESS_TOKEN_PREFIX, type TokenService } from './oauth/tokens'
import type { RateLimiter } from './rateLimit'
import { ownValue } from '../../shared/safeKeys'

/** interface.md "Limits": end-user header max 200 characters. */
const MAX_END_USER = 200

export interface AuthDeps {
  keys: KeyRepository
  owner: OwnerTokens
  tokens: Pick<TokenService, 'checkAccess'>
  /** The workspace's stored tool scopes by slug. */
  scopes: ScopeLookup
  /** The tools of a caller's workspace (the store's `toolsFor`): the `not_in_scope` check. */
  toolsFor: (tenant: string) => Pick<ToolRepository, 'get' | 'getByName'>
  /** The owner's workspace. */
  tenant: string
  clock: () => number
  /** Per-key limits; null turns them off (benchmarks, fuzzing). */
  limiter: RateLimiter | null
  /** A team server's accounts; absent on the desktop and `serve`. */
  accounts?: AccountAuth
  /** The store's hints of a request's next reads (PostgreSQL sends them together); absent: none. */
  readAhead?: Pick<ReadAhead, 'caller'>
}

/**
 * What the authenticator works with: its parts, and the requests already counted against the
 * rate (a route may authenticate more than once; it is still one request against the rate).
 */
interface AuthContext {
  deps: AuthDeps
  counted: WeakSet<object>
}

/** The caller's fields no credential sets by itself (fresh for each caller). */
const blankCaller = () => ({ endUser: null, clientId: null, toolScopes: [] })

/** Counts `request` once against the rate of `key` (429 `rate_limited` past it). */
function take(ctx: AuthContext, request: FastifyRequest, key: string): void {
  const { limiter } = ctx.deps
  if (!limiter || ctx.counted.has(request.raw)) return
  ctx.counted.add(request.raw)
  limiter.take(key)
}

/**
 * The caller of a team server account's owner token, in the workspace it names
 * (`X-Service-Workspace`) or its first: 401 for an expired token, 403 outside any workspace.
 */
function accountCaller(
  ctx: AuthContext,
  accounts: AccountAuth,
  request: FastifyRequest,
  token: string,
  endUser: string | null,
): Caller {
  const account = accounts.accountOf(token)
  if (!account)
    throw new ServiceError(
      'unauthorized',
      'The owner token expired (one hour) or is unknown: log in again at POST /v1/auth/login.',
    )
  if (endUser !== null) throw endUserRefused()
  const header = request.headers['x-service-workspace']
  const workspace =
    typeof header === 'string' && header ? header : accounts.defaultWorkspace(account.id)
  const role = workspace === null ? null : accounts.roleIn(workspace, account.id)
  if (workspace === null || role === null)
    throw new ServiceError(
      'forbidden',
      workspace === null
        ? 'This account is in no workspace: create one at POST /v1/workspaces.'
        : `This account is not a member of workspace ${workspace}: ask one of its owners.`,
    )
  take(ctx, request, `account:${account.id}`)
  return {
    ...blankCaller(),
    tenant: workspace,
    keyId: null,
    owner: false,
    via: 'account',
    accountId: account.id,
    role,
    scopes: ALL_API_SCOPES,
  }
}

/** The caller of an OAuth access token: 401 when expired, revoked or unknown. */
function oauthCaller(
  ctx: AuthContext,
  request: FastifyRequest,
  token: string,
  endUser: string | null,
): Caller {
  const access = ctx.deps.tokens.checkAccess(token)
  if (access.kind !== 'valid')
    throw new ServiceError(
      'unauthorized',
      access.kind === 'expired'
        ? 'The access token expired (one hour): refresh it at POST /oauth/token.'
        : access.kind === 'revoked'
          ? 'The access token was revoked: sign in again.'
          : 'Unknown access token.',
    )
  if (endUser !== null) throw endUserRefused()
  take(ctx, request, `oauth:${access.familyId}`)
  return {
    ...blankCaller(),
    tenant: access.tenant,
    keyId: null,
    owner: false,
    via: 'oauth',
    scopes: access.scopes,
    clientId: access.clientId,
  }
}

/**
 * The caller of an API key (an org key's end user in a workspace of its own): 401 unknown,
 * `revoked`, 403 for an end user of a key that is not an org key.
 */
function keyCaller(
  ctx: AuthContext,
  request: FastifyRequest,
  token: string,
  endUser: string | null,
): Caller {
  // Each end user of an org key has a workspace of its own (interface.md "Authentication" 2).
  const workspaceOf = (key: { tenant: string }) =>
    endUser === null ? key.tenant : `${key.tenant}::${endUser}`
  // A key this process found before (PostgreSQL): its read, its workspace's tools' revision
  // and the rate limit's statement go in one round trip. A refusal the read gives (unknown,
  // revoked) still comes before the rate limit's.
  const known = ctx.deps.keys.readAhead?.(token) ?? null
  let limited: unknown = null
  if (known && (endUser === null || known.kind === 'org')) {
    ctx.deps.readAhead?.caller(workspaceOf(known))
    try {
      take(ctx, request, `key:${known.id}`)
    } catch (error) {
      limited = error
    }
  }
  const record = ctx.deps.keys.findByKey(token)
  if (!record) throw new ServiceError('unauthorized', 'Unknown API key, or an expired owner token.')
  if (record.revokedAt !== null)
    throw new ServiceError('revoked', 'This API key was revoked: create a new one.')
  if (endUser !== null && record.kind !== 'org') throw endUserRefused()
  if (limited) throw limited
  const workspace = workspaceOf(record)
  if (!known) {
    // The workspace's tools' revision rides with the rate limit's statement (PostgreSQL).
    ctx.deps.readAhead?.caller(workspace)
    take(ctx, request, `key:${record.id}`)
  }
  ctx.deps.keys.touch(record.id, ctx.deps.clock())
  if (endUser !== null) ctx.deps.accounts?.endUserSeen(record.tenant, workspace, endUser)
  return {
    ...blankCaller(),
    tenant: workspace,
    keyId: record.id,
    owner: false,
    endUser,
    via: 'key',
    scopes: ALL_API_SCOPES,
  }
}

/** Who sent `request` (the bearer, or `?token=` when `allowQuery`); 401 without a credential. */
function identify(ctx: AuthContext, request: FastifyRequest, allowQuery: boolean): Caller {
  const { deps } = ctx
  const token = bearer(request, allowQuery)
  if (!token) throw new ServiceError('unauthorized', 'Send Authorization: Bearer <API key>.')
  const endUser = endUserOf(request)
  if (deps.owner.isValid(token)) {
    if (endUser !== null) throw endUserRefused()
    return {
      ...blankCaller(),
      tenant: deps.tenant,
      keyId: null,
      owner: true,
      via: 'owner',
      scopes: ALL_API_SCOPES,
    }
  }
  if (deps.accounts && token.startsWith(ACCOUNT_TOKEN_PREFIX))
    return accountCaller(ctx, deps.accounts, request, token, endUser)
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) return oauthCaller(ctx, request, token, endUser)
  return keyCaller(ctx, request, token, endUser)
}

/** `Authenticator.authenticate`: the caller, its OAuth scope and its tool scopes checked. */
function authenticate(ctx: AuthContext, request: FastifyRequest): Caller {
  const { deps } = ctx
  const caller = identify(ctx, request, false)
  const path = request.url.split('?')[0]!
  if (caller.via === 'oauth') {
    const needed = scopeForRoute(request.method, path)
    if (needed === null)
      throw new ServiceError(
        'forbidden',
        `${request.method} ${path} takes an API key, not an OAuth access token.`,
      )
    requireScope(caller, needed)
  }
  // MCP reads its scope from its own path and query.
  if (!path.startsWith('/mcp')) {
    caller.toolScopes = toolScopesOf(request, caller.tenant, deps.scopes)
    const tool = caller.toolScopes.length
      ? calledTool(request.method, path, deps.toolsFor(caller.tenant))
      : null
    if (tool) assertInScope(caller, tool)
  }
  return caller
}

/** Creates the authenticator over the key store, OAuth tokens and this process's owner tokens. */
export function createAuthenticator(deps: AuthDeps): Authenticator {
  const ctx: AuthContext = { deps, counted: new WeakSet<object>() }
  return {
    authenticate: (request) => authenticate(ctx, request),
    requireOwner(request) {
      const caller = identify(ctx, request, true)
      if (!caller.owner)
        throw new ServiceError('forbidden', 'Only the app itself may use this route.')
      return caller
    },
    requireManager(request) {
      const caller = identify(ctx, request, true)
      if (caller.owner) return caller
      if (caller.via === 'account' && (caller.role === 'owner' || caller.role === 'admin'))
        return caller
      throw new ServiceError(
        'forbidden',
        caller.via === 'account'
          ? "Only the workspace's owners and admins may manage its keys."
          : 'Only the app itself may use this route.',
      )
    },
  }
}

/**
 * Refuses a caller without an OAuth scope (interface.md "Authentication" 4 and "Account API status
 * meanings": 403 for a missing scope) with 403 `forbidden` naming it. API keys and the owner
 * token hold every scope. For routes that check inside (MCP tool calls need `tools:execute`).
 */
function requireScope(caller: Caller, scope: ApiScope): void {
  if (!caller.scopes.includes(scope))
    throw new ServiceError(
      'forbidden',
      `This token lacks the scope "${scope}": sign in again asking for it.`,
      { scope },
    )
}

/**
 * Refuses an org key's end user (`X-Service-End-User`) on a route that changes what the whole
 * workspace shares: end users call the org's tools; editing them takes the owner or a key that
 * acts as itself. 403 `forbidden` (interface.md "Auth and billing": no grant on the workspace).
 */
export function refuseEndUser(caller: Pick<Caller, 'endUser'>, what: string): void {
  if (caller.endUser !== null)
    throw new ServiceError(
      'forbidden',
      `An end user may call the workspace's tools but not ${what}: send this request without X-Service-End-User.`,
    )
}

/**
 * The tool scopes a REST request chose: the slug of `X-Service-Scope` or `?scope=` (404
 * `unknown_scope` when the workspace has no such scope) and an ad-hoc `?apps=a,b` (400
 * `invalid_scope` when empty or over 200 names).
 */
function toolScopesOf(request: FastifyRequest, tenant: string, lookup: ScopeLookup): ToolScope[] {
  return resolveToolScopes(
    [request.headers['x-service-scope'], ownValue(request.query, 'scope')].flat(),
    ownValue(request.query, 'apps'),
    tenant,
    lookup,
  )
}

/** The tool a surface A call or a B execute names in its path, when it exists. */
function calledTool(
  method: string,
  path: string,
  tools: ReturnType<AuthDeps['toolsFor']>,
): ScopedTool | null {
  if (method !== 'POST') return null
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s)
    } catch {
      // Malformed percent-encoding (a lone `%`): the text stands as written.
      return s
    }
  }
  const call = /^\/api\/v1\/sites\/([^/]+)\/call\/([^/]+)$/.exec(path)
  if (call) {
    const [site, id] = [decode(call[1]!), decode(call[2]!)]
    const tool = tools.getByName(site, id) ?? tools.get(id)
    // A tool of another site is the route's 404, not a scope question.
    return tool?.siteHost === site ? tool : null
  }
  const execute = /^\/v1\/tools\/([^/]+)\/execute$/.exec(path)
  return execute ? tools.get(decode(execute[1]!)) : null
}

function bearer(request: FastifyRequest, allowQuery: boolean): string | null {
  const header = request.headers.authorization
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null
  if (match) return match[1]!
  // EventSource cannot send headers: the UI's event stream carries the owner token in the query.
  const token = allowQuery ? ownValue(request.query, 'token') : undefined
  return typeof token === 'string' ? token : null
}

/** The `X-Service-End-User` header, or null; 400 `invalid_input` when blank or over 200. */
function endUserOf(request: FastifyRequest): string | null {
  const value = request.headers['x-service-end-user']
  if (value === undefined) return null
  if (typeof value !== 'string' || !value.trim() || value.length > MAX_END_USER)
    throw new ServiceError(
      'invalid_input',
      `X-Service-End-User takes 1 to ${MAX_END_USER} characters.`,
    )
  return value
}

function endUserRefused(): ServiceError {
  return new ServiceError(
    'forbidden',
    'X-Service-End-User needs an org key: this key acts only as its owner.',
  )
}
