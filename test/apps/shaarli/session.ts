/**
 * Signing in to Shaarli over plain HTTP, as a person with curl would: the login form's one-time
 * `token` comes with the PHP session cookie `shaarli` from `GET /login`, and a good login answers
 * 302 with `shaarli_staySignedIn` (the "Stay signed in" box, ticked by default) next to it.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/** The value of the first hidden `<input name="token">` of a Shaarli page, or null. */
export function pageToken(html: string): string | null {
  return /<input[^>]*name="token"[^>]*value="([0-9a-f]{40})"/.exec(html)?.[1] ?? null
}

/**
 * Logs in with the login form's fields (`login`, `password`, `longlastingsession`, `token`,
 * `returnurl`) and returns the cookies a browser would hold afterwards. Throws when Shaarli did
 * not sign the user in (it answers a wrong password with the login form again, status 200).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const form = await fetch(`${origin}/login`, { redirect: 'manual' })
  const token = pageToken(await form.text())
  if (!token) throw new Error(`the login page holds no token (${form.status})`)
  let cookies = setCookiesOf(form.headers, host)
  const res = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
    },
    body: new URLSearchParams({
      login: user.name,
      password: user.password,
      longlastingsession: 'on',
      token,
      returnurl: '',
    }),
  })
  await res.arrayBuffer()
  cookies = mergeCookies(cookies, setCookiesOf(res.headers, host))
  if (res.status !== 302 || !cookies.some((c) => c.name === 'shaarli_staySignedIn'))
    throw new Error(`Shaarli refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
