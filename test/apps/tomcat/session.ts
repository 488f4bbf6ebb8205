/**
 * Signing in to Tomcat's Manager and sending requests by hand, as a person with curl would. Both
 * admin apps use HTTP Basic (realm "Tomcat Manager Application" / "Tomcat Host Manager
 * Application"): a browser that answered the prompt sends `Authorization: Basic` with every later
 * request. The HTML pages add a session (JSESSIONID, path `/manager` or `/host-manager`) that
 * holds the CSRF nonces the pages write into every form and link.
 */
import type { StorageState } from '../../../src/shared/trace'
import {
  basicAuthorization,
  fetchBasic,
  signInBasic as signInBasicAt,
  type BasicUser,
} from '../basicAuth'

export { basicAuthorization, fetchBasic }

/**
 * Checks the credentials with one `GET /manager/html` and returns what a browser holds after a
 * Basic login: no cookie, no localStorage (the Manager's session cookie belongs to one visit, and
 * its nonces die with it). Throws when Tomcat refuses them.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: '/manager/html', app: 'Tomcat' })
}

/** The query field the CSRF filter wants on every Manager / Host Manager HTML request. */
export const NONCE_FIELD = 'org.apache.catalina.filters.CSRF_NONCE'

/** A visit of an HTML admin page: its session cookie and a nonce it handed out. */
export interface Visit {
  cookie: string
  nonce: string
}

/** The nonce and session cookie a page's HTML and answer carry; throws when either is missing. */
export function visitOf(res: Response, html: string): Visit {
  const nonce = new RegExp(`${NONCE_FIELD.replace(/\./g, '\\.')}=([0-9A-F]+)`).exec(html)?.[1]
  const cookie = /JSESSIONID=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0]
  if (!nonce || !cookie) throw new Error('the page carried no CSRF nonce or no session cookie')
  return { cookie, nonce }
}
