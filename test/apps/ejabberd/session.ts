/**
 * Signing in to ejabberd's web admin and reading the server by hand, as a person with curl
 * would. The login is HTTP Basic only (realm "ejabberd"): the user name is the admin's whole
 * JID, and no cookie or token is ever set. The keys read the server's state through
 * `mod_http_api` on the instance's own loopback listener (see `seed.ts`), not through pages.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { fetchBasic, signInBasic as signInBasicAt, type BasicUser } from '../basicAuth'
import type { ApiCall } from './seed'
import { getText } from '../sessionFetch'

export { getText }

export { fetchBasic }

/** An ejabberd instance of this corpus: an {@link AppInstance} that can also call its JSON API. */
export interface EjabberdInstance extends AppInstance {
  api: ApiCall
}

/** The instance's API; throws when `app` is not an ejabberd instance. */
export function apiOf(app: AppInstance): ApiCall {
  const api = (app as Partial<EjabberdInstance>).api
  if (!api) throw new Error('the instance is not an ejabberd instance (no API)')
  return api
}

/**
 * Checks the credentials with one GET of web admin's home page and returns what a browser keeps
 * of the login: nothing (Basic lives in the browser's auth cache). Throws when ejabberd refuses.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: '/admin/', app: 'ejabberd web admin' })
}

/**
 * Posts a web admin form as the browser does (`application/x-www-form-urlencoded`, the fields
 * in order, the pressed button's name and label among them); throws unless ejabberd answered
 * 200 (web admin answers a post with the page itself, never a redirect). Returns the page.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
): Promise<string> {
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}`)
  return text
}
