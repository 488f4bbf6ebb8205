/**
 * What the answer keys of Roundcube do by hand, as a person with curl would: look a message's UID
 * up by subject in a mailbox list, read folders, contacts and identities back, and judge runs.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { decodeHtml, listMailbox, remote } from './session'

/** A request to `/` told apart by its `_task` and `_action` (query or form fields). */
export function rcRequest(method: string, task: string, action: string): RequestKey {
  return {
    method,
    path: '/',
    operation: [
      { field: '_task', value: task },
      { field: '_action', value: action },
    ],
  }
}

/** The message list of a mailbox: what a tool naming a message by subject reads its UID from. */
export const MAIL_LIST = rcRequest('GET', 'mail', 'list')
/**
 * The mail page (`GET /?_task=mail`): the page script reads the session's request token from it,
 * which every AJAX call must send in `X-Roundcube-Request`.
 */
export const MAIL_PAGE: RequestKey = {
  method: 'GET',
  path: '/',
  operation: { field: '_task', value: 'mail' },
}

/** The UID of the message `subject` in `mailbox`, or throws (a replay needs it). */
export async function uidOf(
  app: AppInstance,
  session: StorageState,
  mailbox: string,
  subject: string,
): Promise<number> {
  const row = (await listMailbox(app, session, mailbox)).find((r) => r.subject === subject)
  if (!row) throw new Error(`no message "${subject}" in ${mailbox}`)
  return row.uid
}

/** The subjects of `mailbox`. */
export async function subjectsIn(
  app: AppInstance,
  session: StorageState,
  mailbox: string,
): Promise<string[]> {
  return (await listMailbox(app, session, mailbox)).map((r) => r.subject)
}

/**
 * The folder names the Folders settings page lists: its page script gets them in
 * `rcmail.set_env({"subscriptionrows": {<path>: [<path>, <display name>, protected]}})`.
 */
export async function folderNames(app: AppInstance, session: StorageState): Promise<string[]> {
  const res = await app.fetch('/?_task=settings&_action=folders', { session })
  const html = await res.text()
  const json = /"subscriptionrows":(\{.*?\}),"defaultfolders"/.exec(html)?.[1]
  if (res.status !== 200 || !json) throw new Error(`the folder list answered ${res.status}`)
  return Object.values(JSON.parse(json) as Record<string, [string, string, boolean]>)
    .map((row) => row[1])
    .filter((name) => name !== '')
}

/** The names of the personal address book's contacts, as its list answer shows them. */
export async function contactNames(app: AppInstance, session: StorageState): Promise<string[]> {
  const answer = await remote(app, session, 'GET', 'addressbook', 'list', { _source: '0' })
  return [
    ...(answer.exec ?? '').matchAll(/add_contact_row\("?\w+"?,\{"name":"((?:[^"\\]|\\.)*)"/g),
  ].map((m) => decodeHtml(JSON.parse(`"${m[1]!}"`) as string))
}

/** The signature of identity `iid`, as its edit form shows it. */
export async function signatureOf(
  app: AppInstance,
  session: StorageState,
  iid: number,
): Promise<string> {
  const res = await app.fetch(`/?_task=settings&_action=edit-identity&_iid=${iid}&_framed=1`, {
    session,
  })
  const html = await res.text()
  const m = /<textarea[^>]*name="_signature"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)
  if (res.status !== 200 || !m) throw new Error(`identity ${iid} answered ${res.status}`)
  return decodeHtml(m[1]!)
}

/** A run's result as one searchable string, common HTML and JSON escapes undone. */
export function resultText(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return decodeHtml(raw.replace(/\\\//g, '/'))
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
