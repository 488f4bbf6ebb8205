import { ALL_API_SCOPES } from '../../../shared/apiScopes'

/** Paths of the OAuth endpoints (interface.md "B": `POST /oauth/clients`). */
export const OAUTH_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  register: '/oauth/clients',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
} as const

/**
 * Authorization server metadata (RFC 8414 §2) for the issuer `base` (`http://127.0.0.1:PORT`,
 * the local service itself): public clients only (`none`), code flow with S256 PKCE, rotating
 * refresh tokens, and the `iss` parameter on every authorization response (RFC 9207).
 */
export function authorizationServerMetadata(base: string): Record<string, unknown> {
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    scopes_supported: ALL_API_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/openapi.json`,
  }
}
