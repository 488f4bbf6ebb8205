/**
 * What the answer keys of Shaarli do by hand, as a person with curl would: open a page for its
 * one-time `token`, post a form, find a bookmark's id in the list, and read the app's state back
 * through Shaarli's REST API (`/api/v1`, an HS512 JWT signed with the seeded `api.secret`), which
 * the web UI itself never calls.
 */
import { createHmac } from 'node:crypto'
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { API_SECRET } from './seed'
import { pageToken } from './session'

/** The bookmark list (home page): each row's id, and the one-time token of its delete links. */
export const LIST: RequestKey = { method: 'GET', path: '/' }
/** A bookmark's edit form: its current fields and a fresh token. */
export const EDIT_FORM: RequestKey = { method: 'GET', path: /\/admin\/shaare\/\d+/ }
/** The shaare form's save (create and edit alike; an edit carries `lf_id`). */
export const SAVE: RequestKey = { method: 'POST', path: '/admin/shaare' }

/** A bookmark as the REST API answers it. */
export interface ApiBookmark {
  id: number
  url: string
  shorturl: string
  title: string
  description: string
  tags: string[]
  private: boolean
  created: string
  updated: string
}

/** A JWT the API accepts: HS512 over `{"iat": now}` with the instance's API secret. */
function apiToken(): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  const head = `${part({ typ: 'JWT', alg: 'HS512' })}.${part({ iat: Math.floor(Date.now() / 1000) - 5 })}`
  return `${head}.${createHmac('sha512', API_SECRET).update(head).digest('base64url')}`
}

/** GETs an API path with a fresh JWT; null on 404, throws on any other non-200 answer. */
export async function apiGet<T>(app: AppInstance, path: string): Promise<T | null> {
  const res = await app.fetch(`/api/v1${path}`, {
    headers: { authorization: `Bearer ${apiToken()}` },
  })
  const text = await res.text()
  if (res.status === 404) return null
  if (res.status !== 200) throw new Error(`GET /api/v1${path} answered ${res.status}: ${text}`)
  return JSON.parse(text) as T
}

/** Every bookmark, private ones included, newest first. */
export async function allBookmarks(app: AppInstance): Promise<ApiBookmark[]> {
  return (await apiGet<ApiBookmark[]>(app, '/links?offset=0&limit=all&visibility=all')) ?? []
}

/** One bookmark by id, or null when it does not exist. */
export function bookmarkById(app: AppInstance, id: number): Promise<ApiBookmark | null> {
  return apiGet<ApiBookmark>(app, `/links/${id}`)
}

/** The instance's settings as the API reports them (title, timezone...). */
export async function settings(app: AppInstance): Promise<Record<string, unknown>> {
  const info = await apiGet<{ settings: Record<string, unknown> }>(app, '/info')
  return info?.settings ?? {}
}

/** GETs a page signed in with `session` and returns its HTML; throws unless it answers 200. */
export async function getPage(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<string> {
  const res = await app.fetch(path, { session })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return html
}

/** The page's one-time token; throws when it has none (signed out, or an error page). */
export function tokenOf(html: string, what: string): string {
  const token = pageToken(html)
  if (!token) throw new Error(`${what} holds no token`)
  return token
}

/** Posts a urlencoded form signed in; returns the status and the redirect target. */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string; html: string }> {
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  return { status: res.status, location: res.headers.get('location') ?? '', html: await res.text() }
}

/**
 * The id of the row titled `title` in the bookmark list's HTML (each row is a
 * `<div class="linklist-item" data-id="N">` whose link has `aria-label="<title>"`), or null.
 */
export function rowId(listHtml: string, title: string): number | null {
  const rows = listHtml.split(/<div class="linklist-item[^"]*" data-id="/).slice(1)
  const label = `aria-label="${escapeHtml(title)}"`
  const row = rows.find((r) => r.includes(label))
  return row ? Number(/^(\d+)"/.exec(row)?.[1]) : null
}

/** HTML-escapes text the way Shaarli's templates print titles. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
}

/** A run's result as one searchable string. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? '')
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/**
 * Opens a bookmark's edit form and posts it back with `change` applied, as the Save button does
 * (every field of the form, the token the form holds). Throws unless Shaarli redirected.
 */
export async function saveEdited(
  app: AppInstance,
  session: StorageState,
  id: number,
  change: { lf_title?: string; lf_tags?: string },
): Promise<void> {
  const html = await getPage(app, session, `/admin/shaare/${id}`)
  const field = (name: string): string => {
    const input = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1]
    return unescapeHtml(input ?? '')
  }
  const description = /<textarea name="lf_description"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1]
  const fields: Record<string, string> = {
    lf_id: String(id),
    lf_url: field('lf_url'),
    lf_title: field('lf_title'),
    lf_description: unescapeHtml(description ?? ''),
    lf_tags: field('lf_tags'),
    save_edit: 'Save',
    token: tokenOf(html, `the edit form of bookmark ${id}`),
    source: '',
    returnurl: '',
    ...change,
  }
  if (/name="lf_private"[^>]*checked/.test(html)) fields['lf_private'] = 'on'
  const res = await postForm(app, session, '/admin/shaare', fields)
  if (res.status !== 302) throw new Error(`saving bookmark ${id} answered ${res.status}`)
}

/** Reverses {@link escapeHtml}. */
function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}
