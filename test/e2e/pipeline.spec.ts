import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { createCore, type Core } from '../../src/main/core'
import { searchRecords, startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'

let site: DirectorySite
let core: Core
let base: string
let home: string

test.beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-e2e-'))
  site = await startDirectorySite()
  core = createCore({ home, port: 0, headless: true, rendererDir: null })
  base = await core.listen()
})

test.afterEach(async () => {
  await core.close()
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

test('records a search by clicking, compiles POST /api/search, verifies it, and calls it with another query', async () => {
  const state = await core.recordings.start({
    url: `${site.url}/`,
    intent: 'search the AI tools directory by keyword',
  })
  const page = core.recordings.recording(state.sessionId)!.page
  // The scripted person: type a query into the site's search box and submit.
  await page.getByLabel('Search AI tools').fill('writing')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.locator('#results li')).toHaveCount(12)
  const result = await core.recordings.stop(state.sessionId)

  expect(result.explanation).toBeNull()
  const candidate = result.candidate!
  const target = candidate.steps.at(-1)!.request
  expect(target.method).toBe('POST')
  expect(new URL(target.url).pathname).toBe('/api/search')
  expect(candidate.inputs.properties.query).toMatchObject({ 'x-slot': 'p0', type: 'string' })
  expect(candidate.inputs.required).toEqual(['query'])
  expect(candidate.status).toBe('candidate')
  // Noise is never chosen, not even as the runner-up.
  const trace = core.store.traces.get(result.traceId)!
  const noise = trace.exchanges.filter((e) => /\/collect|\/locales\//.test(e.url))
  expect(noise.length).toBeGreaterThan(0)
  expect(noise.map((e) => e.id)).not.toContain(candidate.evidence.targetExchangeId)

  const key = core.store.keys.create(
    { id: 'key_e2e', tenant: 'local', label: 'e2e' },
    Date.now(),
  ).key
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  // Verify: the first execution of the candidate.
  const verify = await fetch(`${base}/v1/tools/${candidate.id}/execute`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': 'verify-e2e-1' },
    body: JSON.stringify({ inputs: { p0: 'writing' } }),
  })
  const verified = (await verify.json()) as { run: { status: string }; tool: { status: string } }
  expect(verified.run.status).toBe('succeeded')
  expect(verified.tool.status).toBe('verified')

  const call = await fetch(`${base}/api/v1/sites/${candidate.siteHost}/call/${candidate.name}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: 'image' }),
  })
  expect(call.status).toBe(200)
  const run = (await call.json()) as { status: string; result: unknown; runId: string }
  expect(run.status).toBe('succeeded')
  expect(run.runId).toMatch(/^lrun_/)
  expect(run.result).toEqual(
    searchRecords(site.records, { query: 'image', verified: false, page: 1, perPage: 12 }),
  )
})
