/**
 * The seed data of every Tryton instance, written through trytond's own JSON-RPC as the admin (the
 * calls sao makes): party categories, parties with addresses and contact mechanisms, and the
 * first-login "Module Configuration" wizard marked done so sao opens on its menu. Created in one
 * fixed order on a fresh database, so every record has the same id on every instance.
 */

/** The seeded user (trytond-admin's `admin`, its password from TRYTONPASSFILE). */
export const ADMIN = { name: 'admin', password: 'sitecall-tryton-1', email: 'admin@example.org' }

/** The database name: the first path segment of every RPC URL (`POST /tryton/`). */
export const DATABASE = 'tryton'

/** Categories, ids 1.. in this order. */
const CATEGORIES = ['Customer', 'Supplier', 'Prospect', 'Partner', 'Reseller']

/** One seeded party: its name, categories (by name), address and contact mechanisms. */
export interface SeedParty {
  name: string
  categories: string[]
  address: { street: string; postal_code: string; city: string }
  email: string
  phone?: string
}

/** Parties, ids 1.. (and codes "1".."n") in this order. */
export const PARTIES: SeedParty[] = [
  {
    name: 'Acme Corporation',
    categories: ['Customer'],
    address: { street: '1 Main Street', postal_code: '12345', city: 'Springfield' },
    email: 'info@acme.example',
    phone: '+1 555 0100',
  },
  {
    name: 'Globex Industries',
    categories: ['Supplier'],
    address: { street: '42 Harbour Road', postal_code: '90210', city: 'Cypress Creek' },
    email: 'sales@globex.example',
  },
  {
    name: 'Initech',
    categories: ['Customer'],
    address: { street: '4120 Freidrich Lane', postal_code: '78744', city: 'Austin' },
    email: 'contact@initech.example',
    phone: '+1 555 0199',
  },
  {
    name: 'Umbrella Trading',
    categories: ['Supplier', 'Partner'],
    address: { street: '9 Raccoon Avenue', postal_code: '60601', city: 'Raccoon City' },
    email: 'orders@umbrella.example',
  },
  {
    name: 'Stark Supplies',
    categories: ['Prospect'],
    address: { street: '200 Park Avenue', postal_code: '10166', city: 'New York' },
    email: 'hello@stark.example',
  },
  {
    name: 'Wayne Logistics',
    categories: ['Customer', 'Partner'],
    address: { street: '1007 Mountain Drive', postal_code: '53540', city: 'Gotham' },
    email: 'dispatch@wayne.example',
  },
  {
    name: 'Old Mill Bakery',
    categories: [],
    address: { street: '3 Mill Lane', postal_code: '11001', city: 'Riverton' },
    email: 'bread@oldmill.example',
  },
  {
    name: 'Hooli',
    categories: ['Prospect'],
    address: { street: '1 Hacker Way', postal_code: '94025', city: 'Palo Alto' },
    email: 'gavin@hooli.example',
  },
  {
    name: 'Vandelay Imports',
    categories: ['Supplier'],
    address: { street: '129 West 81st Street', postal_code: '10024', city: 'New York' },
    email: 'art@vandelay.example',
  },
  {
    name: 'Soylent Foods',
    categories: [],
    address: { street: '18 Green Street', postal_code: '30301', city: 'Atlanta' },
    email: 'info@soylent.example',
  },
  {
    name: 'Cyberdyne Systems',
    categories: ['Prospect'],
    address: { street: '18144 El Camino Real', postal_code: '94087', city: 'Sunnyvale' },
    email: 'info@cyberdyne.example',
  },
]

/** The id of the seeded party named `name` (ids follow {@link PARTIES}). */
export function partyId(name: string): number {
  const i = PARTIES.findIndex((p) => p.name === name)
  if (i < 0) throw new Error(`no seeded party ${name}`)
  return i + 1
}

/** The id of the seeded category named `name`. */
export function categoryId(name: string): number {
  const i = CATEGORIES.indexOf(name)
  if (i < 0) throw new Error(`no seeded category ${name}`)
  return i + 1
}

/** trytond's JSON-RPC answer: `result`, or `error` as a list (`[kind, message...]`). */
interface RpcAnswer<T> {
  id?: number
  result?: T
  error?: unknown
}

/**
 * Calls `method` with `params` on database {@link DATABASE} at `origin` (`POST /tryton/`), with the
 * `Authorization: Session ...` header `auth` when given; throws on an RPC error.
 */
export async function rpc<T = unknown>(
  origin: string,
  method: string,
  params: unknown[],
  auth?: string,
): Promise<T> {
  const res = await fetch(`${origin}/${DATABASE}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(auth ? { authorization: `Session ${auth}` } : {}),
    },
    body: JSON.stringify({ id: 0, method, params }),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} answered ${res.status}: ${text.slice(0, 300)}`)
  const answer = JSON.parse(text) as RpcAnswer<T>
  if (answer.error !== undefined && answer.error !== null)
    throw new Error(`${method} failed: ${JSON.stringify(answer.error).slice(0, 400)}`)
  return answer.result as T
}

/** Logs in with `common.db.login` and returns `[user id, session key]`. */
export function login(origin: string, user: { name: string; password: string }) {
  return rpc<[number, string]>(origin, 'common.db.login', [
    user.name,
    { password: user.password },
    'en',
  ])
}

/** The `Authorization: Session` value sao builds: base64 of `login:user_id:session`. */
export function sessionAuth(loginName: string, userId: number, session: string): string {
  return Buffer.from(`${loginName}:${userId}:${session}`).toString('base64')
}

/** Writes the seed through RPC on a fresh instance at `origin`. */
export async function seedTryton(origin: string): Promise<void> {
  const [uid, key] = await login(origin, ADMIN)
  const auth = sessionAuth(ADMIN.name, uid, key)
  const call = <T>(method: string, ...params: unknown[]) =>
    rpc<T>(origin, method, [...params, {}], auth)
  // The wizard sao opens on the admin's first login, answered once so every session starts
  // on the menu.
  const items = await call<number[]>('model.ir.module.config_wizard.item.search', [], 0, null, null)
  await call('model.ir.module.config_wizard.item.write', items, { state: 'done' })
  const cats = await call<number[]>(
    'model.party.category.create',
    CATEGORIES.map((name) => ({ name })),
  )
  if (cats.join() !== CATEGORIES.map((_, i) => i + 1).join())
    throw new Error(`the categories got ids ${cats.join()}`)
  for (const p of PARTIES) {
    const mechanisms: Array<Record<string, string>> = [{ type: 'email', value: p.email }]
    if (p.phone) mechanisms.push({ type: 'phone', value: p.phone })
    await call('model.party.party.create', [
      {
        name: p.name,
        categories: [['add', p.categories.map(categoryId)]],
        addresses: [['create', [p.address]]],
        contact_mechanisms: [['create', mechanisms]],
      },
    ])
  }
  await rpc(origin, 'common.db.logout', [], auth)
}
