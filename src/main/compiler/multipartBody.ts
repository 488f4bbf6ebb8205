import type { Exchange } from '../../shared/trace'
import { headerValue } from '../../shared/trace'

/** One part of a recorded `multipart/form-data` body: a text field, or a file with its bytes. */
export type RecordedPart =
  | { name: string; value: string }
  | {
      name: string
      /** The file name the browser sent (`filename="…"`); '' when the input had no file. */
      filename: string
      /** The part's `Content-Type`; `application/octet-stream` when it gave none (RFC 7578 §4.4). */
      contentType: string
      /** The file's bytes, base64 (RFC 4648 §4). */
      bytes: string
    }

/** The boundary of a `multipart/form-data` content type, or null for any other type. */
export function multipartBoundary(headers: Record<string, string>): string | null {
  const type = headerValue(headers, 'content-type') ?? ''
  const match = /multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type)
  return match ? (match[1] ?? match[2] ?? null) : null
}

/**
 * The parts of a recorded `multipart/form-data` body (RFC 7578), read from its bytes so a file
 * part that is not UTF-8 (an image, a PDF) survives: each part's `name` and, for a file part
 * (`filename` in its `Content-Disposition`), the file name, media type and bytes; text values
 * are decoded as UTF-8 (RFC 7578 §5.1). Null when the request is not multipart, has no body, or
 * the body holds no part.
 */
export function multipartParts(exchange: Exchange): RecordedPart[] | null {
  const boundary = multipartBoundary(exchange.requestHeaders)
  const body = exchange.requestBody
  if (!boundary || !body) return null
  // latin1 maps each byte to one character, so offsets in the text are offsets in the bytes.
  const bytes = Buffer.from(body.text, body.encoding === 'base64' ? 'base64' : 'utf8')
  const text = bytes.toString('latin1')
  const mark = `--${boundary}`
  const parts: RecordedPart[] = []
  let at = text.indexOf(mark)
  while (at >= 0) {
    const headStart = at + mark.length
    if (text.startsWith('--', headStart)) break
    const next = text.indexOf(`\r\n${mark}`, headStart)
    if (next < 0) break
    const headEnd = text.indexOf('\r\n\r\n', headStart)
    if (headEnd > 0 && headEnd <= next) {
      const head = Buffer.from(text.slice(headStart, headEnd), 'latin1').toString('utf8')
      const name = /content-disposition:[^\r\n]*;\s*name="([^"]*)"/i.exec(head)?.[1]
      const filename = /content-disposition:[^\r\n]*;\s*filename="([^"]*)"/i.exec(head)?.[1]
      const content = bytes.subarray(headEnd + 4, next)
      if (name !== undefined && filename !== undefined) {
        const contentType =
          /(?:^|\r\n)content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ||
          'application/octet-stream'
        parts.push({ name, filename, contentType, bytes: content.toString('base64') })
      } else if (name !== undefined) parts.push({ name, value: content.toString('utf8') })
    }
    at = next + 2
  }
  return parts.length ? parts : null
}
