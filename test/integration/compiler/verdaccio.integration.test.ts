import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { createCore, LOCAL_TENANT } from '../../../src/main/core'
import { SECRET_PLACEHOLDER } from '../../../src/main/recorder/redactSecrets'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Exchange, Trace } from '../../../src/shared/trace'
import { startVerdaccioSite, type VerdaccioSite } from '../../fixtures/sites/verdaccio'
import {
  DETAIL_PACKAGE,
  SEARCH_PICKED,
  SEARCH_TYPED,
  detailFlow,
  loginFlow,
  recordFlow,
  searchFlow,
} from '../../fixtures/sites/verdaccio/person'

// Verdaccio (the open-source npm registry, installed from npm) runs in this process on
// 127.0.0.1:<free port>; a scripted person drives its React UI in Chromium through our recorder.
const TEST_TIMEOUT = 60_000

let site: VerdaccioSite

beforeAll(async () => {
  site = await startVerdaccioSite()
}, 30_000)

afterAll(async () => {
  await site?.close()
})

const pathOf = (e: Exchange) => new URL(e.url).pathname

function exchangeAt(trace: Trace, method: string, path: string): Exchange | undefined {
  return trace.exchanges.find((e) => e.method === method && pathOf(e) === path)
}

function namesIn(exchange: Exchange): string[] {
  const records = JSON.parse(exchange.responseBody!.text) as Array<{ name: string }>
  return records.map((r) => r.name).sort()
}

/** Compiles a recorded trace as the app does (its own intent); fails the test on an explanation. */
function compileOk(trace: Trace): ToolSpec {
  const compiled = compileTrace(trace, { toolId: randomUUID(), now: Date.now() })
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.explanation, null, 1))
  return compiled.candidate
}

/**
 * Runs a tool with `inputs` (by slot name) through a real core's run engine against the live
 * Verdaccio, in a fresh data dir, and returns the final run.
 */
async function runThroughEngine(tool: ToolSpec, inputs: Record<string, unknown>) {
  const home = mkdtempSync(join(tmpdir(), 'sitecall-realsite-run-'))
  const core = createCore({ home, port: 0, rendererDir: null })
  try {
    core.store.tools.save(tool)
    return await core.engine.start(tool, inputs, { tenant: LOCAL_TENANT }).done
  } finally {
    await core.close()
    rmSync(home, { recursive: true, force: true })
  }
}

describe('Verdaccio web UI recorded by a scripted person', () => {
  it(
    'search: the typeahead asks GET /-/verdaccio/data/search/<typed>, whose answer lists the picked package',
    async () => {
      const trace = await recordFlow(site, searchFlow, 'trc_verdaccio_search')
      const search = exchangeAt(trace, 'GET', `/-/verdaccio/data/search/${SEARCH_TYPED}`)
      expect(search).toMatchObject({ status: 200, resourceType: 'fetch' })
      expect(namesIn(search!)).toEqual(['lunar-calendar', 'lunar-phase'])
      expect(trace.actions.find((a) => a.kind === 'fill')).toMatchObject({
        selector: '#search-header-suggest',
        role: 'combobox',
        value: SEARCH_TYPED,
      })
      expect(trace.actions.find((a) => a.kind === 'click')).toMatchObject({ role: 'option' })
      // Picking the suggestion opens the package page, whose data the UI fetches next.
      expect(exchangeAt(trace, 'GET', `/-/verdaccio/data/sidebar/${SEARCH_PICKED}`)?.status).toBe(
        200,
      )
    },
    TEST_TIMEOUT,
  )

  it(
    'search: compiles to GET /-/verdaccio/data/search/{query} with the typed value as a path slot; run with "tidy" it returns tidy-csv',
    async () => {
      const trace = await recordFlow(site, searchFlow, 'trc_verdaccio_search_tool')
      const tool = compileOk(trace)
      expect(tool.steps).toHaveLength(1)
      expect(tool.steps[0]!.request).toMatchObject({
        method: 'GET',
        url: `${site.url}/-/verdaccio/data/search/{{input.p0}}`,
      })
      expect(tool.inputs.required).toEqual(['query'])
      expect(tool.inputs.properties['query']).toMatchObject({
        'x-in': 'path',
        'x-path': '4',
        type: 'string',
      })
      expect(tool.mutating).toBe(false)

      const run = await runThroughEngine(tool, { query: 'tidy' })
      expect(run.status).toBe('succeeded')
      expect((run.result as Array<{ name: string }>).map((r) => r.name)).toEqual(['tidy-csv'])
    },
    TEST_TIMEOUT,
  )

  it(
    'detail: opening a package records its sidebar (packument) and readme requests',
    async () => {
      const trace = await recordFlow(site, detailFlow, 'trc_verdaccio_detail')
      const sidebar = exchangeAt(trace, 'GET', `/-/verdaccio/data/sidebar/${DETAIL_PACKAGE}`)
      expect(sidebar).toMatchObject({ status: 200, resourceType: 'fetch' })
      const packument = JSON.parse(sidebar!.responseBody!.text) as {
        latest: { name: string; version: string }
      }
      expect(packument.latest).toMatchObject({ name: DETAIL_PACKAGE, version: '2.0.3' })
      const readme = exchangeAt(trace, 'GET', `/-/verdaccio/data/package/readme/${DETAIL_PACKAGE}`)
      expect(readme?.responseBody?.text).toContain('Reads messy CSV')
      expect(trace.actions.find((a) => a.kind === 'click')).toMatchObject({
        role: 'link',
        name: DETAIL_PACKAGE,
      })
    },
    TEST_TIMEOUT,
  )

  it(
    'detail: compiles to GET /-/verdaccio/data/sidebar/{package} with the name as a slot; run with another package it returns that package',
    async () => {
      const trace = await recordFlow(site, detailFlow, 'trc_verdaccio_detail_tool')
      const tool = compileOk(trace)
      expect(tool.steps).toHaveLength(1)
      expect(tool.steps[0]!.request).toMatchObject({
        method: 'GET',
        url: `${site.url}/-/verdaccio/data/sidebar/{{input.p0}}`,
      })
      expect(tool.inputs.required).toEqual(['package'])
      expect(tool.inputs.properties['package']).toMatchObject({ 'x-in': 'path', type: 'string' })

      const run = await runThroughEngine(tool, { package: SEARCH_PICKED })
      expect(run.status).toBe('succeeded')
      expect(run.result).toMatchObject({ latest: { name: SEARCH_PICKED } })
    },
    TEST_TIMEOUT,
  )

  it(
    'login: the form posts the user name; the password is nowhere in the stored trace; the target is POST /-/verdaccio/sec/login',
    async () => {
      const trace = await recordFlow(site, loginFlow, 'trc_verdaccio_login')
      const login = exchangeAt(trace, 'POST', '/-/verdaccio/sec/login')
      expect(login?.status).toBe(200)
      expect(JSON.parse(login!.requestBody!.text)).toEqual({
        username: site.user.name,
        password: SECRET_PLACEHOLDER,
      })
      expect(JSON.parse(login!.responseBody!.text)).toMatchObject({ token: expect.any(String) })
      expect(trace.actions.find((a) => a.selector === '#login--dialog-password')).toMatchObject({
        kind: 'fill',
        secret: true,
        value: null,
      })
      expect(JSON.stringify(trace)).not.toContain(site.user.password)

      // Stored in a real SQLite file: neither the row nor any byte of the files holds it.
      const home = mkdtempSync(join(tmpdir(), 'sitecall-realsite-'))
      const core = createCore({ home, port: 0, rendererDir: null })
      try {
        core.store.traces.save(trace)
        const stored = core.store.traces.get(trace.id)
        expect(stored?.exchanges).toHaveLength(trace.exchanges.length)
        expect(JSON.stringify(stored)).not.toContain(site.user.password)
        const compiled = compileTrace(stored!, { toolId: randomUUID(), now: Date.now() })
        expect(compiled.ok).toBe(true)
        if (!compiled.ok) return
        const { candidate } = compiled
        const target = stored!.exchanges.find((e) => e.id === candidate.evidence.targetExchangeId)
        expect(target && `${target.method} ${pathOf(target)}`).toBe('POST /-/verdaccio/sec/login')
        expect(JSON.stringify(candidate)).not.toContain(site.user.password)
        // A sign-in sends the saved login's credentials (issue 9 item 6): neither the password
        // nor the user name is an input, and no credential is baked into the tool.
        expect(Object.keys(candidate.inputs.properties)).toEqual([])
        expect(candidate.steps.at(-1)!.request.body).toMatchObject({
          kind: 'json',
          template: {
            username: `{{secret:login.${site.host.replace(':', '_')}.username}}`,
            password: `{{secret:login.${site.host.replace(':', '_')}.password}}`,
          },
        })
        expect(candidate.mutating).toBe(false)
        expect(JSON.stringify(candidate)).not.toContain(SECRET_PLACEHOLDER)
        core.store.tools.save(candidate)
      } finally {
        await core.close()
      }
      const password = Buffer.from(site.user.password, 'utf8')
      for (const file of readdirSync(home))
        expect(readFileSync(join(home, file)).includes(password), file).toBe(false)
      rmSync(home, { recursive: true, force: true })
    },
    TEST_TIMEOUT,
  )
})
