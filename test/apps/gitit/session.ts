/**
 * Signing in to Gitit over plain HTTP, as a person with curl would: the login form posts
 * `username`, `password`, `destination` (hidden, empty) and the button `login` to `/_login`;
 * a good login answers 303 and sets the `sid` cookie (a quoted number, Happstack's session id).
 * Gitit's forms carry no CSRF token: the sid cookie is the whole login.
 */
import type { StorageState } from '../../../src/shared/trace'
import { mergeCookies, setCookiesOf } from '../sessionFetch'

/** Logs in with the login form and returns the cookies a browser would hold after. */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const res = await fetch(`${origin}/_login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: user.name,
      password: user.password,
      destination: '',
      login: 'Login',
    }),
  })
  const html = await res.text()
  const cookies = mergeCookies([], setCookiesOf(res.headers, host))
  if (res.status !== 303 || !cookies.some((c) => c.name === 'sid') || !html.includes('Welcome'))
    throw new Error(`Gitit refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
