import { randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ToolSpec } from '../../../src/shared/toolSpec'

interface SeenRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

export interface SecretSite {
  url: string
  /** host:port, as a tool's `siteHost`. */
  host: string
  /** Every request the site received, in order. */
  seen: SeenRequest[]
  close(): Promise<void>
}

/**
 * A site on 127.0.0.1 that wants an API key: `GET /api/items` answers 200 with items (and echoes
 * the key it got, as careless sites do) when `x-api-key` is `expectedKey`, else 401.
 */
export async function startSecretSite(expectedKey: string): Promise<SecretSite> {
  const seen: SeenRequest[] = []
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    const ok = req.headers['x-api-key'] === expectedKey
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify(
        ok
          ? { items: [{ id: 1, name: 'lamp' }], echo: `key ${req.headers['x-api-key']}` }
          : { error: 'bad key' },
      ),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * A verified read tool of the site whose request carries `{{secret:<secretName>}}` in a header
 * and in the query string (so both the sent headers and the kept URL are exercised).
 */
export function secretTool(
  site: SecretSite,
  secretName: string,
  name = 'items__get_items',
): ToolSpec {
  const now = Date.now()
  return {
    id: randomUUID(),
    siteHost: site.host,
    name,
    capabilityId: `${site.host}/${name}`,
    intent: 'list the items',
    description: 'Lists the items of the site.',
    version: '2026.11.23',
    mutating: false,
    status: 'verified',
    inputs: { type: 'object', properties: {}, required: [] },
    steps: [
      {
        id: 'target',
        request: {
          method: 'GET',
          url: `${site.url}/api/items?key={{secret:${secretName}}}`,
          headers: { 'x-api-key': `{{secret:${secretName}}}` },
          body: null,
        },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'items', type: 'array' }],
    },
    via: 'http',
    evidence: {
      traceId: 'trc_secret_site',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: now,
    updatedAt: now,
  }
}
