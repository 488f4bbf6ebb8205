import { randomBytes } from 'node:crypto'
import { createOrderBook } from './orderBook'
import type { OrderBook } from './orderBook'
import { createSessions } from './sessions'
import type { Sessions } from './sessions'
import { DEFAULT_USER } from './types'
import type { OrdersDemoOptions, OrdersSwitches, OrdersUser } from './types'

/** One request as the site received it (kept only with `recordRequests`). */
export interface OrdersRequestRecord {
  method: string
  /** Path below the prefix with its query string, e.g. '/api/orders?ts=1700000000000'. */
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The parsed body (object for JSON and forms, string for text), undefined when none. */
  body: unknown
}

/** Everything one orders site instance holds; tests read and switch it through the handle. */
export interface OrdersState {
  /** '' or e.g. '/demo/orders'. */
  readonly prefix: string
  readonly users: readonly OrdersUser[]
  readonly orders: OrderBook
  readonly sessions: Sessions
  /** Live fault switches: set a field, the next request sees it. */
  readonly switches: OrdersSwitches
  /** Signs the 'bot_check' challenge's seeds, so only a solved challenge clears (per instance). */
  readonly clearanceSecret: string
  /** Requests per path below the prefix, query excluded (e.g. '/api/orders' → 3). */
  readonly counts: Map<string, number>
  /** Every request in arrival order when `recordRequests` is on; else stays empty. */
  readonly requests: OrdersRequestRecord[]
  readonly recordRequests: boolean
  now(): number
  /** Ends pending slow answers when aborted. */
  readonly signal: AbortSignal | undefined
  /** How many requests reached `path` (below the prefix, no query); 0 when none. */
  requestCount(path: string): number
  /** Expires every session and bearer token now; the next page load redirects to /login. */
  expireSessions(): void
}

const DAY_MS = 86_400_000

/** Builds a fresh instance's state from the options (defaults: see OrdersDemoOptions). */
export function createOrdersState(options: OrdersDemoOptions = {}): OrdersState {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '')
  if (prefix && !prefix.startsWith('/')) throw new Error(`prefix must start with '/': ${prefix}`)
  const users = options.users ?? [DEFAULT_USER]
  const now = options.now ?? Date.now
  const counts = new Map<string, number>()
  const sessions = createSessions(options.sessionTtlMs ?? 30 * DAY_MS, now)
  return {
    prefix,
    users,
    orders: createOrderBook(
      users.map((u) => u.username),
      now,
    ),
    sessions,
    switches: { fault: null, delayMs: 0, retryAfterSeconds: 7 },
    clearanceSecret: randomBytes(16).toString('hex'),
    counts,
    requests: [],
    recordRequests: options.recordRequests ?? false,
    now,
    signal: options.signal,
    requestCount: (path) => counts.get(path) ?? 0,
    expireSessions: () => sessions.expireAll(),
  }
}
