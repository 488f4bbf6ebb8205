import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../../shared/errors'
import type { ApiScope } from '../../shared/apiScopes'
import type { MemberRole } from '../store/memberRules'
import { inScope, type ScopedTool, type ToolScope } from './toolsInScope'

/**
 * What the authenticator asks about a team server's accounts (`sitecall server` gives it; the
 * desktop and `serve` have none, so `svc_owner_…` tokens mean nothing there).
 */
export interface AccountAuth {
  /** The account of an unexpired account owner token, or null. */
  accountOf(token: string): { id: string } | null
  /** The workspace an account works in without `X-Service-Workspace`: its first one, or null. */
  defaultWorkspace(accountId: string): string | null
  /** The account's role in a workspace, or null when it is not a member. */
  roleIn(workspaceId: string, accountId: string): MemberRole | null
  /** Called on each org-key end user's requests: makes their workspace on first use. */
  endUserSeen(orgWorkspace: string, workspace: string, endUser: string): void
}

/** The prefix of a team server account's owner token. */
export const ACCOUNT_TOKEN_PREFIX = 'svc_owner_'

/** interface.md "Other time-bound states" and "Limits": an owner token expires after one hour. */
export const OWNER_TOKEN_LIFE_MS = 60 * 60_000
/**
 * Who made a request, as every surface sees it: REST routes, the MCP endpoint and the UI's HTTP
 * transport all take a caller from the one {@link Authenticator} (`api/auth.ts` makes it).
 */
export interface Caller {
  tenant: string
  /** The API key's id, or null for the owner and OAuth tokens. */
  keyId: string | null
  owner: boolean
  /** `X-Service-End-User` of an org key: the run's workspace is that end user's. */
  endUser: string | null
  /**
   * What the bearer value was: the owner token, an API key, an OAuth access token, or a team
   * server account's owner token (`svc_owner_…`, from registration or login).
   */
  via: 'owner' | 'key' | 'oauth' | 'account'
  /** The account of an account owner token, else null. */
  accountId?: string | null
  /** That account's role in the workspace it works in (`tenant`), else null. */
  role?: MemberRole | null
  /** OAuth scopes held: every scope for the owner and API keys, the approved ones for tokens. */
  scopes: readonly ApiScope[]
  /** The OAuth client of an access token, else null. */
  clientId: string | null
  /**
   * Tool scopes this request chose (`X-Service-Scope: <slug>`, `?scope=<slug>`, `?apps=a,b`):
   * a tool must be in every one of them; empty means unscoped.
   */
  toolScopes: ToolScope[]
}

export interface Authenticator {
  /**
   * Who is calling (interface.md "Authentication"): `Authorization: Bearer <svc_live_… key | OAuth
   * access token | owner token>`. Errors: 401 `unauthorized` for no, an unknown, an expired or a
   * revoked-by-reuse token; 403 `revoked` for a revoked key; 403 `forbidden` for
   * `X-Service-End-User` without an org key, or an OAuth token without the route's scope; 429
   * `rate_limited` past the key's rate; 404 `unknown_scope` / 400 `invalid_scope` for a bad tool
   * scope; 403 `not_in_scope` for a tool call outside it. A key of another workspace passes: the
   * routes read and write its own workspace's tools and traces only.
   */
  authenticate(request: FastifyRequest): Caller
  /** Like authenticate, but only the owner token (the UI's own routes). */
  requireOwner(request: FastifyRequest): Caller
  /**
   * Who may manage the workspace's keys: the owner token, or a team server account that is an
   * owner or admin of the workspace it works in. 403 `forbidden` for anyone else.
   */
  requireManager(request: FastifyRequest): Caller
}

/**
 * Refuses a tool outside the request's tool scopes (interface.md "Authentication" 5, "Request shape"):
 * 403 `not_in_scope`. An unscoped caller may use every tool of its workspace.
 */
export function assertInScope(caller: Pick<Caller, 'toolScopes'>, tool: ScopedTool): void {
  const outside = caller.toolScopes.find((scope) => !inScope(tool, scope))
  if (outside)
    throw new ServiceError(
      'not_in_scope',
      `${tool.name} is outside the tool scope ${outside.slug === null ? '"apps"' : `"${outside.slug}"`} of this connection.`,
    )
}
