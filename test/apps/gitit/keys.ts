/**
 * What the answer keys of Gitit do by hand: name Gitit's requests (a page's own URL, `/Title`,
 * and its action paths `/_edit/Title`, `/_history/Title`, `/_diff/Title`, `/_delete/Title`; a
 * page title is one path segment with its spaces as %20), open the editor for its `sha1` and text,
 * post forms signed in, and read the wiki's state back from its git repository (`git show
 * HEAD:<file>`, `git log`), as an admin on the machine would.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { pageFile } from './seed'

/** The git repository of each running instance. */
export const repos = new WeakMap<AppInstance, string>()

/** Runs git in `app`'s repository and returns its output (raw bytes). */
async function git(app: AppInstance, args: string[]): Promise<Buffer> {
  const repo = repos.get(app)
  if (!repo) throw new Error('this instance has no repository recorded')
  const { stdout } = await promisify(execFile)('/usr/bin/git', args, {
    cwd: repo,
    encoding: 'buffer',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo },
    maxBuffer: 8 << 20,
  })
  return stdout
}

/** The bytes of `file` in the repository's last commit, or null when it holds no such file. */
export async function committedFile(app: AppInstance, file: string): Promise<Buffer | null> {
  const names = (await git(app, ['ls-tree', '--name-only', 'HEAD'])).toString('utf8').split('\n')
  if (!names.includes(file)) return null
  return git(app, ['show', `HEAD:${file}`])
}

/** What page `title` says now (its committed file), or null when there is no such page. */
export async function pageText(app: AppInstance, title: string): Promise<string | null> {
  const bytes = await committedFile(app, pageFile(title))
  return bytes === null ? null : bytes.toString('utf8')
}

/** The revisions (commit ids) of page `title`, newest first. */
export async function revisions(app: AppInstance, title: string): Promise<string[]> {
  const out = await git(app, ['log', '--format=%H', '--', pageFile(title)])
  return out.toString('utf8').split('\n').filter(Boolean)
}

/** `/Title` with the title as one path segment (`/Team%20Contacts`). */
export function pagePath(title: string): string {
  return `/${encodeURIComponent(title)}`
}

/** A page's own URL (not an action path such as `/_edit/...`). */
const PAGE = /\/(?!_)[^/]+/

/** The action `action` (`edit`, `history`, `diff`, `delete`) of any page: `/_action/Title`. */
export function pageAction(method: string, action: string): RequestKey {
  return { method, path: new RegExp(`/_${action}/[^/]+`) }
}

/** The Save of the editor: the page text posted back to the page's URL. */
export const SAVE_PAGE: RequestKey = {
  method: 'POST',
  path: PAGE,
  operation: { field: 'update', value: 'Save' },
}

/**
 * Opens the editor of `title` (of revision `revision` when given, as the revert link does) and
 * returns what it holds: the `sha1` the save must send and the text in the textarea.
 */
export async function openEditor(
  app: AppInstance,
  session: StorageState,
  title: string,
  revision?: string,
): Promise<{ sha1: string; text: string }> {
  const query = revision ? `?revision=${revision}` : ''
  const res = await app.fetch(`/_edit/${encodeURIComponent(title)}${query}`, { session })
  const html = await res.text()
  const sha1 = /name="sha1"[^>]*value="([^"]*)"/.exec(html)?.[1]
  const text = /<textarea[^>]*name="editedText"[^>]*>([\s\S]*?)<\/textarea/.exec(html)?.[1]
  if (sha1 === undefined || text === undefined)
    throw new Error(`the editor of ${title} holds no form (${res.status})`)
  return { sha1, text: unescapeHtml(text) }
}

/** Undoes the HTML escaping of a textarea's content. */
function unescapeHtml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&')
}

/** Posts `fields` as a urlencoded form to `path`, signed in with `session`. */
export function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Record<string, string>,
): Promise<Response> {
  return app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
