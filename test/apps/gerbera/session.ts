/**
 * Gerbera's session, as its web UI handles it: the server hands out a session id
 * (`req_type=auth&action=get_sid`), the UI keeps it in the cookie `SID` and sends it back in the
 * query of every call (`sid=`), never as a cookie the server reads. With accounts on, the login
 * is `action=get_token` then `action=login&username=&password=md5(token + password)`, which marks
 * that session signed in on the server.
 */
import { createHash } from 'node:crypto'
import type { StorageState } from '../../../src/shared/trace'

/** The one endpoint of the UI. */
export const INTERFACE = '/content/interface'

/** A JSON answer of the interface (`success`, and `error: {code, text}` when it failed). */
export type InterfaceAnswer = Record<string, unknown>

/**
 * Calls the interface with `params` and the session id, as the new UI does (JSON answers;
 * the old UI adds `return_type=xml`). Throws when the answer is not JSON.
 */
export async function callInterface(
  origin: string,
  sid: string | null,
  params: Record<string, string>,
): Promise<InterfaceAnswer> {
  const query = new URLSearchParams({ ...params, ...(sid ? { sid } : {}) })
  const res = await fetch(`${origin}${INTERFACE}?${query}`)
  const text = await res.text()
  try {
    return JSON.parse(text) as InterfaceAnswer
  } catch {
    throw new Error(`${INTERFACE}?${query} answered ${res.status}: ${text.slice(0, 200)}`)
  }
}

/** The session id a saved login holds (its `SID` cookie); throws when there is none. */
export function sidOf(session: StorageState): string {
  const sid = session.cookies.find((c) => c.name === 'SID')?.value
  if (!sid) throw new Error('the saved login holds no SID cookie')
  return decodeURIComponent(sid)
}

/**
 * Signs in over plain HTTP as the UI does (new session id, token, md5 login) and returns what
 * the browser would hold: the session id in the `SID` cookie (path `/`, set by the UI's script,
 * so neither HttpOnly nor Secure). Throws when Gerbera refuses the login.
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const fresh = await callInterface(origin, null, { req_type: 'auth', action: 'get_sid' })
  const sid = String(fresh['sid'] ?? '')
  if (!sid) throw new Error(`Gerbera gave no session id: ${JSON.stringify(fresh)}`)
  const token = await callInterface(origin, sid, { req_type: 'auth', action: 'get_token' })
  const password = createHash('md5')
    .update(String(token['token']) + user.password)
    .digest('hex')
  const login = await callInterface(origin, sid, {
    req_type: 'auth',
    action: 'login',
    username: user.name,
    password,
  })
  if (login['success'] !== true)
    throw new Error(`Gerbera refused the login of ${user.name}: ${JSON.stringify(login)}`)
  const host = new URL(origin).hostname
  return {
    cookies: [{ name: 'SID', value: sid, domain: host, path: '/', expires: -1 }],
    origins: [],
  }
}

/**
 * The fields the autoscan form's Set button sends (besides `req_type=autoscan`): a timed,
 * full, recursive scan every `interval` seconds of the folder `objectId` (hex path when
 * `fromFs`, database id otherwise), or `scan_mode=none` (no interval) to remove the autoscan.
 */
export function autoscanParams(
  objectId: string,
  fromFs: boolean,
  interval: number | null,
): Record<string, string> {
  const base = {
    req_type: 'autoscan',
    action: 'as_edit_save',
    object_id: objectId,
    from_fs: fromFs ? '1' : '0',
  }
  if (interval === null) return { ...base, scan_mode: 'none' }
  return {
    ...base,
    scan_mode: 'timed',
    scan_level: 'full',
    recursive: 'true',
    interval: String(interval),
  }
}
