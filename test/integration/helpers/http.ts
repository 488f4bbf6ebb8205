import { request as httpRequest } from 'node:http'
import type { Run } from '../../../src/shared/run'
import type { DirectorySite } from '../../fixtures/sites/directory'

export interface Answer<T = unknown> {
  status: number
  headers: Headers
  body: T
}

export interface ErrorAnswerBody {
  error: { code: string; message: string; [extra: string]: unknown }
}

export interface SendOptions {
  /** Bearer value; omitted means no Authorization header. */
  key?: string
  headers?: Record<string, string>
  /** A JSON value to send (with content-type application/json). */
  json?: unknown
  /** A raw body sent as is (set the content-type in `headers`). */
  raw?: string
}

/** One real `fetch` to the local service; the answer's body parsed as JSON when it is JSON. */
export async function send<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  let body: string | undefined = options.raw
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json'
    body = JSON.stringify(options.json)
  }
  const res = await fetch(`${base}${path}`, { method, headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // Not JSON: the test sees the text.
  }
  return { status: res.status, headers: res.headers, body: parsed as T }
}

/** `POST /api/v1/sites/{site_host}/call/{tool_id}` with a JSON body (surface A). */
export function callTool<T = Run>(
  base: string,
  key: string | undefined,
  tool: { siteHost: string; name: string },
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  return send<T>(base, 'POST', `/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
    ...(key !== undefined ? { key } : {}),
    json: body,
    headers,
  })
}

/** Polls `GET /api/v1/runs/{runId}` until the run is final (HTTP 200); returns that answer. */
export async function pollRun(base: string, key: string, runId: string): Promise<Answer<Run>> {
  for (;;) {
    const answer = await send<Run>(base, 'GET', `/api/v1/runs/${runId}`, { key })
    if (answer.status !== 202) return answer
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * A GET with node:http, for headers `fetch` will not send as given (it always writes its own
 * `Host`). Resolves with the status and the parsed JSON body.
 */
export function rawGet(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, base)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** The site's `POST /api/search` requests, in arrival order. */
export function searchRequests(site: DirectorySite) {
  return site.requests.filter((r) => r.method === 'POST' && r.path === '/api/search')
}
