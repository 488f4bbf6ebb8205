import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from '../../unit/compiler/traceBuilder'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, send } from '../../fixtures/harness/http'

/**
 * A flow editor's server as Node-RED answers it (issue 9 items 8 and 10): `GET /flows` lists the
 * nodes (their ids say nothing of their names), `POST /inject/<id>` fires one and answers `OK`,
 * and `GET /tiddlers.json` a wiki's tiddlers, which the page searches in the browser. Tools are
 * compiled from hand-made recordings against this server, saved in a real core and called over
 * surface A with another name or term than the one recorded.
 */
const FLOWS = [
  { id: 'tab0000000001', type: 'tab', label: 'Nightly import' },
  { id: 'a1a0000000000002', type: 'inject', name: 'refresh reports cache', z: 'tab0000000001' },
  { id: 'a1a0000000000001', type: 'inject', name: 'run nightly import', z: 'tab0000000001' },
  { id: 'a1a0000000000003', type: 'inject', name: 'Rebuild [search] index', z: 'tab0000000001' },
]
const TIDDLERS = [
  { title: 'Recipe Lentil Soup', tags: 'food' },
  { title: 'Recipe Pancakes', tags: 'food' },
  { title: 'Garden Notes', tags: 'home' },
  { title: 'Meeting Notes', tags: 'Work' },
]

let server: Server
let origin = ''
const injected: string[] = []
let h: Harness

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (req.method === 'GET' && path === '/flows') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ rev: 'r1', flows: FLOWS }))
    } else if (req.method === 'POST' && path?.startsWith('/inject/')) {
      const id = path.slice('/inject/'.length)
      const known = FLOWS.some((n) => n.id === id && n.type === 'inject')
      if (known) injected.push(id)
      res.writeHead(known ? 200 : 404, { 'content-type': 'text/plain' })
      res.end(known ? 'OK' : 'Not Found')
    } else if (req.method === 'GET' && path === '/tiddlers.json') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(TIDDLERS))
    } else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  h = await startHarness()
})

afterAll(async () => {
  await h.close()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** A recording without session cookies (this server has no login). */
function withoutCookies(trace: Trace): Trace {
  for (const e of trace.exchanges) delete e.requestHeaders.cookie
  return trace
}

function compileAndSave(trace: Trace, toolId: string): ToolSpec {
  const result = compileTrace(trace, { toolId, now: Date.now() })
  if (!result.ok) throw new Error(result.explanation.reason)
  const tool: ToolSpec = { ...result.candidate, status: 'verified' }
  h.core.store.tools.save(tool)
  return tool
}

/** Calls `tool` over surface A by input names; a write's approval is given. The finished run. */
async function call(tool: ToolSpec, body: Record<string, unknown>): Promise<Run> {
  const answer = await callTool<Run>(h.base, h.key, tool, body)
  const asked = answer.body.requirements?.find((r) => r.kind === 'approval')
  if (answer.status !== 202 || !asked) {
    expect(answer.status).toBe(200)
    return answer.body
  }
  const done = await send<Run>(h.base, 'POST', `/api/v1/runs/${answer.body.runId}/responses`, {
    key: h.key,
    json: {
      stateRevision: answer.body.stateRevision,
      answers: [{ requirementId: asked.id, approve: true }],
    },
  })
  expect(done.status).toBe(200)
  return done.body
}

describe('a lookup by name, run', () => {
  it('fires the node named by the input, whatever its position', async () => {
    const trace = withoutCookies(
      traceBuilder(origin)
        .exchange('GET', '/flows?_=1795593492232', { response: { rev: 'r1', flows: FLOWS } })
        .exchange('POST', '/inject/a1a0000000000001', {
          body: {},
          mime: 'text/plain',
          responseText: 'OK',
        })
        .build('trigger the inject node "run nightly import" by hand'),
    )
    const tool = compileAndSave(trace, '00000000-0000-4000-8000-00000000c001')
    expect(tool.steps[0]!.extract[0]!.path).toBe('flows[?name=={{input.p0}}].id')

    injected.length = 0
    expect((await call(tool, { name: 'refresh reports cache' })).status).toBe('succeeded')
    expect((await call(tool, { name: 'Rebuild [search] index' })).status).toBe('succeeded')
    expect((await call(tool, { name: 'Run Nightly Import' })).status).toBe('succeeded')
    expect(injected).toEqual(['a1a0000000000002', 'a1a0000000000003', 'a1a0000000000001'])
  })

  it('fails not_found when no record has the name, and sends nothing', async () => {
    const tool = h.core.store.tools.get('00000000-0000-4000-8000-00000000c001')!
    injected.length = 0
    const run = await call(tool, { name: 'no such node' })
    expect(run.status).toBe('failed')
    expect(run.error).toMatchObject({
      code: 'not_found',
      message: 'No record of GET /flows has name "no such node": check the name.',
    })
    expect(injected).toEqual([])
  })
})

describe('a search done in the page, run', () => {
  it('keeps the records holding the term, any case; all of them without one', async () => {
    const trace = withoutCookies(
      traceBuilder(origin)
        .exchange('GET', '/tiddlers.json', { response: TIDDLERS })
        .fill('Recipe', { name: 'search', label: 'Search' })
        .build('search the wiki for Recipe'),
    )
    const tool = compileAndSave(trace, '00000000-0000-4000-8000-00000000c002')
    expect(tool.result).toMatchObject({ kind: 'json', filter: { path: '', fields: ['title'] } })

    const notes = await call(tool, { query: 'NOTES' })
    expect(notes.status).toBe('succeeded')
    expect(notes.result).toEqual([TIDDLERS[2], TIDDLERS[3]])
    const none = await call(tool, { query: 'quantum' })
    expect(none.status).toBe('succeeded')
    expect(none.result).toEqual([])
    expect((await call(tool, {})).result).toEqual(TIDDLERS)
  })
})
