import { isApiScope, parseScopeParam, type ApiScope } from '../../../shared/apiScopes'
import type { OAuthClient, OAuthFamily, OAuthRepository } from '../../store/oauthRepository'
import { randomSecret, verifyS256 } from '../../surface/secrets'

/** interface.md "Limits": owner and access token life, one hour. */
const ACCESS_TOKEN_LIFE_MS = 60 * 60_000
/** interface.md "Limits": refresh token life, 30 days (each rotation starts a new 30 days). */
const REFRESH_TOKEN_LIFE_MS = 30 * 24 * 60 * 60_000
/** Prefixes tell our bearer values apart at a glance (and in leak scanners). */
export const ACCESS_TOKEN_PREFIX = 'svc_oat_'
const REFRESH_TOKEN_PREFIX = 'svc_ort_'

/** RFC 6749 §5.1 successful token response. */
interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  /** Seconds. */
  expires_in: number
  refresh_token: string
  scope: string
}

/** An RFC 6749 §5.2 error of the token endpoint: `{error, error_description}` with its status. */
export class OAuthError extends Error {
  override readonly name = 'OAuthError'
  constructor(
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unsupported_grant_type'
      | 'invalid_scope',
    message: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(message)
  }
}

/** What an access token presented as a bearer value stands for. */
type AccessCheck =
  | { kind: 'valid'; familyId: string; clientId: string; tenant: string; scopes: ApiScope[] }
  | { kind: 'expired' | 'revoked' | 'unknown' }

export interface TokenService {
  /**
   * The token endpoint (RFC 6749 §3.2, §4.1.3 and §6; OAuth 2.1): `authorization_code` with the
   * RFC 7636 `code_verifier`, or `refresh_token`. A refresh token works once: it is rotated, and
   * presenting a used one again revokes the whole grant (RFC 9700 §4.14.2). So does a code used
   * twice (RFC 6749 §4.1.2). Throws `OAuthError`.
   */
  exchange(form: Record<string, string>): TokenResponse
  /** Looks up a bearer value that is an access token (it starts with `svc_oat_`). */
  checkAccess(token: string): AccessCheck
}
/** What the token service works with: the OAuth repository and a clock (ms). */
interface TokenDeps {
  repo: OAuthRepository
  clock: () => number
}

/** A new access and refresh token of `family`, issued at `now` (ms). */
function issue(deps: TokenDeps, family: OAuthFamily, now: number): TokenResponse {
  const access = randomSecret(ACCESS_TOKEN_PREFIX)
  const refresh = randomSecret(REFRESH_TOKEN_PREFIX)
  deps.repo.createToken(access, {
    familyId: family.id,
    kind: 'access',
    createdAt: now,
    expiresAt: now + ACCESS_TOKEN_LIFE_MS,
  })
  deps.repo.createToken(refresh, {
    familyId: family.id,
    kind: 'refresh',
    createdAt: now,
    expiresAt: now + REFRESH_TOKEN_LIFE_MS,
  })
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_LIFE_MS / 1000,
    refresh_token: refresh,
    scope: family.scope,
  }
}

/** The registered client the form names; `invalid_client` otherwise. */
function clientOf(deps: TokenDeps, form: Record<string, string>): OAuthClient {
  const client = form.client_id ? deps.repo.getClient(form.client_id) : null
  if (!client)
    throw new OAuthError('invalid_client', 'Unknown client_id: register at POST /oauth/clients.')
  return client
}

/** The `authorization_code` grant with its PKCE verifier (a code used twice revokes the grant). */
function byCode(deps: TokenDeps, form: Record<string, string>): TokenResponse {
  const client = clientOf(deps, form)
  if (!form.code) throw new OAuthError('invalid_request', 'Send the authorization code.')
  if (!form.code_verifier)
    throw new OAuthError('invalid_request', 'Send the PKCE code_verifier (RFC 7636 §4.5).')
  const now = deps.clock()
  const code = deps.repo.findCode(form.code)
  const family = code ? deps.repo.getFamily(code.familyId) : null
  if (!code || !family || family.clientId !== client.id)
    throw new OAuthError('invalid_grant', 'Unknown authorization code.')
  if (code.usedAt !== null) {
    deps.repo.revokeFamily(family.id, now)
    throw new OAuthError(
      'invalid_grant',
      'This code was already used: the tokens it gave are revoked.',
    )
  }
  if (code.expiresAt <= now || family.revokedAt !== null)
    throw new OAuthError('invalid_grant', 'The authorization code expired: sign in again.')
  // OAuth 2.1 binds the code by PKCE; a redirect_uri that is sent must still be the same.
  if (form.redirect_uri !== undefined && form.redirect_uri !== code.redirectUri)
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request.')
  if (!verifyS256(form.code_verifier, code.codeChallenge))
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.')
  if (!deps.repo.useCode(form.code, now)) {
    deps.repo.revokeFamily(family.id, now)
    throw new OAuthError('invalid_grant', 'This code was already used.')
  }
  return issue(deps, family, now)
}

/** The `refresh_token` grant: the token is rotated, and a used one revokes the grant. */
function byRefresh(deps: TokenDeps, form: Record<string, string>): TokenResponse {
  const client = clientOf(deps, form)
  if (!form.refresh_token) throw new OAuthError('invalid_request', 'Send the refresh_token.')
  const now = deps.clock()
  const token = deps.repo.findToken(form.refresh_token)
  const family = token?.kind === 'refresh' ? deps.repo.getFamily(token.familyId) : null
  if (!token || !family || family.clientId !== client.id)
    throw new OAuthError('invalid_grant', 'Unknown refresh token.')
  if (family.revokedAt !== null)
    throw new OAuthError('invalid_grant', 'This grant was revoked: sign in again.')
  const reused = () => {
    // A rotated token came back: either the client or a thief holds a copy. End both.
    deps.repo.revokeFamily(family.id, now)
    return new OAuthError(
      'invalid_grant',
      'This refresh token was already used: the grant is revoked, sign in again.',
    )
  }
  if (token.usedAt !== null) throw reused()
  if (token.expiresAt <= now)
    throw new OAuthError('invalid_grant', 'The refresh token expired (30 days): sign in again.')
  if (form.scope !== undefined) {
    const asked = parseScopeParam(form.scope)
    const granted = new Set(family.scope.split(' '))
    if (!asked || !asked.every((s) => granted.has(s)))
      throw new OAuthError('invalid_scope', 'A refresh cannot add scopes to the grant.')
  }
  if (!deps.repo.useToken(form.refresh_token, now)) throw reused()
  return issue(deps, family, now)
}

/** What access token `value` stands for (see `TokenService.checkAccess`). */
function checkAccess(deps: TokenDeps, value: string): AccessCheck {
  const token = deps.repo.findToken(value)
  const family = token?.kind === 'access' ? deps.repo.getFamily(token.familyId) : null
  if (!token || !family) return { kind: 'unknown' }
  if (family.revokedAt !== null) return { kind: 'revoked' }
  if (token.expiresAt <= deps.clock()) return { kind: 'expired' }
  return {
    kind: 'valid',
    familyId: family.id,
    clientId: family.clientId,
    tenant: family.tenant,
    scopes: family.scope.split(' ').filter(isApiScope),
  }
}

/** Creates the token side of the OAuth server over its repository and a clock (ms). */
export function createTokenService(deps: TokenDeps): TokenService {
  return {
    exchange(form) {
      if (form.grant_type === 'authorization_code') return byCode(deps, form)
      if (form.grant_type === 'refresh_token') return byRefresh(deps, form)
      throw new OAuthError(
        'unsupported_grant_type',
        'grant_type takes authorization_code or refresh_token.',
      )
    },
    checkAccess: (value) => checkAccess(deps, value),
  }
}
