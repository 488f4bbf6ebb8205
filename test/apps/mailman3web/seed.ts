/**
 * The deterministic seed of the Mailman suite: mail domains, mailing lists and their members,
 * put into Mailman core through its REST API (`/3.1/...`, HTTP Basic as the instance's REST
 * admin) before the web UI starts; the web UI's own superuser is made by `manage.py
 * createsuperuser` (see `server.ts`). Lists and members are named, never numbered, so nothing
 * depends on ids handed out in order.
 */

/** The Django superuser every workflow signs in as (Postorius shows them every list). */
export const ADMIN = {
  name: 'listadmin',
  email: 'listadmin@example.org',
  password: 'Sitecall-Lists-2026',
}

/** Core's REST admin (`[webservice] admin_user/admin_pass` of the instance's mailman.cfg). */
export const CORE_API = { user: 'sitecall', password: 'sitecall-rest-secret' }

/** The mail domain every seeded list lives on. */
export const DOMAIN = 'lists.example.org'

/** Mail domains: [mail host, description]. */
const DOMAINS: Array<[string, string]> = [
  [DOMAIN, 'Example Org mailing lists'],
  ['lists.example.net', 'Example Net community lists'],
]

/** Lists on {@link DOMAIN}: [list name, description]. */
const LISTS: Array<[string, string]> = [
  ['team', 'The whole team'],
  ['announce', 'Announcements for everyone'],
  ['garden', 'Community garden volunteers'],
  ['old-project', 'The project that ended in 2024'],
  ['retired-team', 'The old support team'],
  ['spring-fair', 'Spring fair helpers (2025)'],
]

/** Members: [list name, address, display name]. */
const MEMBERS: Array<[string, string, string]> = [
  ['team', 'alice.berger@example.com', 'Alice Berger'],
  ['team', 'bruno.costa@example.com', 'Bruno Costa'],
  ['team', 'carol.diaz@example.com', 'Carol Diaz'],
  ['team', 'dan.evans@example.com', 'Dan Evans'],
  ['team', 'erin.fox@example.com', 'Erin Fox'],
  ['team', 'farid.gupta@example.com', 'Farid Gupta'],
  ['team', 'gloria.hahn@example.com', 'Gloria Hahn'],
  ['announce', 'ines.jensen@example.com', 'Ines Jensen'],
  ['announce', 'jonas.klein@example.com', 'Jonas Klein'],
  ['announce', 'alice.berger@example.com', 'Alice Berger'],
  ['garden', 'kemal.lund@example.com', 'Kemal Lund'],
  ['garden', 'lena.moreau@example.com', 'Lena Moreau'],
  ['old-project', 'mira.novak@example.com', 'Mira Novak'],
]

/** The list id core gives list `name` on {@link DOMAIN}: `team.lists.example.org`. */
export function listId(name: string): string {
  return `${name}.${DOMAIN}`
}

/**
 * One call to core's REST API at `api` (`http://127.0.0.1:PORT/3.1`): `body` goes as a form
 * (core's API takes form fields) with `method` (POST unless told). Resolves the parsed JSON
 * answer, or null for an empty one; throws on an HTTP error, with core's answer.
 */
export async function coreCall<T = unknown>(
  api: string,
  path: string,
  body?: Record<string, string>,
  method = body ? 'POST' : 'GET',
): Promise<T> {
  const auth = Buffer.from(`${CORE_API.user}:${CORE_API.password}`).toString('base64')
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      authorization: `Basic ${auth}`,
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { body: new URLSearchParams(body) } : {}),
  })
  const text = await res.text()
  if (!res.ok)
    throw new Error(`Mailman core ${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return (text ? JSON.parse(text) : null) as T
}

/** Puts the seed into the core whose REST API is at `api`. */
export async function seedCore(api: string): Promise<void> {
  for (const [host, description] of DOMAINS)
    await coreCall(api, '/domains', { mail_host: host, description })
  for (const [name, description] of LISTS) {
    await coreCall(api, '/lists', { fqdn_listname: `${name}@${DOMAIN}` })
    await coreCall(api, `/lists/${listId(name)}/config`, { description }, 'PATCH')
  }
  for (const [list, address, displayName] of MEMBERS)
    await coreCall(api, '/members', {
      list_id: listId(list),
      subscriber: address,
      display_name: displayName,
      pre_verified: 'true',
      pre_confirmed: 'true',
      pre_approved: 'true',
      send_welcome_message: 'false',
    })
}
