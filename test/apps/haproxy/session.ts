/**
 * Signing in to HAProxy's stats page and reading it by hand, as a person with curl would. The page
 * is HTTP Basic only (`stats auth`): there is no session, no cookie, no token. A browser that has
 * answered the prompt once keeps the credentials for the realm and sends `Authorization: Basic`
 * with every later request; a saved login of such a site is an empty storage state plus the user
 * name and password (what Sitecall's `saveHttpAuth` keeps).
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
 * Checks the credentials with one request (`GET /;csv`, the smallest page of the stats URI) and
 * returns the storage state a browser holds afterwards: empty, since Basic auth leaves no cookie
 * or localStorage behind. Throws when HAProxy refuses them.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: '/;csv', app: 'HAProxy' })
}

/** One server line of the CSV export. */
export interface ServerRow {
  backend: string
  server: string
  /** `UP`, `DOWN`, `MAINT`, `DRAIN`, `no check`, `UP 1/3`... */
  status: string
  weight: string
  checkStatus: string
}

/** Parses HAProxy's CSV export (`/;csv`): one row per server (FRONTEND/BACKEND lines dropped). */
export function parseStatsCsv(csv: string): ServerRow[] {
  const lines = csv.split('\n').filter((l) => l.trim() !== '')
  const header = (lines.shift() ?? '').replace(/^#\s*/, '').split(',')
  const col = (name: string): number => header.indexOf(name)
  const at = { px: col('pxname'), sv: col('svname'), st: col('status'), w: col('weight') }
  const chk = col('check_status')
  return lines
    .map((line) => line.split(','))
    .filter((f) => f[at.sv] !== 'FRONTEND' && f[at.sv] !== 'BACKEND')
    .map((f) => ({
      backend: f[at.px] ?? '',
      server: f[at.sv] ?? '',
      status: f[at.st] ?? '',
      weight: f[at.w] ?? '',
      checkStatus: f[chk] ?? '',
    }))
}

/** Reads every server's line of the CSV export, signed in with `session`. */
export async function readServers(
  fetchApp: (path: string, init?: RequestInit & { session?: StorageState }) => Promise<Response>,
  session: StorageState,
): Promise<ServerRow[]> {
  const res = await fetchApp('/;csv', { session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET /;csv answered ${res.status}`)
  return parseStatsCsv(text)
}
