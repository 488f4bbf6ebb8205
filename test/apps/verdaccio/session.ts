import type { StorageState } from '../../../src/shared/trace'

/** The web UI's login answer: a JWT for the UI's own API. */
interface LoginAnswer {
  token: string
}

/**
 * Logs in as the web UI does: `POST /-/verdaccio/sec/login` with user name and password as JSON.
 * The answer's JWT is what the UI sends as `Authorization: Bearer`; the token of npm's adduser is
 * a different kind, and the UI's data API answers 404 to it.
 */
export async function webLogin(
  origin: string,
  user: { name: string; password: string },
): Promise<string> {
  const res = await fetch(`${origin}/-/verdaccio/sec/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.name, password: user.password }),
  })
  if (!res.ok) throw new Error(`Verdaccio refused the web login of ${user.name} (${res.status})`)
  return ((await res.json()) as LoginAnswer).token
}

/** What a signed-in browser holds: no cookie, the user name and the JWT in localStorage. */
export function storageStateFor(origin: string, userName: string, token: string): StorageState {
  return {
    cookies: [],
    origins: [
      {
        origin,
        localStorage: [
          { name: 'username', value: userName },
          { name: 'token', value: token },
        ],
      },
    ],
  }
}

/** The JWT a session holds for `origin`, or null. */
export function tokenOf(session: StorageState | undefined, origin: string): string | null {
  const entry = session?.origins.find((o) => o.origin === origin)
  return entry?.localStorage.find((item) => item.name === 'token')?.value ?? null
}
