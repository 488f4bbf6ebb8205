import { safeUrl } from './safeJson'

/**
 * `text` as an absolute http or https URL (WHATWG URL parsing), or null for anything else: not a
 * string, not a URL, or another scheme (`file:`, `javascript:`, `data:`).
 */
export function httpUrl(text: unknown): URL | null {
  const url = typeof text === 'string' ? safeUrl(text) : undefined
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url : null
}

/** `text` percent-decoded (RFC 3986 §2.1), or as it is when it is not valid percent-encoding. */
export function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    // Not valid percent-encoding: the text stands as written, which is this helper's answer.
    return text
  }
}

/** A URL's path, or the text itself when it does not parse as a URL. */
export function pathOrText(url: string): string {
  return safeUrl(url)?.pathname ?? url
}
