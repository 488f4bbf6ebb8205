/**
 * Signing in to MailDev's web UI and sending it requests by hand, as a person with curl would.
 * MailDev 3's only web login is HTTP Basic (`--web-user`/`--web-pass`): every path but
 * `/api/healthz` answers `401` with `WWW-Authenticate: Basic realm="MailDev"` without it. There
 * is no session, cookie or token: a saved login of the site is an empty storage state plus the
 * user name and password.
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
 * Checks the credentials with one request (`GET /api/config`, the smallest answer behind the
 * login) and returns the storage state a browser holds afterwards: empty, since Basic auth leaves
 * no cookie or localStorage behind. Throws when MailDev refuses them.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: '/api/config', app: 'MailDev' })
}
