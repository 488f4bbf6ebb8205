/**
 * What the answer keys of Fossil do by hand, as a person with curl would: read a form page's
 * hidden fields, post a form the way the browser does (with the same-origin Referer that Fossil
 * checks on every write), and read the app's state back (the ticket report as TSV, a ticket's
 * page, a wiki page's JSON, an attachment's bytes, the forum list).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'

/** Common HTML entities back to text (Fossil escapes titles and field values). */
function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
}

/**
 * The `Referer` a browser sends from `path` of the app. Fossil refuses every write (and its
 * /wikiajax/ routes, reads included) whose Referer is missing or of another origin.
 */
export function refererFrom(app: AppInstance, path: string): Record<string, string> {
  return { referer: `${app.origin}${path}` }
}

/** GETs `path` signed in and returns the page's HTML; throws on anything but 200. */
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

/**
 * The values a browser would submit for the first `<form method="POST">` of `html`: text and
 * hidden inputs with their values, each select's selected option (the first one when none is
 * marked, as a browser does), and textareas' contents. Submit buttons are left out.
 */
export function formFields(html: string): Record<string, string> {
  const form = /<form[^>]*method="POST"[^>]*>([\s\S]*?)<\/form>/i.exec(html)?.[1]
  if (!form) throw new Error('the page has no POST form')
  const fields: Record<string, string> = {}
  for (const m of form.matchAll(/<input\b[^>]*>/gi)) {
    const tag = m[0]
    const name = /name="([^"]*)"/.exec(tag)?.[1]
    const type = (/type="([^"]*)"/.exec(tag)?.[1] ?? 'text').toLowerCase()
    if (!name || ['submit', 'button', 'file', 'checkbox'].includes(type)) continue
    fields[name] = unescapeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? '')
  }
  for (const m of form.matchAll(/<select\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/gi)) {
    const options = [...m[2]!.matchAll(/<option\b([^>]*)>/gi)].map((o) => o[1]!)
    const chosen = options.find((o) => /selected/.test(o)) ?? options[0]
    fields[m[1]!] = chosen ? unescapeHtml(/value="([^"]*)"/.exec(chosen)?.[1] ?? '') : ''
  }
  for (const m of form.matchAll(/<textarea\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/gi))
    fields[m[1]!] = unescapeHtml(m[2]!)
  return fields
}

/** What a form post answered: the status, the redirect's target path, and the body. */
export interface PostAnswer {
  status: number
  location: string
  body: string
}

/** Posts `fields` urlencoded to `path` as a form on `from` does (cookie and Referer). */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Record<string, string>,
  from: string,
): Promise<PostAnswer> {
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...refererFrom(app, from),
    },
    body: new URLSearchParams(fields),
  })
  const body = await res.text()
  const location = res.headers.get('location') ?? ''
  return { status: res.status, location: location.replace(app.origin, ''), body }
}

/** One row of the "All Tickets" report. */
export interface TicketRow {
  /** The ticket id's first 10 hex digits, as the report shows and links it. */
  id: string
  type: string
  status: string
  title: string
}

/**
 * The "All Tickets" report (`/rptview/1`) as its tab-separated download (`tablist=1`): one row
 * per ticket with its id prefix, type, status and title.
 */
async function ticketRows(app: AppInstance, session: StorageState): Promise<TicketRow[]> {
  const text = await getPage(app, session, '/rptview/1?tablist=1')
  const [head, ...lines] = text.trim().split('\n')
  const cols = head!.split('\t')
  const at = (name: string) => cols.indexOf(name)
  return lines.map((line) => {
    const cells = line.split('\t')
    return {
      id: cells[at('#')] ?? '',
      type: cells[at('type')] ?? '',
      status: cells[at('status')] ?? '',
      title: cells[at('title')] ?? '',
    }
  })
}

/** The tickets titled `title` in the report. */
export async function ticketsTitled(
  app: AppInstance,
  session: StorageState,
  title: string,
): Promise<TicketRow[]> {
  return (await ticketRows(app, session)).filter((t) => t.title === title)
}

/** A ticket's page (`/tktview/<id>`) as text: its fields, description and comments. */
export async function ticketView(
  app: AppInstance,
  session: StorageState,
  id: string,
): Promise<string> {
  return unescapeHtml(await getPage(app, session, `/tktview/${id}`))
}

/** The value a ticket's page shows for `label` (`Severity`, `Priority`...), trimmed. */
export function ticketField(view: string, label: string): string {
  const m = new RegExp(`${label}:</td>\\s*<td[^>]*class="tktDspValue"[^>]*>([\\s\\S]*?)</td>`).exec(
    view,
  )
  return (m?.[1] ?? '').trim()
}

/** A wiki page as the wiki editor loads it (`/wikiajax/fetch`), or null when it does not exist. */
export async function wikiPage(
  app: AppInstance,
  session: StorageState,
  name: string,
): Promise<{ name: string; content: string; mimetype: string } | null> {
  const res = await app.fetch(`/wikiajax/fetch?page=${encodeURIComponent(name)}`, {
    session,
    headers: refererFrom(app, `/wikiedit?name=${encodeURIComponent(name)}`),
  })
  const json = (await res.json()) as { error?: string; content?: string; mimetype?: string }
  if (json.error) return null
  return { name, content: json.content ?? '', mimetype: json.mimetype ?? '' }
}

/** The bytes of the attachment `file` of the ticket `ticket` (full id), or null when none. */
export async function ticketAttachment(
  app: AppInstance,
  session: StorageState,
  ticket: string,
  file: string,
): Promise<Buffer | null> {
  const query = new URLSearchParams({ tkt: ticket, file })
  const res = await app.fetch(`/attachdownload?${query}`, { session })
  const bytes = Buffer.from(await res.arrayBuffer())
  // Fossil answers an unknown attachment with its "not found" page, which is HTML.
  const html = (res.headers.get('content-type') ?? '').startsWith('text/html')
  return res.status === 200 && !html ? bytes : null
}

/** A run's result as one searchable string, common HTML escapes undone. */
export function resultText(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return unescapeHtml(raw)
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
