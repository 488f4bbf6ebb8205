import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBrowserPool, type BrowserPool } from '../../../src/main/engine/browserPool'
import { createRenderedExecutor } from '../../../src/main/engine/renderedExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { NOTES, startNotesSite, type NotesSite } from '../../fixtures/sites/notes'

/** A notes search run in the browser, bound to the site's saved HTTP authentication login. */
function renderedSearch(site: NotesSite, scheme: 'basic' | 'digest'): ToolSpec {
  return {
    id: crypto.randomUUID(),
    siteHost: site.host,
    name: 'notes__search_notes',
    capabilityId: `${site.host}/notes__search_notes`,
    intent: 'search my notes',
    description: 'Searches the notes.',
    version: '2026.11.25',
    mutating: false,
    status: 'verified',
    inputs: {
      type: 'object',
      properties: { q: { type: 'string', 'x-slot': 'p0', 'x-in': 'query', 'x-path': 'q' } },
      required: ['q'],
    },
    steps: [
      {
        id: 'target',
        request: {
          method: 'GET',
          url: `${site.url}/api/notes?q={{input.p0}}`,
          headers: {},
          body: null,
        },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'notes', type: 'array' }],
    },
    via: 'rendered',
    login: { cookies: [], values: [], httpAuth: { scheme } },
    evidence: {
      traceId: 'trc_X',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
}

describe.each(['basic', 'digest'] as const)('a rendered run on a site behind HTTP %s', (scheme) => {
  let site: NotesSite
  let pool: BrowserPool
  beforeAll(async () => {
    site = await startNotesSite({ scheme })
    pool = createBrowserPool({ chromiumPath: () => '/usr/bin/chromium' })
  })
  afterAll(async () => {
    await pool.close()
    await site.close()
  })

  it('answers the challenge in the browser with the saved login and verifies the answer', async () => {
    const execute = createRenderedExecutor({ pool })
    const outcome = await execute(
      renderedSearch(site, scheme),
      { 'input.p0': 'lyon' },
      {
        login: { cookies: [], origins: [] },
        httpCredentials: async () => ({ username: site.username, password: site.password }),
      },
      AbortSignal.timeout(30_000),
    )
    expect(outcome).toMatchObject({ ok: true, result: { notes: [NOTES[2]] } })
    expect(site.requests.some((r) => r.path === '/api/notes?q=lyon' && r.accepted)).toBe(true)
  })

  it('fails without a saved login: the site never accepted a request', async () => {
    const before = site.requests.filter((r) => r.accepted).length
    const execute = createRenderedExecutor({ pool })
    const outcome = await execute(
      renderedSearch(site, scheme),
      { 'input.p0': 'lyon' },
      { login: { cookies: [], origins: [] } },
      AbortSignal.timeout(30_000),
    )
    expect(outcome.ok).toBe(false)
    expect(site.requests.filter((r) => r.accepted).length).toBe(before)
  })
})
