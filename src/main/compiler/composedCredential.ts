import type { StorageState } from '../../shared/trace'
import { safeJson } from '../../shared/safeJson'
import { jsonPathOf } from './valueSources'

/**
 * A credential the page builds from several values it keeps in one localStorage item: the
 * item's fields at `paths`, joined by `separator`, then base64-encoded (RFC 4648 §4). Tryton's
 * sao signs each call `Session base64(login:user_id:session)` from `sao_session_<db>`; the shape is
 * RFC 7617's Basic credentials (`user-id ":" password`, base64) built from storage.
 */
export interface ComposedStorageSource {
  origin: string
  key: string
  paths: string[]
  separator: string
  encoding: 'base64'
}

/** Joins tried between the decoded parts: RFC 7617's colon. */
const SEPARATORS = [':']
/** One part at least is this long: a session or token, not a name and a number that happen to match. */
const SECRET_LENGTH = 16
const PRINTABLE = /^[\x20-\x7e]+$/

/**
 * Where credential `token` (the text after an `Authorization` scheme, or a whole header value)
 * comes from when it is not kept as it is: base64 text whose decoded parts (split by a
 * separator) are each a field of one JSON localStorage item, one of them secret-length. Null
 * when the token is not base64 of printable text, has one part, or any part is not in one item.
 */
export function findComposedSource(
  token: string,
  state: StorageState | null,
): ComposedStorageSource | null {
  if (!state || !/^[A-Za-z0-9+/]{8,}={0,2}$/.test(token)) return null
  const decoded = Buffer.from(token, 'base64').toString('utf8')
  // Base64 that does not round-trip was not made by encoding this text.
  if (!PRINTABLE.test(decoded) || Buffer.from(decoded, 'utf8').toString('base64') !== token)
    return null
  for (const separator of SEPARATORS) {
    const parts = decoded.split(separator)
    if (parts.length < 2 || parts.some((p) => !p)) continue
    if (!parts.some((p) => p.length >= SECRET_LENGTH)) continue
    for (const origin of state.origins)
      for (const item of origin.localStorage) {
        const json = parseObject(item.value)
        if (!json) continue
        const paths = parts.map((part) => jsonPathOf(json, part))
        if (paths.every((p): p is string => !!p))
          return { origin: origin.origin, key: item.name, paths, separator, encoding: 'base64' }
      }
  }
  return null
}

function parseObject(text: string): object | null {
  if (!text.startsWith('{')) return null
  const json = safeJson(text)
  return json && typeof json === 'object' ? json : null
}
