/**
 * What the answer keys of Tiny Tiny RSS do by hand, as a person with curl would: name
 * `backend.php` calls by their `op` and `method` fields, look feeds, articles, categories and
 * labels up by name in the app's own JSON answers, and read a preference back from its form.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { backend, backendJson } from './session'

/** A call to `/backend.php` told apart by its `op` and `method` fields (form or query). */
export function backendCall(httpMethod: string, op: string, method: string): RequestKey {
  return {
    method: httpMethod,
    path: '/backend.php',
    operation: [
      { field: 'op', value: op },
      { field: 'method', value: method },
    ],
  }
}

/**
 * A page that holds the session's CSRF token (`const __csrf_token = ...`): the main page or the
 * preferences page, either of which a tool may read before its `backend.php` call.
 */
export const CSRF_PAGE: RequestKey = { method: 'GET', path: /^\/(index\.php|prefs\.php)?$/ }
/** The feed tree of the main page (ids and names of feeds and categories). */
export const FEED_TREE = backendCall('GET', 'pref_feeds', 'getfeedtree')
/** The headlines of a feed (ids, titles, unread and starred flags of its articles). */
export const HEADLINES = backendCall('POST', 'feeds', 'view')

/** One article as `op=feeds&method=view` lists it. */
export interface Headline {
  id: number
  title: string
  unread: boolean
  marked: boolean
  feed_id: number
}

/** The articles of `feed` (`-4`: all articles, `-1`: starred), every one, read or not. */
export async function headlines(
  app: AppInstance,
  session: StorageState,
  feed: number,
  token?: string,
): Promise<Headline[]> {
  const answer = await backendJson<{ headlines: { content: Headline[] | string } }>(
    app,
    session,
    {
      op: 'feeds',
      method: 'view',
      feed: String(feed),
      view_mode: 'all_articles',
      order_by: 'default',
      cat: 'false',
    },
    token,
  )
  const content = answer.headlines.content
  return Array.isArray(content) ? content : []
}

/** The article titled `title` among all articles, or throws. */
export async function articleNamed(
  app: AppInstance,
  session: StorageState,
  title: string,
): Promise<Headline> {
  const found = (await headlines(app, session, -4)).find((h) => h.title === title)
  if (!found) throw new Error(`no article "${title}"`)
  return found
}

/** One node of the preferences feed tree. */
interface TreeNode {
  id: string
  bare_id: number
  name: string
  type?: string
  items?: TreeNode[]
}

/** A feed or category as the preferences tree shows it. */
export interface TreeEntry {
  kind: 'feed' | 'category'
  id: number
  name: string
  /** The category holding it (`Uncategorized` for feeds outside one). */
  category: string
}

/** Every feed and category of the preferences tree (it shows empty categories too). */
export async function feedTree(app: AppInstance, session: StorageState): Promise<TreeEntry[]> {
  const res = await app.fetch('/backend.php?op=pref-feeds&method=getfeedtree', { session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`the feed tree answered ${res.status}`)
  const out: TreeEntry[] = []
  const walk = (nodes: TreeNode[], category: string) => {
    for (const node of nodes) {
      if (node.id.startsWith('CAT:')) {
        out.push({ kind: 'category', id: node.bare_id, name: node.name, category })
        walk(node.items ?? [], node.name)
      } else if (node.id.startsWith('FEED:')) {
        out.push({ kind: 'feed', id: node.bare_id, name: node.name, category })
      } else walk(node.items ?? [], category)
    }
  }
  walk((JSON.parse(text) as { items: TreeNode[] }).items, '')
  return out
}

/** The feed named `name`, or undefined. */
export async function feedNamed(
  app: AppInstance,
  session: StorageState,
  name: string,
): Promise<TreeEntry | undefined> {
  return (await feedTree(app, session)).find((e) => e.kind === 'feed' && e.name === name)
}

/** The feed's URL as its edit dialog shows it. */
export async function feedUrlOf(
  app: AppInstance,
  session: StorageState,
  id: number,
): Promise<string> {
  const res = await app.fetch(`/backend.php?op=pref-feeds&method=editfeed&id=${id}`, { session })
  const html = await res.text()
  const url = /name='feed_url'[^>]*value="([^"]*)"|name="feed_url"[^>]*value="([^"]*)"/.exec(html)
  if (!url) throw new Error(`the edit dialog of feed ${id} shows no URL (${res.status})`)
  return (url[1] ?? url[2] ?? '').replace(/&amp;/g, '&')
}

/** The captions of the user's labels. */
export async function labelNames(app: AppInstance, session: StorageState): Promise<string[]> {
  const tree = await backendJson<{ items: Array<{ items?: Array<{ name: string }> }> }>(
    app,
    session,
    { op: 'pref-labels', method: 'getlabeltree' },
  )
  return tree.items.flatMap((root) => (root.items ?? []).map((l) => l.name))
}

/** The value of the preference `name` as the preferences form shows it. */
export async function prefValue(
  app: AppInstance,
  session: StorageState,
  name: string,
): Promise<string> {
  const html = await backend(app, session, { op: 'pref-prefs' })
  const tag = new RegExp(`<input[^>]*name=["']${name}["'][^>]*>`).exec(html)?.[0]
  const value = tag ? /value=["']([^"']*)["']/.exec(tag)?.[1] : undefined
  if (value === undefined) throw new Error(`the preferences form has no ${name}`)
  return value
}

/** A run's result as one searchable string, JSON escapes of slashes undone. */
export function resultText(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return raw
    .replace(/\\\//g, '/')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
