/**
 * Issue 26 item 2.5: a tool recorded on the demo shop (mounted on the local service) keeps
 * working after the service starts on another port: it is re-pointed to the address the service
 * listens on now; a tool of another local site is left alone. A real core, its SQLite file and
 * the service on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import type { ToolSpec } from '../../../src/shared/toolSpec'

let core: Core
let home: string
let origin: string

/** A page read of the given URL, saved as if recorded at that address on another day. */
function pageTool(name: string, url: string): ToolSpec {
  const host = new URL(url).host
  return {
    id: randomUUID(),
    siteHost: host,
    name,
    capabilityId: `${host}/${name}`,
    intent: 'open the demo shop',
    description: 'open the demo shop',
    version: '2026.1.1',
    mutating: false,
    status: 'verified',
    inputs: { type: 'object', properties: {}, required: [] },
    steps: [
      {
        id: 'target',
        exchangeId: 'exc_1',
        request: {
          method: 'GET',
          url,
          headers: { referer: `${new URL(url).origin}/demo/orders/` },
          body: null,
        },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: { status: [200, 299], mimeType: 'text/html', required: [] },
    via: 'http',
    evidence: {
      traceId: 'trc_demo',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 1,
    updatedAt: 1,
  }
}

const demo = pageTool('orders__open_spa', 'http://127.0.0.1:9/demo/orders/spa/orders')
const other = pageTool('wiki__open_page', 'http://127.0.0.1:9/wiki/Main_Page')

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-demo-'))
  const first = createCore({ home, port: 0, rendererDir: null, keychain: null })
  first.store.tools.save(demo)
  first.store.tools.save(other)
  await first.close()
  core = createCore({ home, port: 0, rendererDir: null, keychain: null })
  origin = await core.listen()
})

afterAll(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

describe('demo-shop tools after the service moved to another port', () => {
  it('are re-pointed to the address the service listens on now, and run', async () => {
    const moved = core.store.tools.get(demo.id)!
    expect(moved.siteHost).toBe(new URL(origin).host)
    expect(moved.steps[0]!.request.url).toBe(`${origin}/demo/orders/spa/orders`)
    expect(moved.steps[0]!.request.headers.referer).toBe(`${origin}/demo/orders/`)
    const run = await core.engine.start(moved, {}, { tenant: LOCAL_TENANT }).done
    expect(run.error?.message ?? null).toBeNull()
    expect(run.status).toBe('succeeded')
  })

  it("leave another local site's tools alone", () => {
    expect(core.store.tools.get(other.id)).toMatchObject({
      siteHost: '127.0.0.1:9',
      steps: [{ request: { url: 'http://127.0.0.1:9/wiki/Main_Page' } }],
    })
  })
})
