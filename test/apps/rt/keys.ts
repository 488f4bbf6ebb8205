/**
 * What the answer keys of Request Tracker do by hand: name RT's requests (a Mason page by its path
 * and, where one page does several things, the form field that tells them apart), and read the
 * app's state straight from the instance's SQLite database (read-only), as an admin with the
 * sqlite3 shell would.
 */
import Database from 'better-sqlite3'
import type { AppInstance, RequestKey } from '../types'

const databases = new WeakMap<AppInstance, string>()

/** Notes where `app`'s SQLite database file is (the keys read it). */
export function rememberDatabase(app: AppInstance, file: string): void {
  databases.set(app, file)
}

/** Rows of `statement` (with `params`) on the instance's RT database, opened read-only. */
export function query<T = Record<string, unknown>>(
  app: AppInstance,
  statement: string,
  ...params: Array<string | number>
): T[] {
  const file = databases.get(app)
  if (!file) throw new Error(`no RT database is known for ${app.origin}`)
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 })
  try {
    return db.prepare(statement).all(...params) as T[]
  } finally {
    db.close()
  }
}

/** A ticket as the database holds it, with its queue's and owner's names. */
export interface TicketRow {
  id: number
  Subject: string
  Status: string
  QueueName: string
  OwnerName: string
}

/** The tickets whose subject is `subject` (RT's subjects need not be unique). */
export function ticketsBySubject(app: AppInstance, subject: string): TicketRow[] {
  return query<TicketRow>(
    app,
    `select t.id, t.Subject, t.Status, q.Name as QueueName, u.Name as OwnerName
       from Tickets t join Queues q on q.id = t.Queue join Users u on u.id = t.Owner
      where t.Subject = ? and t.id = t.EffectiveId`,
    subject,
  )
}

/** The one ticket whose subject is `subject`; throws when there is none or several. */
export function ticketBySubject(app: AppInstance, subject: string): TicketRow {
  const rows = ticketsBySubject(app, subject)
  if (rows.length !== 1) throw new Error(`${rows.length} tickets have the subject "${subject}"`)
  return rows[0]!
}

/**
 * The texts of the messages of type `type` (`Correspond`: replies, `Comment`, `Create`) on ticket
 * `id`, newest last, with HTML tags removed (the editor sends HTML).
 */
export function messages(app: AppInstance, id: number, type: string): string[] {
  const rows = query<{ Content: Buffer | string | null }>(
    app,
    `select a.Content from Transactions x join Attachments a on a.TransactionId = x.id
      where x.ObjectType = 'RT::Ticket' and x.ObjectId = ? and x.Type = ?
        and a.Content is not null order by x.id, a.id`,
    id,
    type,
  )
  return rows.map((r) =>
    String(r.Content ?? '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )
}

/** The user named `name` (username), or undefined. */
export function userByName(
  app: AppInstance,
  name: string,
):
  | { id: number; Name: string; EmailAddress: string; RealName: string; Signature: string | null }
  | undefined {
  return query<{
    id: number
    Name: string
    EmailAddress: string
    RealName: string
    Signature: string | null
  }>(app, 'select id, Name, EmailAddress, RealName, Signature from Users where Name = ?', name)[0]
}

/** A Mason page of RT by its path, told apart by a form field when `field` is given. */
export function page(method: string, path: string, field?: string, value?: string): RequestKey {
  return field && value !== undefined
    ? { method, path, operation: { field, value } }
    : { method, path }
}

/**
 * A page that shows tickets with their ids next to their subjects (the home page's lists, a
 * search's results, a ticket's own page): a tool reads one to find a ticket's id by its subject.
 */
export const TICKET_LIST: RequestKey = {
  method: 'GET',
  path: /\/(index\.html)?|\/Search\/Results\.html|\/Ticket\/Display\.html/,
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
