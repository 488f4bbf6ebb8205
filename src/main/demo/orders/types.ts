// Shapes of the orders demo (docs/interface.md section B rule 3: the service's own synthetic orders
// page, served at /demo/orders and by the test fixture of the same name).

/** The shipping choices of the create form's <select>, in its order. */
export const SHIPPING = ['standard', 'express', 'overnight'] as const
export type Shipping = (typeof SHIPPING)[number]

/** One order as the API answers it (REST and GraphQL use the same fields). */
export interface Order {
  /** 'ord_1001', 'ord_1002', … in creation order, per site instance. */
  id: string
  item: string
  /** Integer 1..999. */
  quantity: number
  shipping: Shipping
  /** 'pending' for new orders; seeds are also 'shipped' and 'delivered'. */
  status: string
  /** ISO 8601 UTC. */
  createdAt: string
}

/** A person who can sign in. With `totpSecret` (Base32, ≥ 16 bytes) a TOTP code is asked too. */
export interface OrdersUser {
  username: string
  password: string
  totpSecret?: string
}

/**
 * Failure modes of /api/* and /graphql (and, for 'bot_check', of pages too):
 * 'unauthorized' 401 JSON, 'rate_limited' 429 JSON with Retry-After, 'html' a 200 sign-in wall
 * instead of JSON, 'server_error' 500 JSON, 'bot_check' a 403 JS challenge page (a browser
 * runs its script, gets the clearance cookie and passes; plain HTTP does not), 'drift' renamed
 * fields in every 2xx JSON answer.
 */
export type OrdersFault =
  'unauthorized' | 'rate_limited' | 'html' | 'server_error' | 'bot_check' | 'drift'

export const ORDERS_FAULTS: readonly OrdersFault[] = [
  'unauthorized',
  'rate_limited',
  'html',
  'server_error',
  'bot_check',
  'drift',
]

/** Live switches; a test sets a field and the next request sees it. */
export interface OrdersSwitches {
  /** null answers normally. */
  fault: OrdersFault | null
  /** Milliseconds every /api/* and /graphql answer waits first (the slow switch); 0 = none. */
  delayMs: number
  /** Seconds sent in Retry-After with 'rate_limited'; default 7; null sends no Retry-After. */
  retryAfterSeconds: number | null
}

export interface OrdersDemoOptions {
  /** Path the site lives under: '' (default) or e.g. '/demo/orders' (no trailing slash). */
  prefix?: string
  /** Default one user: alice / wonderland, no second factor. */
  users?: OrdersUser[]
  /** Session and bearer-token lifetime in ms; default 30 days. */
  sessionTtlMs?: number
  /** Clock in ms since the epoch (sessions, TOTP, createdAt); default Date.now. */
  now?: () => number
  /** Keep a log of every request (method, path, headers, body); default false (the app's demo). */
  recordRequests?: boolean
  /** Aborting it ends pending slow answers at once (the fixture aborts it on close). */
  signal?: AbortSignal
}

/** The demo's default person (docs/interface.md's demo is a page anyone may try). */
export const DEFAULT_USER: OrdersUser = { username: 'alice', password: 'wonderland' }
