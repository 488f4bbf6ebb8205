/**
 * What the answer keys of Radicale do by hand, as a person with curl would: list a user's
 * collections with the web UI's own `PROPFIND`, read one collection's objects, and the request
 * keys the workflows share.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { USER, xmlText } from './seed'
import { resultText } from '../match'

/** The path of a collection of alice's: `/alice/<uuid>/` (the web UI picks the uuid). */
export const COLLECTION_PATH = new RegExp(
  `/${USER.name}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/`,
)

/** The web UI's list of the signed-in user's collections: `PROPFIND /alice/`, depth 1. */
export const LIST_COLLECTIONS: RequestKey = { method: 'PROPFIND', path: `/${USER.name}/` }

/** The body of that `PROPFIND`, as the web UI sends it (`get_collections` in its fn.js). */
export const LIST_BODY =
  '<?xml version="1.0" encoding="utf-8" ?>' +
  '<propfind xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" ' +
  'xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:I="http://apple.com/ns/ical/" ' +
  'xmlns:INF="http://inf-it.com/ns/ab/" xmlns:RADICALE="http://radicale.org/ns/">' +
  '<prop><resourcetype /><RADICALE:displayname /><I:calendar-color />' +
  '<INF:addressbook-color /><C:calendar-description />' +
  '<C:supported-calendar-component-set /><CR:addressbook-description /></prop></propfind>'

/** One collection as the list shows it. */
export interface ListedCollection {
  /** `/alice/<id>/` */
  href: string
  id: string
  kind: 'calendar' | 'addressbook'
  title: string
  description: string
  /** As stored: `#rrggbbff` from the web UI, '' when none. */
  color: string
  /** The calendar's component names (`VEVENT`, `VJOURNAL`, `VTODO`); empty for address books. */
  components: string[]
}

/** XML text back to plain text (Radicale escapes `&`, `<`, `>` and quotes). */
function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&')
}

/** The text of the first element named `local` (any namespace prefix) in `xml`, or ''. */
function elementText(xml: string, local: string): string {
  const m = new RegExp(`<(?:[\\w-]+:)?${local}(?:\\s[^>]*)?>([^<]*)</(?:[\\w-]+:)?${local}>`).exec(
    xml,
  )
  return m ? unescapeXml(m[1]!) : ''
}

/**
 * The collections of a `PROPFIND` depth-1 answer of a principal (Radicale's multistatus: one
 * `<response>` per collection, the found properties in the `200 OK` propstat), without the
 * principal itself. Only the 200 propstat is read, so an empty property is ''.
 */
export function parseCollections(xml: string, principal: string): ListedCollection[] {
  const out: ListedCollection[] = []
  for (const block of xml.match(/<response>[\s\S]*?<\/response>/g) ?? []) {
    const href = unescapeXml(/<href>([^<]*)<\/href>/.exec(block)?.[1] ?? '')
    if (href === principal) continue
    const ok =
      (block.match(/<propstat>[\s\S]*?<\/propstat>/g) ?? []).find((p) => p.includes('200 OK')) ?? ''
    const type = /<resourcetype>([\s\S]*?)<\/resourcetype>/.exec(ok)?.[1] ?? ''
    const kind = /:addressbook\b/.test(type)
      ? 'addressbook'
      : /:calendar\b/.test(type)
        ? 'calendar'
        : null
    if (!kind) continue
    const comps =
      kind === 'calendar' ? [...ok.matchAll(/<C:comp name="(\w+)"/g)].map((m) => m[1]!) : []
    out.push({
      href,
      id: href.split('/').filter(Boolean).pop() ?? '',
      kind,
      title: elementText(ok, 'displayname'),
      description: elementText(
        ok,
        kind === 'calendar' ? 'calendar-description' : 'addressbook-description',
      ),
      color: elementText(ok, kind === 'calendar' ? 'calendar-color' : 'addressbook-color'),
      components: comps,
    })
  }
  return out
}

/**
 * Lists `owner`'s collections as the web UI does (alice's, signed in with `session`; another
 * user's with `login`). Throws unless Radicale answered 207.
 */
export async function listCollections(
  app: AppInstance,
  session: StorageState,
  login?: { name: string; password: string },
): Promise<ListedCollection[]> {
  const owner = login?.name ?? USER.name
  const headers: Record<string, string> = {
    depth: '1',
    'content-type': 'application/xml; charset=utf-8',
  }
  if (login)
    headers.authorization = `Basic ${Buffer.from(`${login.name}:${login.password}`).toString('base64')}`
  const res = await app.fetch(`/${owner}/`, {
    method: 'PROPFIND',
    session,
    headers,
    body: LIST_BODY,
  })
  const text = await res.text()
  if (res.status !== 207) throw new Error(`PROPFIND /${owner}/ answered ${res.status}`)
  return parseCollections(text, `/${owner}/`)
}

/** The collection with id `id` in the list, or undefined. */
export async function collectionById(
  app: AppInstance,
  session: StorageState,
  id: string,
): Promise<ListedCollection | undefined> {
  return (await listCollections(app, session)).find((c) => c.id === id)
}

/** GETs a collection (its whole .ics or .vcf) signed in; throws unless Radicale answered 200. */
export async function collectionText(
  app: AppInstance,
  session: StorageState,
  href: string,
): Promise<string> {
  const res = await app.fetch(href, { session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${href} answered ${res.status}`)
  return text
}

/**
 * The body of the web UI's `PROPPATCH` (its Edit form's Save), built as its fn.js builds it: the
 * calendar's components, title, color (`#rrggbbff`) and description set, none removed (every
 * field of the form holds a value).
 */
export function editCalendarBody(c: {
  title: string
  description: string
  color: string
  components: string[]
}): string {
  const comps = c.components.map((name) => `<C:comp name="${name}" />`).join('')
  return (
    '<?xml version="1.0" encoding="UTF-8" ?>' +
    '<propertyupdate xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" ' +
    'xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:I="http://apple.com/ns/ical/" ' +
    'xmlns:INF="http://inf-it.com/ns/ab/">' +
    '<set><prop>' +
    `<C:supported-calendar-component-set>${comps}</C:supported-calendar-component-set>` +
    `<displayname>${xmlText(c.title)}</displayname>` +
    `<I:calendar-color>${xmlText(c.color)}</I:calendar-color>` +
    `<C:calendar-description>${xmlText(c.description)}</C:calendar-description>` +
    '</prop></set>' +
    '<remove><prop><INF:addressbook-color /><CR:addressbook-description /></prop></remove>' +
    '</propertyupdate>'
  )
}

/** Sends `PROPPATCH` of `href` with `body` signed in; throws unless Radicale answered 207. */
export async function proppatch(
  app: AppInstance,
  session: StorageState,
  href: string,
  body: string,
): Promise<void> {
  const res = await app.fetch(href, {
    method: 'PROPPATCH',
    session,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body,
  })
  const text = await res.text()
  if (res.status !== 207 || !text.includes('200 OK'))
    throw new Error(`PROPPATCH ${href} answered ${res.status} ${text.slice(0, 200)}`)
}

export { resultText }

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** `#rrggbb` as Radicale stores what the web UI sends for it (`#rrggbbff`), lower-case. */
export function storedColor(color: string): string {
  return `${color.toLowerCase()}ff`
}
