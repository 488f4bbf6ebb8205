import { ServiceError } from '../../../shared/errors'
import { parseScopeParam, type ApiScope } from '../../../shared/apiScopes'
import type { OAuthClient, OAuthRepository } from '../../store/oauthRepository'
import { isS256Challenge, randomSecret } from '../../surface/secrets'
import { ownValue } from '../../../shared/safeKeys'

/** RFC 6749 §4.1.2 recommends at most 10 minutes for a code; ours lives 5. */
const CODE_LIFE_MS = 5 * 60_000
/** How long a consent page may wait for the owner's Approve or Deny. */
const CONSENT_LIFE_MS = 10 * 60_000
/** Scope granted when the request names none (RFC 6749 §3.3 lets the server pick a default). */
const DEFAULT_SCOPES: ApiScope[] = ['tools:read']
const MAX_PENDING = 1000

/** A checked authorization request waiting for the owner on the consent page. */
export interface PendingConsent {
  id: string
  client: OAuthClient
  redirectUri: string
  codeChallenge: string
  scopes: ApiScope[]
  state: string | null
  expiresAt: number
}

/**
 * What to do with `GET /oauth/authorize`: show the consent page, send the browser back to the
 * client with an error (RFC 6749 §4.1.2.1), or refuse without redirecting (the client or its
 * redirect URI cannot be trusted).
 */
type AuthorizationCheck =
  | { kind: 'consent'; consent: PendingConsent }
  | { kind: 'redirect'; url: string }
  | { kind: 'refuse'; error: ServiceError }

export interface Authorizations {
  /** Checks an authorization request's query (RFC 6749 §4.1.1 with RFC 7636 §4.3). */
  check(query: unknown, issuer: string): AuthorizationCheck
  /** A consent still waiting, or null (unknown, decided or expired). */
  pending(id: string): PendingConsent | null
  /**
   * The owner's decision on a consent (single use): approve → redirect with a fresh `code`
   * (single use, 5 minutes) and `state`; deny → `error=access_denied`. Both carry `iss`
   * (RFC 9207). Errors: 400 `invalid_input` when the consent is unknown, decided or expired.
   */
  decide(id: string, approve: boolean, tenant: string, issuer: string): string
}

/** Creates the authorization-request side of the OAuth server; pending consents live in memory. */
export function createAuthorizations(deps: {
  repo: OAuthRepository
  clock: () => number
}): Authorizations {
  const { repo, clock } = deps
  const consents = new Map<string, PendingConsent>()

  const sweep = (now: number) => {
    for (const [id, c] of consents) if (c.expiresAt <= now) consents.delete(id)
    // Unanswered consents are cheap but unbounded: drop the oldest past the cap.
    while (consents.size >= MAX_PENDING) consents.delete(consents.keys().next().value!)
  }

  return {
    check(query, issuer) {
      const one = (name: string) => {
        const value = ownValue(query, name)
        return typeof value === 'string' ? value : undefined
      }
      const clientId = one('client_id')
      const client = clientId === undefined ? null : repo.getClient(clientId)
      if (!client)
        return refuse(
          `Unknown client_id${clientId ? ` "${clientId}"` : ''}: register at POST /oauth/clients.`,
        )
      const given = one('redirect_uri')
      // RFC 6749 §3.1.2.3: may be left out only when exactly one URI is registered.
      const redirectUri =
        given ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : null)
      if (!redirectUri || !client.redirectUris.includes(redirectUri))
        return refuse('redirect_uri must match one registered for this client exactly.')
      const state = one('state') ?? null
      const back = (error: string, description: string) => ({
        kind: 'redirect' as const,
        url: withParams(redirectUri, { error, error_description: description, state, iss: issuer }),
      })
      if (one('response_type') !== 'code')
        return back('unsupported_response_type', 'Only response_type=code is supported.')
      const challenge = one('code_challenge')
      if (!challenge) return back('invalid_request', 'PKCE is required: send code_challenge.')
      if (one('code_challenge_method') !== 'S256' || !isS256Challenge(challenge))
        return back('invalid_request', 'PKCE takes code_challenge_method=S256 only (RFC 7636).')
      const rawScope = one('scope')
      const scopes = rawScope === undefined ? DEFAULT_SCOPES : parseScopeParam(rawScope)
      if (!scopes || !scopes.length)
        return back('invalid_scope', 'Unknown scope: see scopes_supported in the metadata.')
      const now = clock()
      sweep(now)
      const consent: PendingConsent = {
        id: randomSecret(),
        client,
        redirectUri,
        codeChallenge: challenge,
        scopes,
        state,
        expiresAt: now + CONSENT_LIFE_MS,
      }
      consents.set(consent.id, consent)
      return { kind: 'consent', consent }
    },
    pending(id) {
      const consent = consents.get(id)
      return consent && consent.expiresAt > clock() ? consent : null
    },
    decide(id, approve, tenant, issuer) {
      const consent = consents.get(id)
      consents.delete(id)
      const now = clock()
      if (!consent || consent.expiresAt <= now)
        throw new ServiceError(
          'invalid_input',
          'This consent request is unknown, already answered or expired: start the sign-in again.',
        )
      const { redirectUri, state } = consent
      if (!approve)
        return withParams(redirectUri, {
          error: 'access_denied',
          error_description: 'The owner denied access.',
          state,
          iss: issuer,
        })
      const familyId = randomSecret('ogr_').slice(0, 28)
      repo.createFamily({
        id: familyId,
        clientId: consent.client.id,
        tenant,
        scope: consent.scopes.join(' '),
        createdAt: now,
      })
      const code = randomSecret()
      repo.createCode(code, {
        familyId,
        redirectUri,
        codeChallenge: consent.codeChallenge,
        expiresAt: now + CODE_LIFE_MS,
      })
      return withParams(redirectUri, { code, state, iss: issuer })
    },
  }
}

function refuse(message: string): AuthorizationCheck {
  return { kind: 'refuse', error: new ServiceError('invalid_input', message) }
}

/** Adds query parameters to a redirect URI, keeping the ones it has (RFC 6749 §3.1.2). */
function withParams(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri)
  for (const [name, value] of Object.entries(params))
    if (value !== null) url.searchParams.set(name, value)
  return url.toString()
}
