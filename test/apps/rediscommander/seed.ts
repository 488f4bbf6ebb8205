/**
 * The seed of a Redis Commander instance: fixed keys written into a fresh, empty Redis (no RDB,
 * no AOF) over its unix socket before Redis Commander starts, so every start shows the same tree.
 *
 * Keys come in sets of three, one set per workflow that reads or changes a key: the person's
 * record, then the two the working-tools check uses instead. No workflow touches another's set.
 */
import { createConnection } from 'node:net'

/** A string key. */
interface SeedString {
  type: 'string'
  key: string
  value: string
}
/** A hash key, its fields in order. */
interface SeedHash {
  type: 'hash'
  key: string
  fields: Array<[string, string]>
}
/** A list key, head first (as LRANGE 0 -1 gives it). */
interface SeedList {
  type: 'list'
  key: string
  items: string[]
}
/** A set key. */
interface SeedSet {
  type: 'set'
  key: string
  members: string[]
}
/** A sorted set key: member and score. */
interface SeedZSet {
  type: 'zset'
  key: string
  members: Array<[string, number]>
}
export type SeedKey = SeedString | SeedHash | SeedList | SeedSet | SeedZSet

/** Customers read by `view_key` (hashes under `user:`). */
const USERS: SeedHash[] = [
  {
    type: 'hash',
    key: 'user:1001',
    fields: [
      ['name', 'Ada Lovelace'],
      ['email', 'ada@example.com'],
      ['plan', 'pro'],
    ],
  },
  {
    type: 'hash',
    key: 'user:1002',
    fields: [
      ['name', 'Grace Hopper'],
      ['email', 'grace@example.com'],
      ['plan', 'team'],
    ],
  },
  {
    type: 'hash',
    key: 'user:1003',
    fields: [
      ['name', 'Alan Turing'],
      ['email', 'alan@example.com'],
      ['plan', 'free'],
    ],
  },
]

/** Products whose `price` field `edit_hash_field` changes (hashes under `product:`). */
const PRODUCTS: SeedHash[] = [
  {
    type: 'hash',
    key: 'product:p100',
    fields: [
      ['title', 'Espresso beans 1 kg'],
      ['price', '24.90'],
      ['stock', '40'],
    ],
  },
  {
    type: 'hash',
    key: 'product:p200',
    fields: [
      ['title', 'Milk frother'],
      ['price', '59.00'],
      ['stock', '12'],
    ],
  },
  {
    type: 'hash',
    key: 'product:p300',
    fields: [
      ['title', 'Ceramic cup set'],
      ['price', '18.50'],
      ['stock', '25'],
    ],
  },
]

/** Orders: the keys `search_keys` finds with `order:*` (strings holding JSON). */
const ORDERS: SeedString[] = [
  { type: 'string', key: 'order:5001', value: '{"user":1001,"total":49.80,"status":"paid"}' },
  { type: 'string', key: 'order:5002', value: '{"user":1002,"total":59.00,"status":"shipped"}' },
  { type: 'string', key: 'order:5003', value: '{"user":1001,"total":18.50,"status":"open"}' },
]

/** Queues (lists) `add_list_value` pushes to. */
const QUEUES: SeedList[] = [
  { type: 'list', key: 'queue:emails', items: ['welcome:1001', 'receipt:5001'] },
  { type: 'list', key: 'queue:sms', items: ['otp:1002'] },
  { type: 'list', key: 'queue:push', items: ['promo:spring', 'promo:summer'] },
]

/** Sessions (strings) `set_ttl` gives an expiry; none expires at start. */
const SESSIONS: SeedString[] = [
  { type: 'string', key: 'session:abc', value: 'user=1001;cart=3' },
  { type: 'string', key: 'session:def', value: 'user=1002;cart=0' },
  { type: 'string', key: 'session:ghi', value: 'user=1003;cart=1' },
]

/** Draft reports `rename_key` renames (strings under `draft:`). */
const DRAFTS: SeedString[] = [
  { type: 'string', key: 'draft:q1-report', value: 'Q1 revenue 120k, 3 new stores' },
  { type: 'string', key: 'draft:q2-report', value: 'Q2 revenue 134k, 1 new store' },
  { type: 'string', key: 'draft:q3-report', value: 'Q3 revenue 128k, no new stores' },
]

/** Cached pages `delete_key` deletes (strings under `cache:`). */
const CACHES: SeedString[] = [
  { type: 'string', key: 'cache:homepage', value: '<h1>Welcome to the shop</h1>' },
  { type: 'string', key: 'cache:pricing', value: '<h1>Pricing</h1>' },
  { type: 'string', key: 'cache:faq', value: '<h1>Questions</h1>' },
]

/** Keys no workflow touches: the tree and the server info show them. */
const OTHERS: SeedKey[] = [
  { type: 'string', key: 'config:currency', value: 'EUR' },
  { type: 'string', key: 'config:maintenance', value: 'off' },
  {
    type: 'zset',
    key: 'leaderboard',
    members: [
      ['alice', 320],
      ['bob', 275],
      ['carol', 410],
    ],
  },
  { type: 'set', key: 'tags:featured', members: ['coffee', 'cups', 'gifts'] },
]

/** Every seeded key. */
export const SEED: SeedKey[] = [
  ...USERS,
  ...PRODUCTS,
  ...ORDERS,
  ...QUEUES,
  ...SESSIONS,
  ...DRAFTS,
  ...CACHES,
  ...OTHERS,
]

/** The seeded key `key`; throws when there is none. */
export function seeded(key: string): SeedKey {
  const found = SEED.find((k) => k.key === key)
  if (!found) throw new Error(`no seeded key ${key}`)
  return found
}

/** The seeded hash `key`'s field `field`; throws when there is none. */
export function seededField(key: string, field: string): string {
  const k = seeded(key)
  const value = k.type === 'hash' ? k.fields.find(([f]) => f === field)?.[1] : undefined
  if (value === undefined) throw new Error(`the seeded key ${key} has no field ${field}`)
  return value
}

/** The Redis command (as argument strings) that writes `k`. */
function commandOf(k: SeedKey): string[] {
  switch (k.type) {
    case 'string':
      return ['SET', k.key, k.value]
    case 'hash':
      return ['HSET', k.key, ...k.fields.flat()]
    case 'list':
      return ['RPUSH', k.key, ...k.items]
    case 'set':
      return ['SADD', k.key, ...k.members]
    case 'zset':
      return ['ZADD', k.key, ...k.members.flatMap(([m, s]) => [String(s), m])]
  }
}

/** One command as a RESP array of bulk strings (the Redis protocol, RESP2). */
function resp(args: string[]): string {
  const parts = args.map((a) => `$${Buffer.byteLength(a, 'utf8')}\r\n${a}\r\n`)
  return `*${args.length}\r\n${parts.join('')}`
}

/**
 * Writes the whole seed into the Redis listening on the unix socket `socket`: `FLUSHALL`, then one
 * command per key, pipelined on one connection, then `DBSIZE`. Resolves with the key count Redis
 * reports; rejects on any error reply (a line starting with `-`) or a socket error, or after 10 s.
 */
export function writeSeed(socket: string): Promise<number> {
  const commands = [['FLUSHALL'], ...SEED.map(commandOf), ['DBSIZE']]
  return new Promise((resolve, reject) => {
    const conn = createConnection({ path: socket })
    let answer = ''
    const timer = setTimeout(() => {
      conn.destroy()
      reject(new Error(`the seed got no full answer from Redis: ${answer.slice(0, 200)}`))
    }, 10_000)
    conn.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    conn.on('data', (chunk) => {
      answer += chunk.toString('utf8')
      // Every reply here is one line: +OK, :<n>. The last one is DBSIZE's.
      const lines = answer.split('\r\n').filter(Boolean)
      const error = lines.find((l) => l.startsWith('-'))
      if (error || lines.length >= commands.length) {
        clearTimeout(timer)
        conn.end()
        if (error) reject(new Error(`Redis refused the seed: ${error}`))
        else resolve(Number(lines[commands.length - 1]!.slice(1)))
      }
    })
    conn.write(commands.map(resp).join(''))
  })
}
