import { randomUUID } from 'node:crypto'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import type { OrdersSite } from '../fixtures/sites/orders'

/**
 * The orders site's "create an order" write as the compiler makes it from a recorded order form:
 * a GET of /orders whose `<meta name="csrf-token">` feeds the `X-CSRF-Token` of `POST
 * /api/orders`, the session cookie from the saved login, `quantity` an integer and `shipping` one
 * of the form's three options.
 */
export function orderTool(site: OrdersSite): ToolSpec {
  const slot = (p: string, path: string, schema: object) => ({
    ...schema,
    'x-slot': p,
    'x-in': 'body' as const,
    'x-path': path,
  })
  return {
    id: randomUUID(),
    siteHost: site.host,
    name: 'orders__post_orders',
    capabilityId: `${site.host}/orders__post_orders`,
    intent: 'create an order',
    description: 'Creates an order on the orders site.',
    version: '2026.11.23',
    mutating: true,
    status: 'verified',
    inputs: {
      type: 'object',
      properties: {
        item: slot('p0', 'item', { type: 'string' }),
        quantity: slot('p1', 'quantity', { type: 'integer' }),
        shipping: slot('p2', 'shipping', {
          type: 'string',
          enum: ['standard', 'express', 'overnight'],
        }),
      },
      required: ['item', 'quantity', 'shipping'],
    },
    steps: [
      {
        id: 'd1',
        request: { method: 'GET', url: `${site.url}/orders`, headers: {}, body: null },
        extract: [{ name: 'csrf_token', from: 'meta', path: 'csrf-token' }],
      },
      {
        id: 'target',
        request: {
          method: 'POST',
          url: `${site.url}/api/orders`,
          headers: { 'content-type': 'application/json', 'x-csrf-token': '{{step.d1.csrf_token}}' },
          body: {
            kind: 'json',
            template: { item: '{{input.p0}}', quantity: '{{input.p1}}', shipping: '{{input.p2}}' },
          },
        },
        extract: [],
      },
    ],
    login: { cookies: ['parcel_session'], values: [] },
    output: { type: 'object' },
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'order', type: 'object' }],
    },
    via: 'http',
    evidence: {
      traceId: 'trc_orders',
      targetExchangeId: 'exc_2',
      exchangeIds: ['exc_1', 'exc_2'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
}

/**
 * Saves `orderTool` verified in the core's store and alice's session on the site as the
 * person's login (sealed in the vault, which must be open). Returns the tool.
 */
export async function saveOrderToolAndLogin(core: Core, site: OrdersSite): Promise<ToolSpec> {
  const tool = orderTool(site)
  core.store.tools.save(tool)
  const session = site.state.sessions.start('alice')
  await core.logins.save(LOCAL_TENANT, site.host, {
    cookies: [
      { name: 'parcel_session', value: session, domain: '127.0.0.1', path: '/', expires: -1 },
    ],
    origins: [],
  })
  return tool
}
