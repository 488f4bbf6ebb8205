import { STATUS_CODES } from 'node:http'
import { headerValue, mimeTypeOf, type Exchange, type Trace } from '../../../shared/trace'
import { cookiesOfHeader, cookiesOfSetCookie, headersToHar } from './headers'
import type { Har, HarEntry, HarPage } from './types'
import { safeUrl } from '../../../shared/safeJson'

export interface HarExportOptions {
  /** Sitecall's version, written as `log.creator.version`. */
  version: string
}

/**
 * A trace → HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/). One page per distinct page
 * URL (its title is the URL, as Chrome writes it); one entry per exchange in trace order with
 * request, response, `cache: {}`, timings (the whole duration as `wait`: the trace keeps no
 * phases) and Chrome's `_resourceType`. Base64 response bodies keep `content.encoding: 'base64'`;
 * a base64 request body carries `postData._encoding: 'base64'` (HAR has no field for it).
 */
export function traceToHar(trace: Trace, options: HarExportOptions): Har {
  const pages: HarPage[] = []
  const pageIds = new Map<string, string>()
  const pageOf = (exchange: Exchange): string => {
    const url = exchange.pageUrl || trace.startUrl
    let id = pageIds.get(url)
    if (!id) {
      id = `page_${pageIds.size + 1}`
      pageIds.set(url, id)
      pages.push({
        startedDateTime: isoOf(exchange.startedAt),
        id,
        title: url,
        pageTimings: { onContentLoad: -1, onLoad: -1 },
      })
    }
    return id
  }
  const entries = [...trace.exchanges]
    .sort((a, b) => a.seq - b.seq)
    .map((exchange) => entryOf(exchange, pageOf(exchange)))
  return {
    log: {
      version: '1.2',
      creator: { name: 'Sitecall', version: options.version },
      pages,
      entries,
    },
  }
}

function entryOf(exchange: Exchange, pageref: string): HarEntry {
  const requestType = headerValue(exchange.requestHeaders, 'content-type') ?? ''
  const responseType = headerValue(exchange.responseHeaders, 'content-type') ?? ''
  const body = exchange.responseBody
  const responseBytes = body ? Buffer.byteLength(body.text, body.encoding) : 0
  const requestBody = exchange.requestBody
  return {
    pageref,
    startedDateTime: isoOf(exchange.startedAt),
    time: Math.max(0, exchange.durationMs),
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      cookies: cookiesOfHeader(headerValue(exchange.requestHeaders, 'cookie')),
      headers: headersToHar(exchange.requestHeaders),
      queryString: queryOf(exchange.url),
      ...(requestBody
        ? {
            postData: {
              mimeType: requestType,
              text: requestBody.text,
              ...(requestBody.encoding === 'base64' ? { _encoding: 'base64' as const } : {}),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: requestBody ? Buffer.byteLength(requestBody.text, requestBody.encoding) : 0,
    },
    response: {
      status: exchange.status,
      statusText: exchange.status ? (STATUS_CODES[exchange.status] ?? '') : '',
      httpVersion: exchange.status ? 'HTTP/1.1' : '',
      cookies: cookiesOfSetCookie(headerValue(exchange.responseHeaders, 'set-cookie')),
      headers: headersToHar(exchange.responseHeaders),
      content: {
        size: responseBytes,
        mimeType: responseType || mimeTypeOf(exchange.responseHeaders),
        ...(body
          ? { text: body.text, ...(body.encoding === 'base64' ? { encoding: 'base64' } : {}) }
          : {}),
      },
      redirectURL: headerValue(exchange.responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: body ? responseBytes : -1,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: exchange.durationMs, receive: 0 },
    _resourceType: exchange.resourceType,
  }
}

function queryOf(url: string): Array<{ name: string; value: string }> {
  const params = safeUrl(url)?.searchParams ?? []
  return [...params].map(([name, value]) => ({ name, value }))
}

function isoOf(ms: number): string {
  return new Date(Number.isFinite(ms) && ms > 0 ? ms : 0).toISOString()
}
