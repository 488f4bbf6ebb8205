/**
 * Talking to ikiwiki's CGI by hand, as a person with curl would: signing in with the
 * passwordauth form, opening a CGI form to read its hidden fields (the `sid` CSRF token is the
 * session id, checked against the session cookie on every signed-in post), posting a form as
 * multipart (as the edit form does) or urlencoded, and reading a page's source and rendering.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'
import type { AppInstance } from '../types'
import { CGI_PATH, SESSION_COOKIE } from './seed'

/**
 * Signs in with passwordauth's form (`do=signin`, `name`, `password`, `_submit=Login`) after
 * opening it (which starts the session), and returns the session cookie a browser would hold.
 * Throws when ikiwiki refused the password (it answers the form again with an error).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const first = await fetch(`${origin}${CGI_PATH}?do=signin`, { redirect: 'manual' })
  await first.arrayBuffer()
  const cookies = setCookiesOf(first.headers, host)
  const body = new URLSearchParams({
    _submitted_signin: '1',
    do: 'signin',
    name: user.name,
    password: user.password,
    _submit: 'Login',
  })
  const res = await fetch(`${origin}${CGI_PATH}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
    },
    body,
  })
  const html = await res.text()
  const jar = mergeCookies(cookies, setCookiesOf(res.headers, host))
  // A refused login answers the sign-in form again; a good one (with nothing to go back to)
  // says "Login succeeded".
  if (!jar.some((c) => c.name === SESSION_COOKIE) || !html.includes('Login succeeded'))
    throw new Error(`ikiwiki refused the login of ${user.name} (${res.status})`)
  return { cookies: jar, origins: [] }
}

/** The value of the `<input name="...">` in `html` (its first occurrence), or null. */
export function hiddenField(html: string, name: string): string | null {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)
  if (!tag) return null
  return /value="([^"]*)"/.exec(tag[0])?.[1] ?? ''
}

/** Opens a CGI form (`/ikiwiki.cgi?<query>`) signed in and returns its HTML; throws unless 200. */
export async function openForm(
  app: AppInstance,
  session: StorageState,
  query: Record<string, string>,
): Promise<string> {
  const res = await app.fetch(`${CGI_PATH}?${new URLSearchParams(query)}`, { session })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`${JSON.stringify(query)} answered ${res.status}`)
  return html
}

/** The `sid` (CSRF token) of a form ikiwiki showed; throws when there is none. */
export function sidOf(html: string): string {
  const sid = hiddenField(html, 'sid')
  if (!sid) throw new Error('the form holds no sid: not signed in?')
  return sid
}

/**
 * Posts `fields` to the CGI (multipart when `multipart`, as the edit form is sent, else
 * urlencoded) and returns the answer, redirects not followed.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  fields: Array<[string, string | Blob, string?]>,
  multipart: boolean,
): Promise<Response> {
  let body: FormData | URLSearchParams
  const headers: Record<string, string> = {}
  if (multipart) {
    const form = new FormData()
    for (const [name, value, filename] of fields)
      if (typeof value === 'string') form.append(name, value)
      else form.append(name, value, filename)
    body = form
  } else {
    body = new URLSearchParams(fields.map(([n, v]) => [n, String(v)]))
    headers['content-type'] = 'application/x-www-form-urlencoded'
  }
  return app.fetch(CGI_PATH, { method: 'POST', session, headers, body })
}

/**
 * Saves a page through the edit form, as the Save Page button does: opens `do=<mode>` for the
 * page (edit, or create from `from`), echoes its sid and rcsinfo, and posts the text. ikiwiki
 * answers a saved page with a 302 to it; anything else saved nothing.
 */
export async function savePage(
  app: AppInstance,
  session: StorageState,
  page: string,
  text: string,
  mode: 'edit' | 'create' = 'edit',
  from = '',
): Promise<void> {
  const html = await openForm(app, session, { do: mode, page, from })
  const res = await postForm(
    app,
    session,
    [
      ['_submitted', '1'],
      ['do', mode],
      ['sid', sidOf(html)],
      ['from', from],
      ['rcsinfo', hiddenField(html, 'rcsinfo') ?? ''],
      ['page', page],
      ['type', 'mdwn'],
      ['editcontent', text],
      ['editmessage', ''],
      ['_submit', 'Save Page'],
    ],
    true,
  )
  await res.arrayBuffer()
  if (res.status !== 302) throw new Error(`saving ${page} answered ${res.status}, not a redirect`)
}

/** A page's rendered HTML (`/<page>/`), or null when the wiki has no such page. */
export async function renderedPage(app: AppInstance, page: string): Promise<string | null> {
  const res = await app.fetch(`/${page}/`)
  const html = await res.text()
  return res.status === 200 ? html : null
}

/**
 * A page's source as the edit form shows it (the textarea, HTML-escaped text unescaped), or
 * null when the page does not exist: its edit form then carries an empty `rcsinfo` (the git
 * revision of the file), where an existing page's carries one.
 */
export async function pageSource(
  app: AppInstance,
  session: StorageState,
  page: string,
): Promise<string | null> {
  const html = await openForm(app, session, { do: 'edit', page })
  if (!hiddenField(html, 'rcsinfo')) return null
  const area = /<textarea[^>]*name="editcontent"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)
  return area ? unescapeHtml(area[1]!) : null
}

/** Unescapes the entities ikiwiki's templates and FormBuilder write. */
function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** A run's result as one searchable string (HTML entities unescaped). */
export function resultText(result: unknown): string {
  return unescapeHtml(typeof result === 'string' ? result : JSON.stringify(result ?? ''))
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
