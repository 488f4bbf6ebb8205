import type { BrowserContext, CDPSession, Disposable, Page, Request } from 'playwright-core'
import { headerValue } from '../../shared/trace'
import { decodeOrKeep } from '../../shared/urls'

/** Name of the binding the page script reports the files a person chose to. */
const FILE_BINDING = '__sitecallFile'

/** A file the person chose in an `<input type=file>` or dropped on the page. */
export interface ChosenFile {
  name: string
  type: string
  bytes: Buffer
}

/** One entry of a form's submitted entry list: a text value, or a file named by the person. */
export type FormEntry =
  { name: string; value: string } | { name: string; filename: string; type: string; size: number }

/** The request part of CDP `Network.requestWillBeSent` that tells whether a body was sent. */
interface SentRequest {
  requestId: string
  request: {
    url: string
    method: string
    hasPostData?: boolean
    postData?: string
    postDataEntries?: Array<{ bytes?: string }>
  }
}

/*
 * A plain string, not a serialised function (see actionScript.ts: tsx rewrites function bodies).
 * Files are read when chosen: the page may clear the input before it uploads, and a form
 * navigation's body never shows them to the recorder.
 */
const fileScript = (maxBytes: number): string => `(() => {
  const BINDING = ${JSON.stringify(FILE_BINDING)}
  if (window.__sitecallFiles) return
  window.__sitecallFiles = true
  const report = (files) => {
    for (const file of Array.from(files || [])) {
      if (file.size > ${maxBytes}) continue
      const reader = new FileReader()
      reader.onload = () => {
        const url = String(reader.result || '')
        const send = window[BINDING]
        if (send) send({ name: file.name, type: file.type, data: url.slice(url.indexOf(',') + 1) })
      }
      reader.readAsDataURL(file)
    }
  }
  document.addEventListener('change', (event) => {
    const input = event.composedPath ? event.composedPath()[0] : event.target
    if (input && input.tagName === 'INPUT' && input.type === 'file') report(input.files)
  }, true)
  document.addEventListener('drop', (event) => report(event.dataTransfer && event.dataTransfer.files), true)
  // The entry list a form submits (with its submitter): sent at once, before the page unloads.
  document.addEventListener('formdata', (event) => {
    const send = window[BINDING]
    if (!send || !event.formData) return
    const entries = []
    for (const [name, value] of event.formData.entries())
      entries.push(typeof value === 'string'
        ? { name, value }
        : { name, filename: value.name, type: value.type, size: value.size })
    send({ entries })
  }, true)
})()`

/**
 * Keeps the bodies of file uploads, which Playwright's `postDataBuffer()` (CDP's
 * `requestWillBeSent.postData`) leaves out: a `File` sent by XHR or fetch,
 * raw or in a `FormData`, and a form with a file input. For each request whose event carries no
 * body although it has one, the page's own CDP session asks `Network.getRequestPostData`, which
 * gives the bytes of XHR and fetch bodies; for a form navigation Chromium gives the multipart
 * body with the file parts empty, and the bytes come from the files the person chose (read in
 * the page when chosen, via {@link FILE_BINDING}). One instance per recording.
 */
export class UploadBodies {
  private readonly pending = new Map<string, Array<Promise<Buffer | null>>>()
  private readonly chosen: ChosenFile[] = []
  private readonly forms: FormEntry[][] = []
  private readonly sessions: CDPSession[] = []

  constructor(private readonly maxBytes: number) {}

  /** Installs the file binding and script on the context (before any page loads). */
  async install(context: BrowserContext): Promise<Disposable[]> {
    return [
      await context.exposeBinding(FILE_BINDING, (_source: unknown, payload: unknown) =>
        this.onFile(payload),
      ),
      await context.addInitScript({ content: fileScript(this.maxBytes) }),
    ]
  }

  /** Listens to a page's requests on a CDP session of its own. Never throws. */
  async attach(page: Page): Promise<void> {
    let session: CDPSession
    try {
      session = await page.context().newCDPSession(page)
      session.on('Network.requestWillBeSent', (event: SentRequest) => this.onSent(session, event))
      await session.send('Network.enable')
      this.sessions.push(session)
    } catch {
      // Not Chromium, or the page closed first: its uploads keep what Playwright gave.
    }
  }

  private onSent(session: CDPSession, event: SentRequest): void {
    const { request } = event
    if (!request.hasPostData || request.postData !== undefined) return
    const entries = request.postDataEntries
    if (entries?.length && entries.every((e) => e.bytes !== undefined)) return
    const data = session
      .send('Network.getRequestPostData', { requestId: event.requestId })
      .then(({ postData, base64Encoded }: { postData: string; base64Encoded?: boolean }) =>
        Buffer.from(postData, base64Encoded ? 'base64' : 'utf8'),
      )
      .catch(() => null)
    const key = requestKey(request.method, request.url)
    this.pending.set(key, [...(this.pending.get(key) ?? []), data])
  }

  private onFile(payload: unknown): void {
    if (typeof payload !== 'object' || payload === null) return
    const { name, type, data, entries } = payload as Record<string, unknown>
    if (Array.isArray(entries)) {
      const list = entries.filter(isFormEntry)
      if (list.length === entries.length) this.forms.push(list)
      return
    }
    if (typeof name !== 'string' || typeof data !== 'string') return
    const bytes = Buffer.from(data, 'base64')
    if (bytes.length > this.maxBytes) return
    this.chosen.push({ name, type: typeof type === 'string' ? type : '', bytes })
  }

  /**
   * The body of `request` as the browser sent it, for a request whose body Playwright did not
   * give: what `Network.getRequestPostData` answered, or null.
   */
  async bodyOf(request: Request): Promise<Buffer | null> {
    const key = requestKey(request.method(), request.url())
    const queue = this.pending.get(key)
    const next = queue?.shift()
    if (queue && !queue.length) this.pending.delete(key)
    return next ? next : null
  }

  /**
   * The request body with the files the person chose put where the browser left them out
   * (see {@link withChosenFiles}). Call once the recording ends: a file is read in the page
   * after it is chosen, and may arrive after the request that sent it.
   */
  complete(body: Buffer | null, headers: Record<string, string>): Buffer | null {
    return withChosenFiles(body, headers, this.chosen, this.forms)
  }

  /** Detaches the CDP sessions and forgets what was captured. */
  async close(): Promise<void> {
    this.pending.clear()
    await Promise.all(this.sessions.splice(0).map((s) => s.detach().catch(() => undefined)))
  }
}

function isFormEntry(entry: unknown): entry is FormEntry {
  if (typeof entry !== 'object' || entry === null) return false
  const e = entry as Record<string, unknown>
  if (typeof e['name'] !== 'string') return false
  if (typeof e['value'] === 'string') return true
  return (
    typeof e['filename'] === 'string' &&
    typeof e['type'] === 'string' &&
    typeof e['size'] === 'number'
  )
}

function requestKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url}`
}

/**
 * Puts chosen files where a request body lacks them, checked against the `Content-Length` the
 * browser sent (RFC 9110 §8.6), so a wrong guess never enters a trace:
 * - a `multipart/form-data` body (RFC 7578) whose file parts are empty: each such part named
 *   `filename="x"` gets the last chosen file named x;
 * - a multipart body Chromium gave nothing of (a form post answered by a redirect: its body is
 *   gone before CDP can be asked): a submitted form's entry list, written as Chromium writes it
 *   with the request's boundary (HTML "multipart/form-data encoding algorithm"), the latest
 *   whose length is the one sent;
 * - a missing or empty raw body: the last chosen file of exactly that length (the one named by
 *   `X-File-Name` first).
 * Returns the body unchanged when nothing fits.
 */
export function withChosenFiles(
  body: Buffer | null,
  headers: Record<string, string>,
  chosen: ChosenFile[],
  forms: FormEntry[][] = [],
): Buffer | null {
  const length = Number(headerValue(headers, 'content-length') ?? NaN)
  if (!Number.isFinite(length) || length === (body?.length ?? 0)) return body
  const type = headerValue(headers, 'content-type') ?? ''
  const boundary = /multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type)
  if (boundary) {
    const mark = boundary[1] ?? boundary[2]!
    if (body && body.length) {
      const filled = fillParts(body, `--${mark}`, chosen)
      return filled.length === length ? filled : body
    }
    for (const entries of [...forms].reverse()) {
      const written = writeForm(entries, mark, chosen)
      if (written?.length === length) return written
    }
    return body
  }
  if (boundary || (body && body.length)) return body
  const named = headerValue(headers, 'x-file-name')
  const fits = chosen.filter((f) => f.bytes.length === length)
  const file =
    fits.findLast((f) => named !== undefined && f.name === decodeOrKeep(named)) ?? fits.at(-1)
  return file ? file.bytes : body
}

function fillParts(body: Buffer, mark: string, chosen: ChosenFile[]): Buffer {
  const text = body.toString('latin1')
  const out: Buffer[] = []
  let from = 0
  let at = text.indexOf(mark)
  while (at >= 0) {
    const next = text.indexOf(`\r\n${mark}`, at + mark.length)
    if (next < 0) break
    const headEnd = text.indexOf('\r\n\r\n', at)
    if (headEnd > 0 && headEnd + 4 === next) {
      const name = /filename="([^"]+)"/i.exec(text.slice(at, headEnd))?.[1]
      const decoded = name === undefined ? undefined : Buffer.from(name, 'latin1').toString('utf8')
      const file = chosen.findLast((f) => f.name === decoded)
      if (file) {
        out.push(body.subarray(from, next), file.bytes)
        from = next
      }
    }
    at = next + 2
  }
  out.push(body.subarray(from))
  return Buffer.concat(out)
}

/**
 * A form's entry list as Chromium sends it (HTML "multipart/form-data encoding algorithm", RFC
 * 7578): names and file names with `"`, CR and LF percent-escaped, values with line breaks as
 * CRLF, each file's bytes from the chosen file of that name and size. Null when a file's bytes
 * are unknown.
 */
function writeForm(entries: FormEntry[], boundary: string, chosen: ChosenFile[]): Buffer | null {
  const escape = (text: string) =>
    text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  const out: Buffer[] = []
  for (const entry of entries) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escape(entry.name)}"`
    if ('value' in entry) {
      out.push(Buffer.from(`${head}\r\n\r\n${entry.value.replace(/\r\n|\r|\n/g, '\r\n')}\r\n`))
      continue
    }
    const file = entry.filename
      ? chosen.findLast((f) => f.name === entry.filename && f.bytes.length === entry.size)
      : undefined
    if (entry.filename && !file) return null
    head += `; filename="${escape(entry.filename)}"\r\nContent-Type: ${entry.type || 'application/octet-stream'}`
    out.push(Buffer.from(`${head}\r\n\r\n`), file?.bytes ?? Buffer.alloc(0), Buffer.from('\r\n'))
  }
  out.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(out)
}
