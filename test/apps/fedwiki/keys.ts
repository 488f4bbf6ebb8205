/**
 * What the answer keys of Federated Wiki do by hand: read a page's JSON (`GET /<slug>.json`, open
 * to anyone), send a journal action as the client does (`PUT /page/<slug>/action`, form field
 * `action` holding the action as JSON, signed in as the owner), and list the recycler.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'

/** A page as `GET /<slug>.json` answers it. */
export interface PageJson {
  title: string
  story: Array<{ type: string; id: string; text?: string }>
  journal?: Array<{ type: string; id?: string }>
}

/** The page `slug`, or null when the site has no such page (404). */
export async function readPage(app: AppInstance, slug: string): Promise<PageJson | null> {
  const res = await app.fetch(`/${slug}.json`)
  if (res.status === 404) {
    await res.arrayBuffer()
    return null
  }
  if (!res.ok) throw new Error(`GET /${slug}.json answered ${res.status}`)
  return (await res.json()) as PageJson
}

/** Sends one journal action to page `slug` as the signed-in owner; throws unless it answers ok. */
export async function putAction(
  app: AppInstance,
  session: StorageState,
  slug: string,
  action: Record<string, unknown>,
): Promise<void> {
  const res = await app.fetch(`/page/${slug}/action`, {
    method: 'PUT',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: new URLSearchParams({ action: JSON.stringify({ ...action, date: Date.now() }) }),
  })
  const text = await res.text()
  if (res.status !== 200)
    throw new Error(`PUT /page/${slug}/action answered ${res.status}: ${text}`)
}

/** The slugs of the pages in the site's recycler (owner only). */
export async function recycledSlugs(app: AppInstance, session: StorageState): Promise<string[]> {
  const res = await app.fetch('/recycler/system/slugs.json', { session })
  if (!res.ok) throw new Error(`GET /recycler/system/slugs.json answered ${res.status}`)
  const list = (await res.json()) as Array<{ slug: string }>
  return list.map((p) => p.slug)
}

/** The text of a run's result, whatever shape the engine gave it. */
export function textOf(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
