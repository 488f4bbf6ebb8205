/**
 * The deterministic seed of DAViCal, put in through its own admin pages (the principal form and
 * a group's "Group Members" form, signed in as `admin`) right after a fresh database is built:
 * people, groups with members and resources. DAViCal numbers principals and collections from one
 * sequence (`dav_id_seq`, and each new person gets four collections), so the same posts in the
 * same order give the same ids on every start; keys still look ids up by name.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader } from '../sessionFetch'
import { csrfOf, postMultipart, signInByHttp } from './session'

/**
 * The administrator `create-database.sh` makes (principal 1, "DAViCal Administrator"), with the
 * password the start gives it; every workflow signs in as it.
 */
export const ADMIN = { name: 'admin', password: 'Cal-Admin-2026' }

/** Principal types, as the form's `type_id` names them. */
export const TYPE = { person: 1, resource: 2, group: 3 } as const

/** A principal of the seed: login name, full (display) name, email, type. */
export interface SeedPrincipal {
  username: string
  fullname: string
  email: string
  type: (typeof TYPE)[keyof typeof TYPE]
}

const person = (username: string, fullname: string): SeedPrincipal => ({
  username,
  fullname,
  email: `${username}@example.org`,
  type: TYPE.person,
})

/** Everyone the seed creates, in creation order. */
export const PRINCIPALS: SeedPrincipal[] = [
  person('alice', 'Alice Martin'),
  person('bob', 'Bob Stone'),
  person('carol', 'Carol Diaz'),
  person('dave', 'Dave Kim'),
  person('frank', 'Frank Ortiz'),
  person('grace', 'Grace Lee'),
  person('henry', 'Henry Moss'),
  person('irene', 'Irene Walsh'),
  person('kevin', 'Kevin Brown'),
  person('laura', 'Laura Chen'),
  person('mike', 'Mike Ross'),
  person('nina', 'Nina Patel'),
  person('oscar', 'Oscar Reed'),
  { username: 'sales', fullname: 'Sales Team', email: 'sales@example.org', type: TYPE.group },
  { username: 'support', fullname: 'Support Team', email: 'support@example.org', type: TYPE.group },
  { username: 'engineering', fullname: 'Engineering', email: 'eng@example.org', type: TYPE.group },
  { username: 'management', fullname: 'Management', email: 'mgmt@example.org', type: TYPE.group },
  {
    username: 'room-a',
    fullname: 'Meeting Room A',
    email: 'room-a@example.org',
    type: TYPE.resource,
  },
  {
    username: 'projector',
    fullname: 'Projector',
    email: 'projector@example.org',
    type: TYPE.resource,
  },
]

/** Group memberships of the seed: group username → member usernames. */
const MEMBERS: Record<string, string[]> = {
  sales: ['bob', 'carol'],
  support: ['irene', 'kevin'],
  engineering: ['laura', 'mike'],
  management: ['alice'],
}

/** A seeded person's password. */
const passwordOf = (username: string): string => `${username}-Pass-2026`

/** The create form's fields for `p` (what the "Create Principal" page posts). */
export function principalFields(
  p: { username: string; fullname: string; email: string; type: number },
  password: string,
  csrf: string,
): Array<[string, string]> {
  return [
    ['xxxxusername', p.username],
    ['newpass1', password],
    ['newpass2', password],
    ['fullname', p.fullname],
    ['email', p.email],
    ['locale', ''],
    ['date_format_type', 'E'],
    ['type_id', String(p.type)],
    ['is_admin', 'off'],
    ['user_active', 'off'],
    ['user_active', 'on'],
    ['_editor_action[editor_1]', 'insert'],
    ['submit', 'Create'],
    ['csrf_token', csrf],
  ]
}

/** The id of the principal a principal page shows (its hidden `principal_id`), or throws. */
function shownPrincipalId(html: string, what: string): string {
  const m = /value="(\d+)" name="principal_id"/.exec(html)
  if (!m) throw new Error(`DAViCal did not create ${what}: ${html.slice(0, 400)}`)
  return m[1]!
}

/** Creates the seed on a fresh instance at `origin`; throws on the first post that fails. */
export async function seedThroughUi(origin: string): Promise<void> {
  const session: StorageState = await signInByHttp(origin, ADMIN)
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${origin}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { cookie: cookieHeader(session) },
    })
  const createPath = '/admin.php?action=edit&t=principal'
  const csrf = csrfOf(await (await send(createPath)).text(), 'the Create Principal page')
  const ids = new Map<string, string>()
  for (const p of PRINCIPALS) {
    const { html } = await postMultipart(
      send,
      createPath,
      principalFields(p, passwordOf(p.username), csrf),
    )
    ids.set(p.username, shownPrincipalId(html, p.username))
  }
  for (const [group, members] of Object.entries(MEMBERS)) {
    const id = ids.get(group)!
    for (const member of members) {
      const { html } = await postMultipart(send, `/admin.php?action=edit&t=principal&id=${id}`, [
        ['csrf_token', csrf],
        ['id', id],
        ['member_id', ids.get(member)!],
        ['_editor_action[editor_2]', 'insert'],
        ['savegrouprow', 'Add'],
      ])
      if (!html.includes('Group Members')) throw new Error(`adding ${member} to ${group} failed`)
    }
  }
}
