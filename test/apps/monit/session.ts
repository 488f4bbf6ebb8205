/**
 * Signing in to Monit's web interface and using it by hand, as a person with curl would. The
 * login is HTTP Basic only (`allow user:password`): no session and no login cookie. Every page
 * Monit serves also sets a fresh `securitytoken` cookie (HttpOnly, SameSite=Strict, ten minutes)
 * and writes the same value into a hidden field of each of its forms; a POST passes when the field
 * equals the cookie it came with (a double-submit CSRF check: Monit keeps no list of tokens).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { fetchBasic, signInBasic as signInBasicAt, type BasicUser } from '../basicAuth'
import { getText } from '../sessionFetch'

export { getText }

export { fetchBasic }

/**
 * Checks the credentials with one request (the XML status) and returns what a browser keeps of
 * the login: nothing in cookies or localStorage, since Basic auth lives in the browser's auth
 * cache (what Sitecall saves for a Basic site is this empty state plus the name and password).
 * The `securitytoken` cookie that answer set is left out: it is a page's CSRF token, renewed by
 * every page and gone after ten minutes, not part of the login. Throws when Monit refuses.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: '/_status?format=xml', app: 'Monit' })
}

/**
 * Reads a page as the browser does before it posts one of its forms: returns the token of the
 * page's forms, after checking it is the `securitytoken` cookie the same answer set.
 */
export async function pageToken(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<string> {
  const res = await app.fetch(path, { session })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  const cookie = res.headers
    .getSetCookie()
    .map((line) => /^securitytoken=([^;]*)/.exec(line)?.[1])
    .find(Boolean)
  const field = /name='securitytoken' value='([0-9a-f]+)'/.exec(html)?.[1]
  if (!cookie || !field) throw new Error(`GET ${path} gave no securitytoken (cookie or form field)`)
  if (cookie !== field) throw new Error(`GET ${path}: the form's token is not the cookie's`)
  return field
}

/**
 * Posts a page's form as the browser does: the fields, plus the token as both the form's
 * `securitytoken` and the cookie of that name. Returns Monit's answer (body read).
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  token: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string; text: string }> {
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `securitytoken=${token}`,
    },
    body: new URLSearchParams({ securitytoken: token, ...fields }),
  })
  const text = await res.text()
  return { status: res.status, location: res.headers.get('location') ?? '', text }
}

/** One service as Monit's XML status (`/_status?format=xml`) describes it. */
export interface ServiceState {
  name: string
  /** Monit's service type number: 0 filesystem, 1 directory, 2 file, 3 process, 7 program... */
  type: number
  /** 0 not monitored, 1 monitored, 2 initializing. */
  monitor: number
  /** A bit per failed test; 0 when all passed. */
  status: number
  /** An action asked for and not done yet (0: none). */
  pendingAction: number
  /** A process: its pid while it runs, else null. */
  pid: number | null
  /** A program: its last output, else null. */
  output: string | null
}

const tag = (xml: string, name: string): string | null =>
  new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? null

/** Parses the services of Monit's XML status (flat enough for a few regular expressions). */
function parseStatusXml(xml: string): ServiceState[] {
  return [...xml.matchAll(/<service type="(\d+)">([\s\S]*?)<\/service>/g)].map((m) => {
    const body = m[2]!
    const pid = tag(body, 'pid')
    return {
      name: tag(body, 'name') ?? '',
      type: Number(m[1]),
      monitor: Number(tag(body, 'monitor')),
      status: Number(tag(body, 'status')),
      pendingAction: Number(tag(body, 'pendingaction')),
      pid: pid === null || Number(pid) <= 0 ? null : Number(pid),
      output: /<output><!\[CDATA\[([\s\S]*?)\]\]><\/output>/.exec(body)?.[1] ?? null,
    }
  })
}

/** Every service's state, read with the XML status (signed in with `session`). */
export async function readStates(
  fetchApp: AppInstance['fetch'],
  session: StorageState,
): Promise<ServiceState[]> {
  const res = await fetchApp('/_status?format=xml', { session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET /_status?format=xml answered ${res.status}`)
  return parseStatusXml(text)
}
