import { ServiceError } from '../../../shared/errors'
import type { OAuthClient, OAuthRepository } from '../../store/oauthRepository'
import { randomSecret } from './secrets'

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

const MAX_REDIRECT_URIS = 10
const MAX_URI_LENGTH = 2000
const MAX_NAME_LENGTH = 200
const LOOPBACK_NAMES = new Set(['127.0.0.1', '[::1]', 'localhost'])

/**
 * Whether a redirect URI may be registered: absolute, no fragment (RFC 6749 §3.1.2), and either
 * https or http on a loopback address (OAuth 2.1 draft §8.4.2: native apps listen on loopback;
 * plain http anywhere else would carry codes in the clear).
 */
export function isAllowedRedirectUri(value: string): boolean {
  if (value.length > MAX_URI_LENGTH) return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.hash || value.includes('#') || url.username || url.password) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname)
}

/**
 * Registers a public client (RFC 7591 dynamic registration; spec "B" `POST /oauth/clients`).
 * Takes `{client_name?, redirect_uris}`; other metadata is ignored as §2 allows, and the answer
 * says what was registered: no secret, `token_endpoint_auth_method: "none"`, the code and
 * refresh grants. Errors: 400 `bad_request` when the body is not an object, 400 `invalid_input`
 * for missing or disallowed redirect URIs or a bad name.
 */
export function registerClient(
  repo: OAuthRepository,
  body: unknown,
  now: number,
): ClientInformation {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ServiceError('bad_request', 400, 'The body must be a JSON object of client metadata.')
  const { client_name: rawName, redirect_uris: uris } = body as Record<string, unknown>
  if (
    !Array.isArray(uris) ||
    uris.length === 0 ||
    uris.length > MAX_REDIRECT_URIS ||
    !uris.every((u): u is string => typeof u === 'string')
  )
    throw new ServiceError(
      'invalid_input',
      400,
      `"redirect_uris" takes 1 to ${MAX_REDIRECT_URIS} absolute URIs.`,
    )
  const refused = uris.filter((u) => !isAllowedRedirectUri(u))
  if (refused.length)
    throw new ServiceError(
      'invalid_input',
      400,
      `Redirect URIs must be https, or http on 127.0.0.1, [::1] or localhost, without a fragment: ${refused.join(', ')}.`,
    )
  if (
    rawName !== undefined &&
    (typeof rawName !== 'string' || !rawName.trim() || rawName.length > MAX_NAME_LENGTH)
  )
    throw new ServiceError(
      'invalid_input',
      400,
      `"client_name" takes 1 to ${MAX_NAME_LENGTH} characters.`,
    )
  const client: OAuthClient = {
    id: randomSecret('svc_client_').slice(0, 'svc_client_'.length + 24),
    name: typeof rawName === 'string' ? rawName.trim() : 'An unnamed client',
    redirectUris: [...new Set(uris)],
    createdAt: now,
  }
  repo.createClient(client)
  return clientInformation(client)
}

/** The RFC 7591 §3.2.1 view of a stored client. */
export function clientInformation(client: OAuthClient): ClientInformation {
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
