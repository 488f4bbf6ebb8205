/**
 * The seed of a RabbitMQ instance: a definitions file the broker imports at boot
 * (`load_definitions`: users with fixed password hashes, vhosts, permissions, queues, exchanges,
 * bindings, policies), then a fixed list of messages published through the management API once
 * it answers. Every start looks the same: the same names, the same messages in the same order.
 */
import { createHash } from 'node:crypto'

/** The user the workflows sign in as: an administrator (every page of the UI). */
export const USER = { name: 'ops', password: 'Hop-Rabbit-2026' } as const

/** Every seeded user: name, tags (the UI's "Tags" column). All share one password. */
const USERS: Array<{ name: string; tags: string[] }> = [
  { name: USER.name, tags: ['administrator'] },
  { name: 'alice', tags: ['monitoring'] },
  { name: 'bob', tags: ['management'] },
  { name: 'carol', tags: [] },
  { name: 'dave', tags: ['policymaker'] },
  { name: 'etl', tags: [] },
  { name: 'frank', tags: [] },
]

/** The vhosts, `/` first (the broker's default). */
const VHOSTS = ['/', 'shop', 'analytics'] as const

/** One seeded queue: its vhost, name, and the messages published to it at start, in order. */
export interface SeedQueue {
  vhost: string
  name: string
  messages: string[]
}

/** `n` payloads `<prefix> #1` … `<prefix> #n`: each queue's messages say whose they are. */
function payloads(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix} #${i + 1}`)
}

/** The queues, grouped so that no workflow changes what another reads or writes. */
export const QUEUES: SeedQueue[] = [
  { vhost: '/', name: 'emails.outbound', messages: payloads('email to customer', 3) },
  { vhost: '/', name: 'emails.bounced', messages: payloads('bounced email', 1) },
  { vhost: '/', name: 'sms.outbound', messages: payloads('sms reminder', 2) },
  { vhost: '/', name: 'webhooks.pending', messages: payloads('webhook delivery', 4) },
  { vhost: '/', name: 'tmp.import-2024', messages: [] },
  { vhost: '/', name: 'tmp.export-2024', messages: [] },
  { vhost: '/', name: 'tmp.scratch', messages: [] },
  { vhost: 'shop', name: 'orders.created', messages: payloads('order created', 3) },
  { vhost: 'shop', name: 'orders.cancelled', messages: payloads('order cancelled', 1) },
  { vhost: 'shop', name: 'orders.shipped', messages: [] },
  { vhost: 'shop', name: 'payments.failed', messages: payloads('failed payment', 5) },
  { vhost: 'shop', name: 'payments.retry', messages: payloads('payment retry', 2) },
  { vhost: 'shop', name: 'inventory.sync', messages: payloads('stock update', 6) },
  { vhost: 'shop', name: 'returns.received', messages: [] },
  { vhost: 'shop', name: 'shipments.outbound', messages: [] },
  { vhost: 'analytics', name: 'events.raw', messages: payloads('page view', 8) },
  { vhost: 'analytics', name: 'events.enriched', messages: [] },
  { vhost: 'analytics', name: 'reports.daily', messages: payloads('daily report', 2) },
]

/** The seeded queue `name` in `vhost`; throws when there is none. */
export function seededQueue(name: string, vhost?: string): SeedQueue {
  const q = QUEUES.find((x) => x.name === name && (vhost === undefined || x.vhost === vhost))
  if (!q) throw new Error(`no seeded queue ${name}`)
  return q
}

/** A topic exchange of the shop vhost and the queue each routing key reaches. */
export interface SeedExchange {
  name: string
  /** Routing key (as published) → the queue it is bound to with that exact key. */
  routes: Record<string, string>
}

/** The shop's topic exchanges: routing key `order.<state>` to `orders.<state>`, and so on. */
const SHOP_EXCHANGES: SeedExchange[] = [
  {
    name: 'shop.orders',
    routes: {
      'order.created': 'orders.created',
      'order.cancelled': 'orders.cancelled',
      'order.shipped': 'orders.shipped',
    },
  },
  { name: 'shop.returns', routes: { 'return.requested': 'returns.received' } },
  { name: 'shop.shipping', routes: { 'shipment.dispatched': 'shipments.outbound' } },
]

/** The seeded shop exchange `name`; throws when there is none. */
export function shopExchange(name: string): SeedExchange {
  const x = SHOP_EXCHANGES.find((e) => e.name === name)
  if (!x) throw new Error(`no seeded exchange ${name} in shop`)
  return x
}

/**
 * A RabbitMQ `rabbit_password_hashing_sha256` hash: base64 of a 4-byte salt followed by
 * SHA-256(salt + password). The salt is fixed, so the definitions file is the same every start.
 */
function passwordHash(password: string, salt = Buffer.from([0x51, 0x7e, 0x2a, 0x90])): string {
  const digest = createHash('sha256')
    .update(Buffer.concat([salt, Buffer.from(password)]))
    .digest()
  return Buffer.concat([salt, digest]).toString('base64')
}

/** Every user's permissions (configure/write/read) per vhost; carol, etl and frank have none. */
const PERMISSIONS: Array<{ user: string; vhost: string }> = [
  ...VHOSTS.map((vhost) => ({ user: USER.name, vhost })),
  { user: 'alice', vhost: '/' },
  { user: 'bob', vhost: 'shop' },
  { user: 'dave', vhost: 'analytics' },
]

/** The definitions file the broker imports at boot (`load_definitions` in rabbitmq.conf). */
export function definitions(): unknown {
  const exchanges = [
    ...SHOP_EXCHANGES.map((x) => ({ vhost: 'shop', name: x.name, type: 'topic' })),
    { vhost: '/', name: 'notifications', type: 'fanout' },
    { vhost: 'analytics', name: 'events', type: 'direct' },
  ].map((x) => ({ ...x, durable: true, auto_delete: false, internal: false, arguments: {} }))
  const bindings = [
    ...SHOP_EXCHANGES.flatMap((x) =>
      Object.entries(x.routes).map(([key, queue]) => ({
        source: x.name,
        vhost: 'shop',
        destination: queue,
        routing_key: key,
      })),
    ),
    { source: 'notifications', vhost: '/', destination: 'emails.outbound', routing_key: '' },
    { source: 'notifications', vhost: '/', destination: 'sms.outbound', routing_key: '' },
    { source: 'events', vhost: 'analytics', destination: 'events.raw', routing_key: 'raw' },
  ].map((b) => ({ ...b, destination_type: 'queue', arguments: {} }))
  return {
    rabbit_version: '3.10.8',
    rabbitmq_version: '3.10.8',
    users: USERS.map((u) => ({
      name: u.name,
      password_hash: passwordHash(USER.password),
      hashing_algorithm: 'rabbit_password_hashing_sha256',
      tags: u.tags,
      limits: {},
    })),
    vhosts: VHOSTS.map((name) => ({ name })),
    permissions: PERMISSIONS.map((p) => ({ ...p, configure: '.*', write: '.*', read: '.*' })),
    topic_permissions: [],
    parameters: [],
    global_parameters: [{ name: 'cluster_name', value: 'sitecall-corpus' }],
    policies: [
      {
        vhost: 'shop',
        name: 'payments-cap',
        pattern: '^payments\\.',
        'apply-to': 'queues',
        definition: { 'max-length': 10000 },
        priority: 0,
      },
      {
        vhost: 'analytics',
        name: 'events-lazy',
        pattern: '^events\\.',
        'apply-to': 'queues',
        definition: { 'queue-mode': 'lazy' },
        priority: 0,
      },
    ],
    queues: QUEUES.map((q) => ({
      name: q.name,
      vhost: q.vhost,
      durable: true,
      auto_delete: false,
      arguments: {},
    })),
    exchanges,
    bindings,
  }
}

/** A fixed publish time for seeded messages (2026-01-05 09:00 UTC, seconds). */
export const SEED_TIMESTAMP = 1767603600
