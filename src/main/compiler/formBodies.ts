import * as cheerio from 'cheerio'
import { headerValue, mimeTypeOf, type Exchange, type Trace } from '../../shared/trace'
import { multipartBoundary } from './multipartBody'
import { safeJson, safeUrl } from '../../shared/safeJson'

/** Media types of common upload extensions, for a file part whose bytes a HAR did not keep. */
const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  zip: 'application/zip',
}

/** A value of the intent that names a file: a word with an extension (`Sunset.png`). */
const FILE_NAME = /^[^\s/\\]+\.[A-Za-z0-9]{2,5}$/

/**
 * A trace whose form posts with files got back the body a plain HAR left out (uploads:
 * Chromium gives no multipart body with a file to a HAR; `Content-Length` still says one was
 * sent). The body is written from the form that sent it: the latest earlier HTML page of the
 * site with a `<form method=post enctype=multipart/form-data>` whose action is the request's URL,
 * its entries as a browser builds them (HTML "constructing the entry list": named enabled
 * controls, checked boxes only, the first submit button as the submitter), with the request's
 * boundary. What the person typed is unknown; the intent says some of it: a file name in the
 * intent (`Sunset.png`) is the file part's name, and a quoted value of the intent fills an empty
 * text field whose name or label holds the word just before the quote (`the description "A
 * sunset"` → `wpUploadDescription`). An upload a script sends with Plupload (WordPress's media
 * uploader) has no form: its inline settings (`url`, `multipart_params`, `file_data_name`) give
 * the fields, written as Plupload sends them (`name`, the params, then the file). The file's
 * bytes stay unknown: its part is empty. Pure.
 */
export function withFormBodies(trace: Trace, intent = trace.intent): Trace {
  let changed = false
  const exchanges = trace.exchanges.map((exchange, index) => {
    const body = formBody(exchange, trace.exchanges.slice(0, index), intent)
    if (!body) return exchange
    changed = true
    return { ...exchange, requestBody: { text: body, encoding: 'utf8' as const } }
  })
  return changed ? { ...trace, exchanges } : trace
}

function formBody(exchange: Exchange, earlier: Exchange[], intent: string): string | null {
  const boundary = multipartBoundary(exchange.requestHeaders)
  const length = Number(headerValue(exchange.requestHeaders, 'content-length') ?? NaN)
  if (!boundary || exchange.requestBody || !(length > 0) || exchange.method !== 'POST') return null
  for (let i = earlier.length - 1; i >= 0; i--) {
    const page = earlier[i]!
    if (!mimeTypeOf(page.responseHeaders).includes('html') || !page.responseBody) continue
    if (page.responseBody.encoding !== 'utf8') continue
    const written =
      writeForm(page, exchange.url, boundary, intent) ??
      writePlupload(page, exchange.url, boundary, intent)
    if (written) return written
  }
  return null
}

function writeForm(page: Exchange, url: string, boundary: string, intent: string): string | null {
  const $ = cheerio.load(page.responseBody!.text)
  const target = withoutHash(url)
  const form = $('form')
    .filter((_, el) => {
      const f = $(el)
      if ((f.attr('method') ?? '').toLowerCase() !== 'post') return false
      if ((f.attr('enctype') ?? '').toLowerCase() !== 'multipart/form-data') return false
      return withoutHash(resolve(f.attr('action') ?? '', page.url)) === target
    })
    .first()
  if (!form.length) return null
  const quoted = quotedValues(intent)
  const fileName = intentFileName(intent)
  const entries: string[] = []
  const field = (name: string, value: string) =>
    entries.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"\r\n\r\n${value}\r\n`,
    )
  let submitted = false
  form.find('input, select, textarea, button').each((_, el) => {
    const control = $(el)
    const name = control.attr('name')
    if (!name || control.is('[disabled]')) return
    const tag = el.tagName.toLowerCase()
    const type = (control.attr('type') ?? (tag === 'button' ? 'submit' : 'text')).toLowerCase()
    if (type === 'submit' || type === 'image') {
      if (!submitted) field(name, control.attr('value') ?? '')
      submitted = true
      return
    }
    if (type === 'button' || type === 'reset') return
    if ((type === 'checkbox' || type === 'radio') && !control.is('[checked]')) return
    if (type === 'file') {
      entries.push(filePart(boundary, name, fileName))
      return
    }
    let value =
      tag === 'textarea'
        ? control.text()
        : tag === 'select'
          ? (control.find('option[selected]').first().attr('value') ??
            control.find('option').first().attr('value') ??
            '')
          : (control.attr('value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : ''))
    if (!value && type !== 'hidden' && tag !== 'select')
      value = namedValue($, name, control.attr('id'), quoted)
    field(name, value.replace(/\r\n|\r|\n/g, '\r\n'))
  })
  return `${entries.join('')}--${boundary}--\r\n`
}

/** The file name the intent gives (`Sunset.png`), or ''. */
function intentFileName(intent: string): string {
  const words = intent.split(/\s+/).map((w) => w.replace(/^["“']+|[.,;:!?"”']+$/g, ''))
  return words.find((w) => FILE_NAME.test(w)) ?? ''
}

/** An empty file part named `file` (its bytes unknown), typed by the file name's extension. */
function filePart(boundary: string, name: string, file: string): string {
  const media = MEDIA_TYPES[file.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream'
  return `--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"; filename="${escape(file)}"\r\nContent-Type: ${media}\r\n\r\n\r\n`
}

/**
 * A Plupload upload (plupload.com: settings `url`, `multipart_params`, `file_data_name`, default
 * `file`) as its html5 runtime sends it: the file's `name`, each param, then the file part. The
 * settings are an inline script's JSON object whose `url` is the request's URL. Null without one.
 */
function writePlupload(
  page: Exchange,
  url: string,
  boundary: string,
  intent: string,
): string | null {
  const html = page.responseBody!.text
  const target = withoutHash(url)
  for (const settings of jsonObjectsWith(html, '"multipart_params"')) {
    const params = settings['multipart_params']
    if (typeof settings['url'] !== 'string' || !params || typeof params !== 'object') continue
    if (withoutHash(resolve(settings['url'], page.url)) !== target) continue
    const file = intentFileName(intent)
    const field = (name: string, value: unknown) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"\r\n\r\n${String(value ?? '')}\r\n`
    const fileField =
      typeof settings['file_data_name'] === 'string' ? settings['file_data_name'] : 'file'
    return (
      field('name', file) +
      Object.entries(params as Record<string, unknown>)
        .map(([k, v]) => field(k, v))
        .join('') +
      filePart(boundary, fileField, file) +
      `--${boundary}--\r\n`
    )
  }
  return null
}

/**
 * The JSON objects of a page's text that hold `key` (inline script settings): for each place
 * the key occurs, the nearest enclosing `{…}` that parses as JSON. At most 20 tries per place.
 */
function jsonObjectsWith(text: string, key: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = []
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + key.length)) {
    let start = text.lastIndexOf('{', at)
    for (let tries = 0; start >= 0 && tries < 20; tries++) {
      const end = closingBrace(text, start)
      if (end > at) {
        // Not JSON from here (a script block's brace): the next brace out is tried.
        const value = safeJson(text.slice(start, end + 1))
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          out.push(value as Record<string, unknown>)
          break
        }
      }
      start = text.lastIndexOf('{', start - 1)
    }
  }
  return out
}

/** The index of the `}` that closes the `{` at `start` (strings skipped), or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 0
  let quote: string | null = null
  for (let i = start; i < text.length; i++) {
    const c = text[i]!
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = null
    } else if (c === '"') quote = c
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return i
  }
  return -1
}

/** The intent's quoted values, each with the word just before it (`description`). */
function quotedValues(intent: string): Array<{ cue: string; value: string }> {
  const out: Array<{ cue: string; value: string }> = []
  for (const m of intent.matchAll(/(\w+)\s+["“']([^"”']+)["”']/g))
    out.push({ cue: m[1]!.toLowerCase(), value: m[2]! })
  return out
}

/** The quoted value whose cue word the field's name, id or label holds, or ''. */
function namedValue(
  $: cheerio.CheerioAPI,
  name: string,
  id: string | undefined,
  quoted: Array<{ cue: string; value: string }>,
): string {
  const label = id ? $(`label[for="${id}"]`).text() : ''
  const words = `${name} ${id ?? ''} ${label}`.toLowerCase()
  return quoted.find((q) => q.cue.length >= 4 && words.includes(q.cue))?.value ?? ''
}

function escape(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function resolve(action: string, base: string): string {
  return safeUrl(action || base, base)?.href ?? ''
}

function withoutHash(url: string): string {
  return url.split('#')[0]!
}
