import { mediaType, type Body } from '../../shared/trace'

const TEXTUAL_MIME =
  /^(text\/|application\/(json|javascript|ecmascript|xml|x-www-form-urlencoded|graphql|x-ndjson)\b)|[+/](json|xml)\b/i

/**
 * Whether a `Content-Type` value names a textual format: `text/*`, JSON, JavaScript, XML,
 * form-urlencoded, GraphQL, NDJSON, or any `+json` / `+xml` suffix type. Parameters are ignored.
 */
export function isTextualContentType(contentType: string | undefined | null): boolean {
  if (!contentType) return false
  return TEXTUAL_MIME.test(mediaType(contentType))
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    // Not valid UTF-8: the caller keeps the bytes as base64 instead.
    return null
  }
}

/**
 * Encodes captured body bytes for a trace: UTF-8 text when the content type is textual (see
 * {@link isTextualContentType}) or the bytes are valid UTF-8 without NUL bytes, else base64.
 * Textual bodies in another charset (e.g. Latin-1 HTML) that are not valid UTF-8 are kept as
 * base64 rather than decoded lossily, so the exact bytes survive for HAR export and replay.
 *
 * @param bytes the raw body; `null` (not available) gives `null`, an empty buffer gives `''` utf8.
 * @param contentType the `Content-Type` header of the message that carried the body, if any.
 */
export function encodeBody(bytes: Uint8Array | null, contentType?: string | null): Body | null {
  if (bytes === null) return null
  const text = decodeUtf8(bytes)
  // Text with NULs is almost always a binary format that happens to decode (UTF-16, protobuf).
  if (text !== null && (isTextualContentType(contentType) || !bytes.includes(0))) {
    return { text, encoding: 'utf8' }
  }
  return { text: Buffer.from(bytes).toString('base64'), encoding: 'base64' }
}
