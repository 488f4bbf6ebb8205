import type { OAuthClientBody } from '../../../shared/accountApiSchemas'
import { ServiceError } from '../../../shared/errors'
import type { OAuthClient, OAuthRepository } from '../../store/oauthRepository'
import { createRateLimiter, type RateLimits } from '../rateLimit'
import { randomSecret } from '../../surface/secrets'
import { safeUrl } from '../../../shared/safeJson'

/** What `POST /oauth/clients` answers (RFC 7591 §3.2.1). Times in seconds since the epoch. */
export interface ClientInformation {
  client_id: string
  client_id_issued_at: number
  client_name: string
  redirect_uris: string[]
  grant_types: string[]
  response_types: string[]
  token_endpoint_auth_method: 'none'
}

const MAX_URI_LENGTH = 2000
const LOOPBACK_NAMES = new Set(['127.0.0.1', '[::1]', 'localhost'])

/**
 * Limits of unauthenticated registration (docs/interface.md leaves them "not shown").
 * Every caller is on loopback, so one bucket serves them all: a person signing agents in
 * registers a few clients a day, a runaway loop thousands.
 */
export interface RegistrationLimits extends RateLimits {
  /** Registered clients kept at most; unused ones older than an hour make room first. */
  maxClients: number
}

const DEFAULT_REGISTRATION_LIMITS: RegistrationLimits = {
  perMinute: 10,
  burst: 30,
  maxClients: 500,
}

/** A client no grant was approved for within this long is an abandoned sign-in. */
const UNUSED_CLIENT_MS = 60 * 60_000

/** Registers clients within limits; see `createClientRegistrar`. */
export type ClientRegistrar = (body: OAuthClientBody) => ClientInformation

/**
 * `registerClient` behind a rate limit and a cap: past the rate 429
 * `rate_limited` with `retryAfterSeconds`; at `maxClients` the clients registered over an hour
 * ago without any approved grant are deleted, and when none can go, 429 `rate_limited` too
 * (space comes back as old sign-ins are abandoned).
 */
export function createClientRegistrar(
  repo: OAuthRepository,
  clock: () => number,
  limits: RegistrationLimits = DEFAULT_REGISTRATION_LIMITS,
): ClientRegistrar {
  const limiter = createRateLimiter(limits, clock)
  return (body) => {
    limiter.take('oauth-registration')
    if (repo.countClients() >= limits.maxClients) {
      repo.pruneUnusedClients(clock() - UNUSED_CLIENT_MS)
      if (repo.countClients() >= limits.maxClients)
        throw new ServiceError(
          'rate_limited',
          `${limits.maxClients} OAuth clients are registered, the most kept: retry in an hour, when unused ones are let go.`,
          { retryAfterSeconds: 3600 },
        )
    }
    return registerClient(repo, body, clock())
  }
}

/**
 * Whether a redirect URI may be registered: absolute, no fragment (RFC 6749 §3.1.2), and either
 * https or http on a loopback address (OAuth 2.1 draft §8.4.2: native apps listen on loopback;
 * plain http anywhere else would carry codes in the clear).
 */
export function isAllowedRedirectUri(value: string): boolean {
  if (value.length > MAX_URI_LENGTH) return false
  const url = safeUrl(value)
  if (!url) return false
  if (url.hash || value.includes('#') || url.username || url.password) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname)
}

/**
 * Registers a public client (RFC 7591 dynamic registration; interface.md "B" `POST /oauth/clients`) from
 * a body that passed `OAUTH_CLIENT_BODY_SCHEMA` (`{client_name?, redirect_uris}`; other metadata
 * is ignored as §2 allows). The answer says what was registered: no secret,
 * `token_endpoint_auth_method: "none"`, the code and refresh grants. Errors: 400 `invalid_input`
 * for a redirect URI that is not allowed (see `isAllowedRedirectUri`).
 */
export function registerClient(
  repo: OAuthRepository,
  body: OAuthClientBody,
  now: number,
): ClientInformation {
  const refused = body.redirect_uris.filter((u) => !isAllowedRedirectUri(u))
  if (refused.length)
    throw new ServiceError(
      'invalid_input',
      `Redirect URIs must be https, or http on 127.0.0.1, [::1] or localhost, without a fragment: ${refused.join(', ')}.`,
    )
  const client: OAuthClient = {
    id: randomSecret('svc_client_').slice(0, 'svc_client_'.length + 24),
    name: body.client_name?.trim() ?? 'An unnamed client',
    redirectUris: [...new Set(body.redirect_uris)],
    createdAt: now,
  }
  repo.createClient(client)
  return clientInformation(client)
}

/** The RFC 7591 §3.2.1 view of a stored client. */
function clientInformation(client: OAuthClient): ClientInformation {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
}
