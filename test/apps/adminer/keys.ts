/**
 * What Adminer's answer keys do by hand, as a person with curl would: read a page of the shop
 * database, take the CSRF token from its forms, post a form, and read the database itself
 * (psql, through {@link AdminerInstance.sql}) to see what a write did.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import type { AdminerInstance } from './index'
import { DB_QUERY } from './session'

/** A GET of a page of the shop database whose query holds `field=value` (`select=customers`). */
export function pageKey(field: string, value: string): RequestKey {
  return { method: 'GET', path: '/', operation: { field, value } }
}

/** Reads `/?pgsql=...&db=shop&ns=public&<query>` signed in; throws unless it answers 200. */
export async function getPage(
  app: AppInstance,
  session: StorageState,
  query: string,
): Promise<string> {
  const res = await app.fetch(`/?${DB_QUERY}${query ? `&${query}` : ''}`, { session })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ?${query} answered ${res.status}`)
  return html
}

/**
 * The CSRF token of a page (`<input type="hidden" name="token" value="A:B">`). Adminer writes a
 * new pair on every page, each valid for the whole session (A xor B is the session's secret).
 */
export function pageToken(html: string): string {
  const token = /<input type=["']hidden["'] name=["']token["'] value=["'](\d+:\d+)["']/.exec(html)
  if (!token) throw new Error('the page holds no CSRF token')
  return token[1]!
}

/**
 * Posts a form to `/?pgsql=...&<query>` as the page's form does (urlencoded; Adminer reads
 * multipart and urlencoded alike) and returns the status and body. Adminer answers a done
 * write with a 302 back to a page, and a failed one with 200 and the form again.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  query: string,
  fields: Array<[string, string]>,
): Promise<{ status: number; text: string }> {
  const res = await app.fetch(`/?${DB_QUERY}&${query}`, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  return { status: res.status, text: await res.text() }
}

/** The error Adminer shows on a page (`<div class='error'>`), or null. */
export function pageError(html: string): string | null {
  const error = /<div class=["']error["']>([\s\S]*?)<\/div>/.exec(html)
  return error ? error[1]!.replace(/<[^>]*>/g, '').trim() : null
}

/** Runs `query` in the shop database directly (psql); rows one a line, columns `|`-joined. */
export function dbRead(app: AppInstance, query: string): Promise<string> {
  return (app as AdminerInstance).sql(query)
}

/** A SQL string literal. */
export function sqlText(value: string | number | boolean): string {
  return `'${String(value).replace(/'/g, "''")}'`
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** A run's result as one string, with the HTML entities Adminer writes unescaped. */
export function plainText(text: string): string {
  return text
    .replace(/&#0?39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}
