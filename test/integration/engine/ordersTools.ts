import { randomUUID } from 'node:crypto'
import type { JsonSchema, SlotSchema, ToolSpec, VerifyRule } from '../../../src/shared/toolSpec'
import type { StorageState } from '../../../src/shared/trace'
import { DEFAULT_USER, TOKEN_KEY, type OrdersSite } from '../../fixtures/sites/orders'

/**
 * Tools of the orders fixture's bearer-token API (`/api/spa/orders`), written out as the compiler
 * would emit them, so engine tests choose exactly the request they send. Each carries the login
 * binding that takes the token the SPA keeps in localStorage (`TOKEN_KEY`, JSON `{token}`).
 */
export interface OrdersToolOptions {
  name: string
  method: string
  /** Path and query below the site, may hold `{{input.p0}}`. */
  path: string
  mutating?: boolean
  status?: ToolSpec['status']
  inputs?: Record<string, SlotSchema>
  body?: unknown
  verify?: Partial<VerifyRule>
  /** Overrides the URL (e.g. one outside the site); default `${site.url}${path}`. */
  url?: string
  siteHost?: string
}

/** A ToolSpec of the orders site's bearer API; `id` is a fresh UUID. */
export function ordersTool(site: OrdersSite, o: OrdersToolOptions): ToolSpec {
  const siteHost = o.siteHost ?? site.host
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: 'Bearer {{login.token}}',
  }
  if (o.body !== undefined) headers['content-type'] = 'application/json'
  return {
    id: randomUUID(),
    siteHost,
    name: o.name,
    capabilityId: `${siteHost}/${o.name}`,
    intent: o.name,
    description: o.name,
    version: '2026.1.1',
    mutating: o.mutating ?? false,
    status: o.status ?? 'verified',
    inputs: { type: 'object', properties: o.inputs ?? {}, required: [] },
    steps: [
      {
        id: 'target',
        request: {
          method: o.method,
          url: o.url ?? `${site.url}${o.path}`,
          headers,
          body: o.body === undefined ? null : { kind: 'json', template: o.body },
        },
        extract: [],
      },
    ],
    login: {
      cookies: [],
      values: [
        { name: 'token', from: 'localStorage', origin: site.url, key: TOKEN_KEY, path: 'token' },
      ],
    },
    output: { type: 'object' } as JsonSchema,
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'orders', type: 'array' }],
      ...o.verify,
    },
    via: 'http',
    evidence: {
      traceId: 'trc_handwritten',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
}

/** `GET /api/spa/orders`: the signed-in person's orders (a read). */
export const listOrdersTool = (site: OrdersSite, status: ToolSpec['status'] = 'verified') =>
  ordersTool(site, {
    name: 'orders__get_orders',
    method: 'GET',
    path: '/api/spa/orders',
    status,
  })

/** `POST /api/spa/orders` with `{item, quantity, shipping}` (a write). */
export const createOrderTool = (site: OrdersSite) =>
  ordersTool(site, {
    name: 'orders__create_order',
    method: 'POST',
    path: '/api/spa/orders',
    mutating: true,
    inputs: {
      item: { type: 'string', 'x-slot': 'p0', 'x-in': 'body', 'x-path': 'item' },
    },
    body: { item: '{{input.p0}}', quantity: 1, shipping: 'standard' },
    verify: { status: [200, 299], required: [{ path: 'order.id', type: 'string' }] },
  })

/**
 * Signs in to the site's token API as the default person and returns the storage state the SPA
 * would leave (its localStorage token), ready for `store.logins.save`.
 */
export async function bearerLogin(site: OrdersSite): Promise<StorageState> {
  const res = await fetch(`${site.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DEFAULT_USER.username, password: DEFAULT_USER.password }),
  })
  const { token } = (await res.json()) as { token?: string }
  if (!token) throw new Error(`The orders site gave no token (HTTP ${res.status}).`)
  return {
    cookies: [],
    origins: [
      { origin: site.url, localStorage: [{ name: TOKEN_KEY, value: JSON.stringify({ token }) }] },
    ],
  }
}

/** The site's requests of `method` to `path` (query excluded), in arrival order. */
export const requestsTo = (site: OrdersSite, method: string, path: string) =>
  site.state.requests.filter((r) => r.method === method && r.path.split('?')[0] === path)
