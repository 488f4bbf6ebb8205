/**
 * What the answer keys of DokuWiki do by hand, as a person with curl would: open the editor to
 * read its hidden fields, post the edit form, read a page's raw text, look for a media file.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'

/**
 * The value of the hidden `<input name="...">` in `html`: the first non-empty one (a page holds
 * several forms, and the GET ones carry an empty `sectok`), '' when all are empty, null if none.
 */
export function hiddenField(html: string, name: string): string | null {
  const pattern = new RegExp(`<input[^>]*name="${name.replace(/[[\]]/g, '\\$&')}"[^>]*>`, 'g')
  const values = [...html.matchAll(pattern)].map((m) => /value="([^"]*)"/.exec(m[0])?.[1] ?? '')
  if (!values.length) return null
  return values.find((v) => v !== '') ?? ''
}

/** The editor form's fields a save must echo: the session's CSRF token and the page's date. */
interface EditorFields {
  sectok: string
  /** The page file's mtime (Unix seconds) when the editor opened; '' for a new page. */
  date: string
  changecheck: string
}

/** Opens `/doku.php?id=<id>&do=edit` (which also locks the page for the user) and reads its form. */
async function openEditor(
  app: AppInstance,
  session: StorageState,
  id: string,
): Promise<EditorFields> {
  const res = await app.fetch(`/doku.php?id=${encodeURIComponent(id)}&do=edit`, { session })
  const html = await res.text()
  const sectok = hiddenField(html, 'sectok')
  if (res.status !== 200 || !sectok) throw new Error(`no editor for ${id} (${res.status})`)
  return {
    sectok,
    date: hiddenField(html, 'date') ?? '',
    changecheck: hiddenField(html, 'changecheck') ?? '',
  }
}

/**
 * Posts the edit form as the Save button does: `do[save]=1` with the text, the sectok and date
 * from {@link openEditor}. DokuWiki answers a saved page with a 302 to the page; any other answer
 * (200 with the editor again, a conflict, a token mismatch) means nothing was saved.
 */
export async function savePage(
  app: AppInstance,
  session: StorageState,
  id: string,
  text: string,
  summary = '',
): Promise<void> {
  const fields = await openEditor(app, session, id)
  const body = new URLSearchParams({
    sectok: fields.sectok,
    id,
    rev: '0',
    date: fields.date,
    prefix: '.',
    suffix: '',
    changecheck: fields.changecheck,
    target: 'section',
    wikitext: text,
    'do[save]': '1',
    summary,
  })
  const res = await app.fetch(`/doku.php?id=${encodeURIComponent(id)}&do=edit`, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  })
  await res.arrayBuffer()
  if (res.status !== 302) throw new Error(`saving ${id} answered ${res.status}, not a redirect`)
}

/**
 * A page's raw wiki text (`do=export_raw`, answered as text/plain), '' when the page does not
 * exist: DokuWiki then falls back to the HTML "does not exist" view instead of an empty text.
 */
export async function rawPage(app: AppInstance, id: string): Promise<string> {
  const res = await app.fetch(`/doku.php?id=${encodeURIComponent(id)}&do=export_raw`)
  const text = await res.text()
  if (res.status !== 200) throw new Error(`export_raw of ${id} answered ${res.status}`)
  return (res.headers.get('content-type') ?? '').startsWith('text/plain') ? text : ''
}

/** The size in bytes of the media file `ns:name` (fetch.php answers 200 with its bytes), or null. */
export async function mediaSize(
  app: AppInstance,
  session: StorageState,
  mediaId: string,
): Promise<number | null> {
  const res = await app.fetch(`/lib/exe/fetch.php?media=${encodeURIComponent(mediaId)}`, {
    session,
  })
  const bytes = await res.arrayBuffer()
  return res.status === 200 ? bytes.byteLength : null
}

/** A run's result as one searchable string (HTML-escaped text unescaped for the common cases). */
export function resultText(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return raw
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/**
 * A read's check: null when the run's result holds the text `expected` lists for the value the
 * tool was called with, else what is missing (`missing(want, value)`), or that the table has no
 * expectation for `value` (`what` names the kind of value: term, page...).
 */
export function resultHolds(
  result: unknown,
  expected: Record<string, string>,
  used: string | number | boolean | undefined,
  what: string,
  missing: (want: string, value: string) => string,
): string | null {
  const value = String(used)
  const want = expected[value]
  if (!want) return `no expectation for the ${what} ${value}`
  return resultText(result).includes(want) ? null : missing(want, value)
}
