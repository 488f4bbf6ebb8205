import { randomBytes, timingSafeEqual } from 'node:crypto'

/** A signed-in person's server-side session (cookie login) or bearer token (SPA variant). */
interface Grant {
  username: string
  expiresAt: number
  /** The CSRF token of the last page load; null before any (cookie sessions only). */
  csrf: string | null
}

/** How long a password-checked login may wait for its one-time code, in ms. */
const PENDING_TTL_MS = 5 * 60_000

export interface Sessions {
  /** Starts a cookie session; returns its id (the cookie value). */
  start(username: string): string
  /** The username of a live session, or null (unknown, ended or expired). */
  user(sessionId: string | undefined): string | null
  end(sessionId: string | undefined): void
  /**
   * Issues a new CSRF token for the session and forgets the previous one: each page load
   * rotates it, so a tool must fetch a fresh one on each run.
   */
  issueCsrf(sessionId: string): string
  /** True when `token` is the session's current CSRF token (constant-time compare). */
  checkCsrf(sessionId: string | undefined, token: string | undefined): boolean
  /** Remembers a password-checked login awaiting its one-time code; returns its id. */
  startPending(username: string): string
  /** The username awaiting a code under that id, or null. */
  pendingUser(pendingId: string | undefined): string | null
  endPending(pendingId: string | undefined): void
  /** Issues a bearer token (the SPA variant keeps it in localStorage). */
  issueToken(username: string): string
  /** The username of a live bearer token, or null. */
  tokenUser(token: string | undefined): string | null
  /** Expires every session, pending login and bearer token now (the "expire sessions" switch). */
  expireAll(): void
}

const secret = () => randomBytes(24).toString('base64url')

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * In-memory sessions with a lifetime of `ttlMs` from sign-in, read against `now` (ms since the
 * epoch). Expired entries are dropped when met and on each sign-in, so the map stays small.
 */
export function createSessions(ttlMs: number, now: () => number): Sessions {
  const sessions = new Map<string, Grant>()
  const pending = new Map<string, Grant>()
  const tokens = new Map<string, Grant>()
  const live = (map: Map<string, Grant>, id: string | undefined): Grant | null => {
    const grant = id ? map.get(id) : undefined
    if (!grant || !id) return null
    if (grant.expiresAt > now()) return grant
    map.delete(id)
    return null
  }
  const prune = () => {
    for (const map of [sessions, pending, tokens])
      for (const [id, grant] of map) if (grant.expiresAt <= now()) map.delete(id)
  }
  const put = (map: Map<string, Grant>, username: string, ttl: number) => {
    prune()
    const id = secret()
    map.set(id, { username, expiresAt: now() + ttl, csrf: null })
    return id
  }

  return {
    start: (username) => put(sessions, username, ttlMs),
    user: (id) => live(sessions, id)?.username ?? null,
    end: (id) => void (id && sessions.delete(id)),
    issueCsrf(id) {
      const grant = live(sessions, id)
      if (!grant) throw new Error('issueCsrf needs a live session')
      grant.csrf = secret()
      return grant.csrf
    },
    checkCsrf(id, token) {
      const current = live(sessions, id)?.csrf
      return !!current && !!token && same(current, token)
    },
    startPending: (username) => put(pending, username, Math.min(PENDING_TTL_MS, ttlMs)),
    pendingUser: (id) => live(pending, id)?.username ?? null,
    endPending: (id) => void (id && pending.delete(id)),
    issueToken: (username) => put(tokens, username, ttlMs),
    tokenUser: (token) => live(tokens, token)?.username ?? null,
    expireAll() {
      sessions.clear()
      pending.clear()
      tokens.clear()
    },
  }
}
