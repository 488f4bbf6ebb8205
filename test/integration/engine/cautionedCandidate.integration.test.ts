/**
 * Issue 24 F: a candidate the compiler cautions about (its write may act on the record the
 * person recorded on) is asked about before anything is sent, even when the caller allowed writes;
 * a caller that cannot be asked is refused; once verified, the caution no longer stops a run.
 * A real HTTP server on 127.0.0.1 and a real core with its SQLite store.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import type { ToolSpec } from '../../../src/shared/toolSpec'

let server: Server
let core: Core
let home: string
let origin: string
const received: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"ok":true}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  home = mkdtempSync(join(tmpdir(), 'sitecall-caution-'))
  core = createCore({ home, port: 0, rendererDir: null, keychain: null })
})

afterAll(async () => {
  await core.close()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(home, { recursive: true, force: true })
})

let made = 0

function cautioned(status: ToolSpec['status']): ToolSpec {
  const now = Date.now()
  made++
  return {
    id: randomUUID(),
    siteHost: new URL(origin).host,
    name: `wiki__create_page_${made}`,
    capabilityId: `${new URL(origin).host}/create_page_${made}`,
    intent: 'create a wiki page',
    description: 'create a wiki page',
    version: '2026.1.1',
    mutating: true,
    status,
    inputs: {
      type: 'object',
      properties: { title: { type: 'string', 'x-slot': 'p0', 'x-in': 'body', 'x-path': 'title' } },
      required: ['title'],
    },
    steps: [
      {
        id: 'target',
        exchangeId: 'exc_1',
        request: {
          method: 'PUT',
          url: `${origin}/pages/Release%20notes`,
          headers: { 'content-type': 'application/json' },
          body: { kind: 'json', template: { title: '{{input.p0}}' } },
        },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: { status: [200, 299], mimeType: '*', required: [] },
    via: 'http',
    evidence: {
      traceId: 'trc_caution',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 0.9,
      signals: [],
      alternatives: [],
      caution:
        'The request keeps "Release notes" (path segment 2), a value you gave while recording, as a constant.',
    },
    createdAt: now,
    updatedAt: now,
  }
}

describe('a cautioned candidate', () => {
  it('asks for approval with the caution before sending, even with writes allowed', async () => {
    const tool = cautioned('candidate')
    core.store.tools.save(tool)
    const started = core.engine.start(
      tool,
      { title: 'Meeting minutes' },
      {
        tenant: LOCAL_TENANT,
        allowMutation: true,
      },
    )
    const run = await started.done
    expect(run.status).toBe('input_required')
    const approval = run.requirements.find((r) => r.kind === 'approval')
    expect(approval?.message).toContain('"Release notes"')
    expect(received).toEqual([])
  })

  it('refuses a caller that cannot be asked, naming the caution', () => {
    const tool = cautioned('candidate')
    core.store.tools.save(tool)
    expect(() =>
      core.engine.start(
        tool,
        { title: 'Meeting minutes' },
        {
          tenant: LOCAL_TENANT,
          allowMutation: true,
          mayAsk: false,
        },
      ),
    ).toThrow(/not verified yet.*Release notes/)
    expect(received).toEqual([])
  })

  it('runs once verified: the person approved what it sends', async () => {
    const tool = cautioned('verified')
    core.store.tools.save(tool)
    const run = await core.engine.start(
      tool,
      { title: 'Meeting minutes' },
      {
        tenant: LOCAL_TENANT,
        allowMutation: true,
      },
    ).done
    expect(run.status).toBe('succeeded')
    expect(received).toEqual(['PUT /pages/Release%20notes'])
  })
})
