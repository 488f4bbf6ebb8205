import type { StorageState } from '../../../src/shared/trace'
import type { AnswerKey, AppInstance } from '../types'

/**
 * The CSRF guard of TiddlyWiki's server: every PUT and DELETE must carry this header (the browser
 * client's `$tw.utils.httpRequest` adds it), else the server answers 403.
 */
const WRITE_HEADERS = { 'x-requested-with': 'TiddlyWiki' }

/** A tiddler as `GET /recipes/default/tiddlers/<title>` answers it (tags as one string). */
export interface StoredTiddler {
  title: string
  text?: string
  tags?: string
  revision?: number
  [field: string]: unknown
}

/** The path of a tiddler under the default recipe, title encoded as the client encodes it. */
export function recipePath(title: string): string {
  return `/recipes/default/tiddlers/${encodeURIComponent(title)}`
}

/** The path the client deletes a tiddler at: under the bag, not the recipe. */
export function bagPath(title: string): string {
  return `/bags/default/tiddlers/${encodeURIComponent(title)}`
}

/** Reads a tiddler by title; null when the server has none (404). Throws on other answers. */
export async function readTiddler(app: AppInstance, title: string): Promise<StoredTiddler | null> {
  const res = await app.fetch(recipePath(title))
  if (res.status === 404) {
    await res.arrayBuffer()
    return null
  }
  if (!res.ok) throw new Error(`GET ${recipePath(title)} answered ${res.status}`)
  return (await res.json()) as StoredTiddler
}

/** Reads a tiddler a replay starts from; throws when it is missing (the seed must hold it). */
export async function readSeededTiddler(app: AppInstance, title: string): Promise<StoredTiddler> {
  const tiddler = await readTiddler(app, title)
  if (!tiddler) throw new Error(`${title} is not seeded`)
  return tiddler
}

/** Splits TiddlyWiki's title list format (`a [[b c]] d`) into titles. */
export function parseTitleList(list: string | undefined): string[] {
  const out: string[] = []
  const re = /\[\[([^\]]*)\]\]|(\S+)/g
  for (const m of (list ?? '').matchAll(re)) out.push(m[1] ?? m[2]!)
  return out
}

/** Saves a tiddler as the client does: `PUT` under the recipe, JSON body, the CSRF header. */
export async function putTiddler(
  app: AppInstance,
  fields: { title: string; text: string; tags: string[] },
): Promise<Response> {
  return app.fetch(recipePath(fields.title), {
    method: 'PUT',
    headers: { ...WRITE_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, type: 'text/vnd.tiddlywiki' }),
  })
}

/** Deletes a tiddler as the client does: `DELETE` under the bag, with the CSRF header. */
export function deleteTiddler(app: AppInstance, title: string): Promise<Response> {
  return app.fetch(bagPath(title), { method: 'DELETE', headers: WRITE_HEADERS })
}

/** Throws `message` plus the status when a write did not answer 204 as the client expects. */
export async function expectNoContent(res: Response, message: string): Promise<void> {
  await res.arrayBuffer()
  if (res.status !== 204) throw new Error(`${message}: answered ${res.status}`)
}

/**
 * A write key's replay by hand: `write` gets the key's first changed values, as strings, and
 * sends the requests; then the key's own check reads the app, and its complaint is thrown.
 */
export async function replayWrite(
  key: AnswerKey,
  app: AppInstance,
  session: StorageState,
  write: (...values: string[]) => Promise<void>,
): Promise<void> {
  const used = key.inputs.map((i) => i.changed[0])
  await write(...used.map(String))
  orThrow(await key.check(app, { status: 'succeeded', result: null }, session, used))
}

/** Throws the check's complaint when there is one: replays end with the check. */
export function orThrow(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/**
 * The dependency a correct tool has when it rewrites an existing tiddler: TiddlyWiki's PUT
 * replaces the whole tiddler, so the tool must first read the one it changes (its tags, its
 * text) by title. The browser never sends this read (the page already holds every tiddler).
 */
export const READ_TIDDLER = {
  method: 'GET',
  path: /\/recipes\/default\/tiddlers\/(?!%24|\$|Draft)[^/]+/,
}

/** Null when `tiddler` still has the tags of its seed, else what is wrong. */
export function keptTags(tiddler: StoredTiddler, seededTags: string[], extra: string[] = []) {
  const tags = parseTitleList(tiddler.tags).sort()
  const want = [...seededTags, ...extra].sort()
  return tags.join('|') === want.join('|')
    ? null
    : `${tiddler.title} is tagged [${tags.join(', ')}], not [${want.join(', ')}]`
}
