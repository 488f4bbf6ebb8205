/** How the answer keys talk to the wiki by hand, as a person with curl would. */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { hiddenField } from './session'

/** MediaWiki's page-title form in URLs: spaces become underscores. */
export function urlTitle(title: string): string {
  return encodeURIComponent(title.replace(/ /g, '_'))
}

/** GETs `path` signed in and returns the HTML, throwing unless it answered 200. */
export async function getPage(
  app: AppInstance,
  path: string,
  session: StorageState,
): Promise<string> {
  const res = await app.fetch(path, { session })
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return res.text()
}

/** A page's wikitext (`action=raw`), or null when the page does not exist. */
export async function rawText(app: AppInstance, title: string): Promise<string | null> {
  const res = await app.fetch(`/index.php?title=${urlTitle(title)}&action=raw`)
  if (res.status === 404) return null
  if (res.status !== 200) throw new Error(`action=raw of ${title} answered ${res.status}`)
  return res.text()
}

/** What the Action API says of one title: missing or not, a redirect or not. */
export async function pageInfo(
  app: AppInstance,
  title: string,
): Promise<{ missing: boolean; redirect: boolean }> {
  const res = await app.fetch(
    `/api.php?action=query&format=json&formatversion=2&titles=${encodeURIComponent(title)}&prop=info`,
  )
  const body = (await res.json()) as {
    query?: { pages?: Array<{ missing?: boolean; redirect?: boolean }> }
    error?: { info: string }
  }
  // The Action API answers errors with HTTP 200 and an error object.
  if (body.error) throw new Error(`api.php: ${body.error.info}`)
  const info = body.query?.pages?.[0] ?? {}
  return { missing: info.missing === true, redirect: info.redirect === true }
}

/** POSTs a form signed in without following the redirect, and returns status and body. */
export async function postForm(
  app: AppInstance,
  path: string,
  session: StorageState,
  body: URLSearchParams | FormData,
): Promise<{ status: number; text: string }> {
  const res = await app.fetch(path, { method: 'POST', body, session, redirect: 'manual' })
  return { status: res.status, text: await res.text() }
}

/** The text of a run's result however the engine shaped it (JSON answer or document). */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** Every hidden field of the form whose id is `formId`, as the browser would post it back. */
export function hiddenFieldsOf(html: string, formId: string): Record<string, string> {
  const start = html.indexOf(`id="${formId}"`)
  if (start < 0) throw new Error(`no form #${formId} in the page`)
  const form = html.slice(start, html.indexOf('</form>', start))
  const fields: Record<string, string> = {}
  for (const input of form.match(/<input[^>]*type=["']hidden["'][^>]*>/g) ?? []) {
    const name = input.match(/name=["']([^"']*)["']/)?.[1]
    if (name) fields[name] = hiddenField(input, name)
  }
  return fields
}
