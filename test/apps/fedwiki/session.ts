/**
 * Signing in to Federated Wiki's friends security, as a person with curl would. The site is
 * claimed (seeded `status/owner.json`); its owner signs in by clicking the padlock in the footer
 * and pasting the site's reclaim code, which the client posts as the raw body of
 * `POST /auth/reclaim/` (a `text/plain` fetch). A good code answers 200 and sets the
 * client-sessions cookie `wikiSession` (httpOnly, seven days); a wrong one answers 401.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, setCookiesOf } from '../sessionFetch'

/** Posts the reclaim code and returns the cookies a browser would hold after. */
export async function signInByHttp(origin: string, code: string): Promise<StorageState> {
  const host = new URL(origin).hostname
  const res = await fetch(`${origin}/auth/reclaim/`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    body: code,
  })
  await res.arrayBuffer()
  const cookies = setCookiesOf(res.headers, host)
  if (res.status !== 200 || !cookies.some((c) => c.name === 'wikiSession'))
    throw new Error(`Federated Wiki refused the reclaim code (${res.status})`)
  const session: StorageState = { cookies, origins: [] }
  // The page says whether this browser is the owner; check it did sign in.
  const check = await fetch(`${origin}/view/welcome-visitors`, {
    headers: { cookie: cookieHeader(session) },
  })
  const html = await check.text()
  if (!html.includes(`var isOwner = ('true' === "true")`))
    throw new Error('Federated Wiki did not take the reclaim code as the owner')
  return session
}
