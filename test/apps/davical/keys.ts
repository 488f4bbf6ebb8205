/**
 * What the answer keys of DAViCal do by hand: name the admin pages' requests (`admin.php` told
 * apart by its `action` and `t` query fields and the form's submit button), and read the app's
 * state back from the same admin pages (the principal lists and a principal's page), signed in
 * as admin, as a person with curl would.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { csrfOf, postMultipart } from './session'
import { TYPE } from './seed'

/** `admin.php` with `action` and `t` (and any further fields) as its operation. */
export function admin(
  method: string,
  action: 'browse' | 'edit',
  t: 'principal' | 'collection',
  ...more: Array<{ field: string; value: string }>
): RequestKey {
  return {
    method,
    path: '/admin.php',
    operation: [{ field: 'action', value: action }, { field: 't', value: t }, ...more],
  }
}

/** A principal list (`admin.php?action=browse&t=principal&type=N`): where rows are picked. */
export const PRINCIPAL_LIST = admin('GET', 'browse', 'principal')
/** A principal's page (`admin.php?action=edit&t=principal&id=N`): its forms and CSRF token. */
export const PRINCIPAL_PAGE = admin('GET', 'edit', 'principal')

/** One row of a principal list. */
export interface PrincipalRow {
  id: string
  username: string
  fullname: string
  email: string
  /** The "Is Member of" column: display names of the groups, as the list prints them. */
  memberOf: string
}

/** The rows of the principal list of `type` (1 people, 2 resources, 3 groups). */
async function principals(
  app: AppInstance,
  session: StorageState,
  type: number,
): Promise<PrincipalRow[]> {
  const res = await app.fetch(`/admin.php?action=browse&t=principal&type=${type}`, { session })
  const html = await res.text()
  const rows: PrincipalRow[] = []
  const row =
    /<a href="\/admin\.php\?action=edit&t=principal&id=(\d+)">\d+<\/a><\/td>\s*<td class="left">([^<]*)<\/td>\s*<td class="left">([^<]*)<\/td>\s*<td class="left">([^<]*)<\/td>\s*<td class="left">([^<]*)<\/td>/g
  for (const m of html.matchAll(row))
    rows.push({ id: m[1]!, username: m[2]!, fullname: m[3]!, email: m[4]!, memberOf: m[5]! })
  if (!rows.length)
    throw new Error(`the principal list of type ${type} shows no rows (${res.status})`)
  return rows
}

/** Every person's, resource's and group's row. */
export async function allPrincipals(
  app: AppInstance,
  session: StorageState,
): Promise<PrincipalRow[]> {
  const lists = await Promise.all(
    [TYPE.person, TYPE.resource, TYPE.group].map((t) => principals(app, session, t)),
  )
  return lists.flat()
}

/** The row of the principal whose display name is `fullname`, or undefined. */
export async function principalNamed(
  app: AppInstance,
  session: StorageState,
  fullname: string,
): Promise<PrincipalRow | undefined> {
  return (await allPrincipals(app, session)).find((p) => p.fullname === fullname)
}

/** The id of the principal whose display name is `fullname`; throws when there is none. */
export async function principalId(
  app: AppInstance,
  session: StorageState,
  fullname: string,
): Promise<string> {
  const row = await principalNamed(app, session, fullname)
  if (!row) throw new Error(`DAViCal has no principal "${fullname}"`)
  return row.id
}

/** The HTML of a principal's page. */
export async function principalPage(
  app: AppInstance,
  session: StorageState,
  id: string,
): Promise<string> {
  const res = await app.fetch(`/admin.php?action=edit&t=principal&id=${id}`, { session })
  return res.text()
}

/** The rows of the table that follows the heading `<h2>title</h2>` on a page, as cell texts. */
export function tableAfter(html: string, title: string): string[][] {
  const start = html.indexOf(`<h2>${title}</h2>`)
  if (start < 0) return []
  const end = html.indexOf('</table>', start)
  const body = html.slice(start, end < 0 ? undefined : end)
  const rows: string[][] = []
  for (const tr of body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)) {
    const cells = [...tr[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) =>
      c[1]!
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    if (cells.length) rows.push(cells)
  }
  return rows
}

/**
 * A form post of a signed-in page, by hand: reads the page at `path` for its CSRF token, then
 * posts `fields` and that token to `path` as the page's multipart form does.
 */
export async function postAdminForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
): Promise<string> {
  const csrf = csrfOf(await (await app.fetch(path, { session })).text(), path)
  const { status, html } = await postMultipart(
    (p, init) => app.fetch(p, { ...init, session }),
    path,
    [...fields, ['csrf_token', csrf]],
  )
  if (status !== 200) throw new Error(`POST ${path} answered ${status}`)
  return html
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
