/**
 * What the answer keys of MailDev do by hand, as a person with curl would: read the inbox from
 * the JSON API (without opening an email, which would mark it read), find an email's id by its
 * subject, and read a run's result as text.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { resultText } from '../match'

/** One address of an email as MailDev gives it. */
interface Address {
  address: string
  name?: string
}

/** An email as `GET /api/email` and `GET /api/email/<id>` give it (the fields the keys read). */
export interface StoredEmail {
  id: string
  subject: string
  read: boolean
  text?: string
  html?: string
  to: Address[]
  envelope: { from: Address; to: Address[] }
  attachments: Array<{ filename: string; generatedFileName: string }>
  relayedAt?: string
  relayedTo?: string[]
}

/** One page of `GET /api/email/summary`: the UI's list (no bodies). */
export interface SummaryPage {
  items: Array<{ id: string; subject: string; read: boolean }>
  total: number
  storeTotal: number
  unread: number
}

/**
 * The path of one email (`/api/email/<id>`), ids being MailDev's file names: not the fixed
 * paths that share the prefix (`summary`, `all`, `read-all`).
 */
export const EMAIL_PATH = /\/api\/email\/(?!(?:summary|all|read-all|delete)$)[^/]+/

/** The UI's list: what a tool reads to find an email's id by its subject. */
export const LIST_KEY: RequestKey = { method: 'GET', path: '/api/email/summary' }

/** One email read by id: what a tool reads to find an attachment's file name. */
export const EMAIL_KEY: RequestKey = { method: 'GET', path: EMAIL_PATH }

/** GETs `path` signed in and parses its JSON; throws unless MailDev answered 200. */
export async function getJson<T>(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<T> {
  const res = await app.fetch(path, { session })
  const text = await res.text()
  if (res.status !== 200)
    throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as T
}

/** Sends `method path` signed in; throws unless MailDev answered 200. Returns the body's text. */
export async function send(
  app: AppInstance,
  session: StorageState,
  method: string,
  path: string,
): Promise<string> {
  const res = await app.fetch(path, { method, session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`)
  return text
}

/** Every email held, bodies included. `GET /api/email` does not mark anything read. */
function allEmails(app: AppInstance, session: StorageState): Promise<StoredEmail[]> {
  return getJson<StoredEmail[]>(app, session, '/api/email')
}

/** The emails with `subject` (a relayed copy has its original's subject). */
export async function withSubject(
  app: AppInstance,
  session: StorageState,
  subject: string,
): Promise<StoredEmail[]> {
  return (await allEmails(app, session)).filter((e) => e.subject === subject)
}

/** The id of the one email with `subject`, as a tool finds it in the list; throws otherwise. */
export async function idOf(
  app: AppInstance,
  session: StorageState,
  subject: string,
): Promise<string> {
  const page = await getJson<SummaryPage>(app, session, '/api/email/summary?limit=200')
  const found = page.items.filter((e) => e.subject === subject)
  if (found.length !== 1) throw new Error(`${found.length} emails have the subject "${subject}"`)
  return found[0]!.id
}

/** The list as the UI reads it, with `search` when given. */
export function summary(
  app: AppInstance,
  session: StorageState,
  search?: string,
): Promise<SummaryPage> {
  const query = new URLSearchParams({ limit: '200' })
  if (search !== undefined) query.set('search', search)
  return getJson<SummaryPage>(app, session, `/api/email/summary?${query}`)
}

export { resultText }

/**
 * The subjects a list answer holds: the `subject` of every object in it (the summary page's
 * `items`, or a bare array), wherever it sits in the result.
 */
export function subjectsIn(result: unknown): string[] {
  const found: string[] = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') {
      const subject = (value as { subject?: unknown }).subject
      if (typeof subject === 'string') found.push(subject)
      else Object.values(value).forEach(walk)
    }
  }
  walk(typeof result === 'string' ? safeJson(result) : result)
  return found
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
