import type { Har, HarEntry } from '../../../src/main/recorder/har'

interface Step {
  method?: string
  path: string
  resourceType: string
  headers?: Record<string, string>
  body?: string
}

/**
 * A Chrome-style HAR of a person searching the directory fixture site for `query`, built from
 * real requests to the running site (page, assets, dictionary, beacon, then the search), so its
 * bodies are what the site answers. It holds no actions: HARs never do.
 */
export async function directorySearchHar(siteUrl: string, query: string): Promise<Har> {
  const page = `${siteUrl}/`
  const steps: Step[] = [
    { path: '/', resourceType: 'document', headers: { accept: 'text/html' } },
    { path: '/static/site.css', resourceType: 'stylesheet' },
    { path: '/static/site.js', resourceType: 'script' },
    { path: '/static/app.js', resourceType: 'script' },
    { path: '/locales/en.json', resourceType: 'fetch', headers: { accept: 'application/json' } },
    { method: 'POST', path: '/collect', resourceType: 'ping', body: '{"event":"pageview"}' },
    {
      method: 'POST',
      path: '/collect',
      resourceType: 'ping',
      body: JSON.stringify({ event: 'search', q: query }),
    },
    {
      method: 'POST',
      path: '/api/search',
      resourceType: 'fetch',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, verified: false, page: 1, perPage: 12 }),
    },
  ]
  const entries: HarEntry[] = []
  let clock = Date.parse('2024-06-01T09:00:00.000Z')
  for (const step of steps) {
    const method = step.method ?? 'GET'
    const url = `${siteUrl}${step.path}`
    const requestHeaders: Record<string, string> = {
      ...(step.headers ?? {}),
      ...(step.path === '/' ? {} : { referer: page }),
    }
    const answer = await fetch(url, {
      method,
      headers: requestHeaders,
      ...(step.body ? { body: step.body } : {}),
    })
    const text = await answer.text()
    const mimeType = answer.headers.get('content-type') ?? ''
    entries.push({
      pageref: 'page_1',
      startedDateTime: new Date(clock).toISOString(),
      time: 5,
      request: {
        method,
        url,
        httpVersion: 'http/1.1',
        cookies: [],
        headers: Object.entries(requestHeaders).map(([name, value]) => ({ name, value })),
        queryString: [],
        ...(step.body
          ? {
              postData: {
                mimeType: requestHeaders['content-type'] ?? 'text/plain',
                text: step.body,
              },
            }
          : {}),
        headersSize: -1,
        bodySize: step.body?.length ?? 0,
      },
      response: {
        status: answer.status,
        statusText: answer.statusText,
        httpVersion: 'http/1.1',
        cookies: [],
        headers: [...answer.headers].map(([name, value]) => ({ name, value })),
        content: { size: text.length, mimeType, text },
        redirectURL: '',
        headersSize: -1,
        bodySize: text.length,
      },
      cache: {},
      timings: { send: 0, wait: 5, receive: 0 },
      _resourceType: step.resourceType,
    })
    clock += step.path === '/api/search' ? 1500 : 40
  }
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [
        {
          startedDateTime: new Date(Date.parse('2024-06-01T09:00:00.000Z')).toISOString(),
          id: 'page_1',
          title: page,
          pageTimings: { onContentLoad: 50, onLoad: 80 },
        },
      ],
      entries,
    },
  }
}
