import { headerValue, type Body, type Exchange } from '../../../shared/trace'
import { encodeBody } from '../encodeBody'
import { cookieHeaderOf, headersFromHar, setCookieHeaderOf } from './headers'
import { inferResourceType } from './resourceType'
import type { HarContent, HarEntry, HarPostData } from './types'

export interface EntryOptions {
  /** Bodies larger than this many bytes are left out (null), as the recorder does. */
  maxBodyBytes: number
  /** Milliseconds since the Unix epoch, for an entry whose `startedDateTime` does not parse. */
  fallbackStartedAt: number
}

/**
 * One HAR entry → one exchange (`exc_<seq>`), without its page URL (set once all pages and
 * entries are known). Bodies: `content.text` is the decoded body (HAR 1.2 §content: compression
 * is only reported); `content.encoding: 'base64'` is decoded to bytes and re-encoded like a
 * recorded body (JSON that a writer base64-encoded becomes text again). A missing `text` is a
 * missing body (null). Throws a TypeError when the entry has no request method or URL.
 */
export function entryToExchange(entry: HarEntry, seq: number, options: EntryOptions): Exchange {
  const request = entry?.request
  if (!request || typeof request.url !== 'string' || typeof request.method !== 'string')
    throw new TypeError(`HAR entry ${seq} has no request method and URL.`)
  const requestHeaders = headersFromHar(request.headers)
  if (headerValue(requestHeaders, 'cookie') === undefined) {
    const cookie = cookieHeaderOf(request.cookies)
    if (cookie) requestHeaders.cookie = cookie
  }
  const response = entry.response
  const status = Number.isFinite(response?.status) && response.status > 0 ? response.status : 0
  const responseHeaders = headersFromHar(response?.headers)
  if (headerValue(responseHeaders, 'set-cookie') === undefined) {
    const setCookie = setCookieHeaderOf(response?.cookies)
    if (setCookie) responseHeaders['set-cookie'] = setCookie
  }
  if (response?.redirectURL && headerValue(responseHeaders, 'location') === undefined)
    responseHeaders.location = response.redirectURL
  const mimeType = response?.content?.mimeType || headerValue(responseHeaders, 'content-type') || ''
  if (mimeType && headerValue(responseHeaders, 'content-type') === undefined && status)
    responseHeaders['content-type'] = mimeType
  const method = request.method.toUpperCase()
  const startedAt = Date.parse(entry.startedDateTime)
  return {
    id: `exc_${seq}`,
    seq,
    method,
    url: request.url,
    requestHeaders,
    requestBody: requestBodyOf(request.postData, requestHeaders, options.maxBodyBytes),
    status,
    responseHeaders,
    responseBody: status ? responseBodyOf(response.content, mimeType, options.maxBodyBytes) : null,
    resourceType: inferResourceType({
      chromeType: typeof entry._resourceType === 'string' ? entry._resourceType : undefined,
      method,
      url: request.url,
      requestHeaders,
      mimeType,
    }),
    startedAt: Number.isNaN(startedAt) ? options.fallbackStartedAt : startedAt,
    durationMs: Number.isFinite(entry.time) && entry.time > 0 ? Math.round(entry.time) : 0,
    pageUrl: '',
  }
}

function responseBodyOf(
  content: HarContent | undefined,
  mimeType: string,
  maxBodyBytes: number,
): Body | null {
  if (!content || typeof content.text !== 'string') return null
  // Chrome writes `text: ""` for a body it did not keep; only a declared size of 0 means empty.
  if (content.text === '' && content.size > 0) return null
  if (content.encoding === 'base64') {
    const bytes = Buffer.from(content.text, 'base64')
    return bytes.length > maxBodyBytes ? null : encodeBody(bytes, mimeType)
  }
  if (content.text.length > maxBodyBytes) return null
  return { text: content.text, encoding: 'utf8' }
}

function requestBodyOf(
  postData: HarPostData | undefined,
  headers: Record<string, string>,
  maxBodyBytes: number,
): Body | null {
  if (!postData) return null
  const mimeType = postData.mimeType || headerValue(headers, 'content-type') || ''
  if (mimeType && headerValue(headers, 'content-type') === undefined)
    headers['content-type'] = mimeType
  let text: string | null = null
  if (typeof postData.text === 'string') text = postData.text
  else if (Array.isArray(postData.params)) text = paramsBody(postData.params, mimeType)
  if (text === null || text.length > maxBodyBytes) return null
  if (postData._encoding === 'base64') return { text, encoding: 'base64' }
  return { text, encoding: 'utf8' }
}

/** Rebuilds a form body from `postData.params` when a writer gave only those (HAR 1.2 allows it). */
function paramsBody(params: NonNullable<HarPostData['params']>, mimeType: string): string {
  const boundary = /boundary="?([^";]+)"?/i.exec(mimeType)?.[1]
  if (/^multipart\/form-data/i.test(mimeType) && boundary) {
    const parts = params.map((p) => {
      const file = p.fileName ? `; filename="${p.fileName}"` : ''
      const type = p.contentType ? `\r\nContent-Type: ${p.contentType}` : ''
      return `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}${type}\r\n\r\n${p.value ?? ''}\r\n`
    })
    return `${parts.join('')}--${boundary}--\r\n`
  }
  return params
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value ?? '')}`)
    .join('&')
}
