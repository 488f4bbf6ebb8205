/**
 * What the answer keys of hledger-web do by hand: open a browser session (hledger-web has no
 * login; Yesod keeps a `_SESSION` cookie whose CSRF token every form echoes as `_token`), read a
 * form's token, post forms, and read the journal back through hledger-web's own JSON API
 * (`GET /transactions`) or its raw file (`GET /download/<path>`), as a person with curl would.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { setCookiesOf } from '../sessionFetch'
import { JOURNAL_SEGMENT } from './seed'

/** One posting of `GET /transactions` (hledger's JSON), reduced to what the checks read. */
interface Posting {
  paccount: string
  pamount: Array<{ acommodity: string; aquantity: { floatingPoint: number } }>
}

/** One transaction of `GET /transactions`, reduced to what the checks read. */
export interface Transaction {
  tdate: string
  tdescription: string
  tpostings: Posting[]
}

/**
 * What a browser holds after opening hledger-web once: the `_SESSION` cookie Yesod sets on the
 * first answer (the session that holds the CSRF token). There is no sign-in.
 */
export async function openSession(origin: string): Promise<StorageState> {
  const res = await fetch(`${origin}/journal`, { redirect: 'manual' })
  await res.arrayBuffer()
  const cookies = setCookiesOf(res.headers, new URL(origin).hostname)
  if (!cookies.some((c) => c.name === '_SESSION'))
    throw new Error(`GET /journal set no _SESSION cookie (HTTP ${res.status})`)
  return { cookies, origins: [] }
}

/** The `_token` hidden field of a page's form (Yesod's CSRF token), or throws. */
export function tokenOf(html: string): string {
  const token = /name="_token" value="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error('the page holds no _token field')
  return token
}

/** GETs `path` with `session` and returns its HTML; throws unless it answered 200. */
export async function pageOf(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<string> {
  const res = await app.fetch(path, { session })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return html
}

/**
 * POSTs `body` (urlencoded fields or a multipart FormData) to `path` with `session`; throws
 * unless hledger-web answered a 303 (its answer to every saved form) or a 200.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  body: URLSearchParams | FormData,
): Promise<void> {
  const res = await app.fetch(path, { method: 'POST', body, session })
  const text = await res.text()
  if (res.status !== 303 && res.status !== 200)
    throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 200)}`)
}

/** Every transaction of the journal, by hledger-web's JSON API. */
export async function transactions(app: AppInstance): Promise<Transaction[]> {
  const res = await app.fetch('/transactions')
  if (res.status !== 200) throw new Error(`GET /transactions answered ${res.status}`)
  return (await res.json()) as Transaction[]
}

/** The journal file's text as it is on disk, by the manage page's Download link. */
export async function journalText(app: AppInstance, session: StorageState): Promise<string> {
  return pageOf(app, session, `/download/${JOURNAL_SEGMENT}`)
}

/** The amount (a number of `commodity`) `t` posts to `account`, or null when none. */
export function postedAmount(t: Transaction, account: string, commodity = 'EUR'): number | null {
  const posting = t.tpostings.find((p) => p.paccount === account)
  const amount = posting?.pamount.find((a) => a.acommodity === commodity)
  return amount ? amount.aquantity.floatingPoint : null
}

/** The number of an amount as typed in the add form (`12.40 EUR`). */
export function typedNumber(typed: string): number {
  return Number(/-?\d+(?:\.\d+)?/.exec(typed)?.[0] ?? NaN)
}

/** A `GET` of a page that prints the add form (journal and register pages), with `_token`. */
export const ADD_FORM_PAGE: RequestKey = { method: 'GET', path: /^\/(journal|register)$/ }

/** A manage action on the journal file: `/edit/<path>`, `/upload/<path>`, `/download/<path>`. */
export function fileAction(method: string, action: 'edit' | 'upload' | 'download'): RequestKey {
  return { method, path: `/${action}/${JOURNAL_SEGMENT}` }
}

/**
 * Posts the add form by hand, as the dialog does: `_formid`, the `_token` read from the journal
 * page, date, description and four account/amount rows (`rows`, the unused ones sent empty).
 */
export async function addByHand(
  app: AppInstance,
  session: StorageState,
  date: string,
  description: string,
  rows: Array<[string, string]>,
): Promise<void> {
  const token = tokenOf(await pageOf(app, session, '/journal'))
  const body = new URLSearchParams({ _formid: 'identify-add', _token: token, date, description })
  for (let i = 0; i < 4; i++) {
    body.append('account', rows[i]?.[0] ?? '')
    body.append('amount', rows[i]?.[1] ?? '')
  }
  body.append('submit', '')
  await postForm(app, session, '/add', body)
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
