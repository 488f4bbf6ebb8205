import type { StorageState } from '../../../src/shared/trace'

/**
 * The localStorage key the editor keeps its login in. Node-RED suffixes it with the editor's
 * path (`/` gives no suffix), and stores the whole `/auth/token` answer as JSON there.
 */
const TOKEN_KEY = 'auth-tokens'

/** The answer of `POST /auth/token`. */
export interface TokenAnswer {
  access_token: string
  expires_in: number
  token_type: string
}

/**
 * The editor's login request, `POST /auth/token`: a form body naming the editor as OAuth client
 * and the password grant.
 */
export function tokenRequest(user: { name: string; password: string }): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'node-red-editor',
      grant_type: 'password',
      scope: '',
      username: user.name,
      password: user.password,
    }),
  }
}

/**
 * Logs in as the editor does: `POST /auth/token` with a form body naming the editor as OAuth
 * client and the password grant. Throws when Node-RED refuses.
 */
export async function requestToken(
  origin: string,
  user: { name: string; password: string },
): Promise<TokenAnswer> {
  const res = await fetch(`${origin}/auth/token`, tokenRequest(user))
  if (!res.ok) throw new Error(`node-red refused the login of ${user.name} (${res.status})`)
  return (await res.json()) as TokenAnswer
}

/** What a signed-in editor holds: no cookies, the token answer in localStorage. */
export function storageStateFor(origin: string, token: TokenAnswer): StorageState {
  return {
    cookies: [],
    origins: [{ origin, localStorage: [{ name: TOKEN_KEY, value: JSON.stringify(token) }] }],
  }
}

/** The bearer token a session holds for `origin`, or null. */
export function bearerOf(session: StorageState | undefined, origin: string): string | null {
  const stored = session?.origins
    .find((o) => o.origin === origin)
    ?.localStorage.find((item) => item.name === TOKEN_KEY)?.value
  if (!stored) return null
  const parsed = JSON.parse(stored) as Partial<TokenAnswer>
  return parsed.access_token ?? null
}
