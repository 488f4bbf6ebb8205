/**
 * HTTP Digest access authentication (RFC 7616, with RFC 2617's MD5 and `qop=auth`), as curl's
 * `--digest -u user:password` does it: the first request meets a `401` whose
 * `WWW-Authenticate: Digest realm=..., nonce=..., qop="auth"` gives the nonce, and each request
 * then carries `Authorization: Digest` with a response hash over the method and the URI. calibre's
 * content server asks for Digest when `--auth-mode digest` is given (its `srv/auth.py`).
 */
import { createHash, randomBytes } from 'node:crypto'
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

/** A user name and password for a Digest realm. */
export interface DigestUser {
  name: string
  password: string
}

/** The parameters of one `WWW-Authenticate: Digest` challenge. */
export interface DigestChallenge {
  realm: string
  nonce: string
  /** `auth` when the server offers it (RFC 7616 §3.3), else '' (RFC 2069 style). */
  qop: string
  opaque: string | null
  /** Only MD5 is spoken here; anything else throws when a header is built. */
  algorithm: string
}

/**
 * Parses a `WWW-Authenticate` value holding a Digest challenge; null when it is not Digest.
 * Values may be quoted (with `\` escapes) or bare tokens.
 */
function parseDigestChallenge(header: string | null): DigestChallenge | null {
  if (!header || !/^\s*Digest\s/i.test(header)) return null
  const params = new Map<string, string>()
  for (const m of header
    .replace(/^\s*Digest\s+/i, '')
    .matchAll(/(\w+)=("((?:[^"\\]|\\.)*)"|[^,\s]*)/g))
    params.set(m[1]!.toLowerCase(), m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[2]!)
  const nonce = params.get('nonce')
  if (!nonce) return null
  const qops = (params.get('qop') ?? '').split(',').map((q) => q.trim().toLowerCase())
  return {
    realm: params.get('realm') ?? '',
    nonce,
    qop: qops.includes('auth') ? 'auth' : '',
    opaque: params.get('opaque') ?? null,
    algorithm: params.get('algorithm') ?? 'MD5',
  }
}

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex')

/**
 * The `Authorization: Digest ...` value for `method` on `uri` (the request target as sent:
 * path and query), answering `challenge` with nonce count `nc` (1 for a fresh nonce). RFC 7616
 * §3.4.1: response = H(H(user:realm:password):nonce:nc:cnonce:qop:H(method:uri)). Throws for an
 * algorithm other than MD5.
 */
function digestAuthorization(
  user: DigestUser,
  challenge: DigestChallenge,
  method: string,
  uri: string,
  nc: number,
): string {
  if (challenge.algorithm.toUpperCase() !== 'MD5')
    throw new Error(`Digest algorithm ${challenge.algorithm} is not spoken here`)
  const ha1 = md5(`${user.name}:${challenge.realm}:${user.password}`)
  const ha2 = md5(`${method.toUpperCase()}:${uri}`)
  const count = nc.toString(16).padStart(8, '0')
  const cnonce = randomBytes(8).toString('hex')
  const response = challenge.qop
    ? md5(`${ha1}:${challenge.nonce}:${count}:${cnonce}:${challenge.qop}:${ha2}`)
    : md5(`${ha1}:${challenge.nonce}:${ha2}`)
  const parts = [
    `username="${user.name}"`,
    `realm="${challenge.realm}"`,
    `nonce="${challenge.nonce}"`,
    `uri="${uri}"`,
    `algorithm=MD5`,
    `response="${response}"`,
  ]
  if (challenge.qop) parts.push(`qop=${challenge.qop}`, `nc=${count}`, `cnonce="${cnonce}"`)
  if (challenge.opaque !== null) parts.push(`opaque="${challenge.opaque}"`)
  return `Digest ${parts.join(', ')}`
}

/**
 * A Digest client for one origin and user: keeps the last challenge and counts its uses, as a
 * browser's auth cache does. `fetch(path, init)` signs the request when `init.session` is given
 * (anonymous otherwise, as the app's other fetches are); on a `401` with a new challenge (first
 * use, or a stale nonce) it signs again once. The body must be re-sendable (a string, bytes or
 * URLSearchParams), since it may be sent twice. Redirects are not followed.
 */
export function digestClient(origin: string, user: DigestUser) {
  let challenge: DigestChallenge | null = null
  let nc = 0
  const send = (path: string, init: RequestInit & { session?: StorageState }) => {
    const headers = new Headers(init.headers)
    if (init.session && challenge && !headers.has('authorization')) {
      nc += 1
      headers.set(
        'authorization',
        digestAuthorization(user, challenge, init.method ?? 'GET', path, nc),
      )
    }
    return fetchWithSession(origin, path, { ...init, headers })
  }
  return async (
    path: string,
    init: RequestInit & { session?: StorageState } = {},
  ): Promise<Response> => {
    const first = await send(path, init)
    if (first.status !== 401 || !init.session) return first
    const fresh = parseDigestChallenge(first.headers.get('www-authenticate'))
    if (!fresh) return first
    await first.arrayBuffer()
    challenge = fresh
    nc = 0
    return send(path, init)
  }
}
