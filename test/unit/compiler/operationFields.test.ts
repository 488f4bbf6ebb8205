/**
 * Issue 24 kind 1 when the operation sits in a query field no list names (a media server's
 * `GET /content/interface?req_type=…` for reads and writes alike), with XML answers: the field is
 * learned from the trace (its value decides which other fields a call sends), so each operation
 * is its own endpoint and a constant; a GET API call whose operation removes writes; and the
 * record the person picked is looked up in the XML list an earlier call answered. A lookup read
 * added after tracing takes the login-bound values of the target (header or query).
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { learnOperationFields, operationOf } from '../../../src/main/compiler/operation'
import { requestValues } from '../../../src/main/compiler/requestValues'
import { withBoundCredentials } from '../../../src/main/compiler/stepTemplate'
import { extractValue } from '../../../src/main/engine/extract'
import { renderRequest } from '../../../src/main/engine/template'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c3', now: Date.UTC(2026, 10, 29) }

const ITEMS = `<?xml version="1.0" encoding="UTF-8"?>
<root success="1"><items parent_id="123" total_matches="3"><item id="131"><title>Beach Day.jpg</title></item><item id="124"><title>Birthday Cake.jpg</title></item><item id="128"><title>Picnic.jpg</title></item></items></root>`
const CONTAINERS = `<?xml version="1.0"?><root success="1"><containers parent_id="108"><container id="123" child_count="3">Family</container><container id="109" child_count="3">Garden</container></containers></root>`
const DONE = `<?xml version="1.0"?><root success="1"><update_ids pending="0"/></root>`

/** Opens a folder, lists its photos, then removes the one clicked (all through one URL). */
function removeTrace(intent: string): Trace {
  const api = '/content/interface?return_type=xml&sid=5f0c2a9e-77aa-4b51-9d1e-0c5e3ab7d001'
  const xml = (responseText: string) => ({ responseText, mime: 'text/xml', type: 'xhr' })
  return traceBuilder('http://127.0.0.1:49152')
    .exchange('GET', `${api}&req_type=containers&parent_id=108&select_it=`, xml(CONTAINERS))
    .exchange('GET', `${api}&req_type=items&parent_id=123&start=0&count=25`, xml(ITEMS))
    .exchange('GET', `${api}&req_type=void&updates=get`, xml(DONE))
    .click('remove this')
    .exchange('GET', `${api}&req_type=remove&object_id=128&all=0`, xml(DONE))
    .exchange('GET', `${api}&req_type=items&parent_id=123&start=0&count=25`, xml(ITEMS))
    .build(intent)
}

describe('an operation field learned from the trace', () => {
  it('is the field whose value decides the other fields, whatever its name', () => {
    const trace = removeTrace('remove the photo Picnic.jpg')
    learnOperationFields(trace.exchanges)
    const remove = trace.exchanges[3]!
    expect(operationOf(remove)).toBe('req_type=remove')
    expect(
      requestValues(remove)
        .filter((v) => v.operation)
        .map((v) => v.key),
    ).toEqual(['req_type'])
  })

  it('is a route a front controller dispatches on, its home route included', () => {
    const trace = traceBuilder()
      .exchange('GET', '/index.php?route=/&server=1')
      .exchange('GET', '/index.php?route=/sql&db=shop&table=orders&pos=0')
      .exchange('GET', '/index.php?route=/table/search&db=shop&table=orders')
      .exchange('GET', '/index.php?route=/sql&db=shop&table=items&pos=0')
      .build('browse the orders table')
    learnOperationFields(trace.exchanges)
    expect(trace.exchanges.map(operationOf)).toEqual([
      'route=/',
      'route=/sql',
      'route=/table/search',
      'route=/sql',
    ])
  })

  it('is not learned from a file path the calls send, however the other fields vary', () => {
    const trace = traceBuilder()
      .exchange('GET', '/browse?dir=/srv/media/Music/Albums/Live')
      .exchange('GET', '/browse?dir=/srv/media/Photos&sort=name')
      .exchange('GET', '/browse?dir=/srv/media/Photos/Holidays/Alps/Day&sort=name&page=2')
      .build('browse my music')
    learnOperationFields(trace.exchanges)
    expect(trace.exchanges.map(operationOf)).toEqual([null, null, null])
  })

  it('is not learned from a field that only filters (the same fields whatever its value)', () => {
    const trace = traceBuilder()
      .exchange('GET', '/api/list?sort=name&page=1&state=open')
      .exchange('GET', '/api/list?sort=date&page=2&state=closed')
      .exchange('GET', '/api/list?sort=name&page=3&state=all')
      .build('list the open tickets')
    learnOperationFields(trace.exchanges)
    expect(trace.exchanges.map(operationOf)).toEqual([null, null, null])
  })
})

describe('a remove sent as a GET to one URL of many operations, picked from an XML list', () => {
  const result = compileTrace(
    removeTrace('remove the photo Picnic.jpg from the Family folder'),
    options,
  )
  if (!result.ok) throw new Error(result.explanation.reason)
  const tool = result.candidate
  const target = tool.steps.at(-1)!

  it('targets the remove, not the list sent after it, and says it writes', () => {
    expect(target.request.url).toContain('req_type=remove')
    expect(tool.mutating).toBe(true)
  })

  it('looks the photo up by its title in the XML list read first, sent by the input', () => {
    const read = tool.steps[0]!
    expect(read.request.url).toContain('req_type=items')
    const extractor = read.extract[0]!
    expect(extractor.from).toBe('xml')
    const slot = Object.entries(tool.inputs.properties).find(([, p]) => p.default === 'Picnic.jpg')
    expect(slot).toBeDefined()
    const scope = { [`input.${slot![1]['x-slot']}`]: 'Birthday Cake.jpg' }
    const answer = { status: 200, headers: { 'content-type': 'text/xml' }, body: ITEMS }
    const id = extractValue(answer, extractor, scope)
    expect(id).toBe('124')
    const rendered = renderRequest(target.request, {
      ...scope,
      [`step.${read.id}.${extractor.name}`]: id,
      'login.sid': 'fresh-session',
    })
    expect(rendered.url).toContain('object_id=124')
    expect(rendered.url).not.toContain('128')
  })
})

describe('a lookup read added after tracing', () => {
  it('takes the login-bound header and query values of the target, and keeps its own', () => {
    const step = {
      id: 'd2',
      exchangeId: 'exc_2',
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:49152/content/interface?req_type=items&sid=recorded-sid&parent_id=123#top',
        headers: { Authorization: 'Bearer recorded-token', accept: 'text/xml' },
        body: null,
      },
      extract: [],
    }
    const target = {
      id: 'target',
      exchangeId: 'exc_4',
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:49152/content/interface?req_type=remove&sid={{login.sid}}&object_id=1',
        headers: { authorization: 'Bearer {{login.token}}', 'x-step': '{{step.d1.token}}' },
        body: null,
      },
      extract: [],
    }
    const bound = withBoundCredentials(step, target)
    expect(bound.request.url).toBe(
      'http://127.0.0.1:49152/content/interface?req_type=items&sid={{login.sid}}&parent_id=123#top',
    )
    expect(bound.request.headers).toEqual({
      Authorization: 'Bearer {{login.token}}',
      accept: 'text/xml',
    })
  })
})

describe('a control link answered by a redirect', () => {
  it('is the write, not the page it sends the browser back to', () => {
    const trace = traceBuilder('http://127.0.0.1:9001')
      .exchange('GET', '/', {
        responseText: '<html><title>Supervisor</title></html>',
        mime: 'text/html',
        type: 'document',
      })
      .click('Stop')
      .exchange('GET', '/index.html?processname=web%3Aapi&action=stop', {
        status: 301,
        type: 'document',
        mime: 'text/html',
      })
      .exchange('GET', '/?message=Process%20web%3Aapi%20stopped', {
        responseText: '<html><title>Supervisor</title><p>Process web:api stopped</p></html>',
        mime: 'text/html',
        type: 'document',
      })
      .build('stop the web:api program')
    trace.exchanges[1]!.responseHeaders.location = '/?message=Process%20web%3Aapi%20stopped'
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const target = result.candidate.steps.at(-1)!
    expect(target.request.url).toMatch(/\/index\.html\?processname=\{\{input\.p0\}\}&action=stop$/)
    expect(result.candidate.mutating).toBe(true)
    expect(result.candidate.inputs.properties.processname?.default).toBe('web:api')
  })
})

describe('an API call whose path names a destructive act', () => {
  it('writes even as a GET, and is the target of the act the intent asks', () => {
    const trace = traceBuilder('http://127.0.0.1:11334')
      .exchange('GET', '/history', {
        response: { rows: [{ id: 'm1' }, { id: 'm2' }] },
        type: 'xhr',
      })
      .click('Reset')
      .exchange('GET', '/historyreset', { response: { success: true }, type: 'xhr' })
      .exchange('GET', '/history', { response: { rows: [] }, type: 'xhr' })
      .build('clear the scan history')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.url).toMatch(/\/historyreset$/)
    expect(result.candidate.mutating).toBe(true)
  })

  it('writes when the act is followed by the record it acts on (/dashboard/delete/<name>)', () => {
    const trace = traceBuilder()
      .exchange('POST', '/dashboard/find/', {
        response: { dashboards: [{ name: 'Old plan' }, { name: 'Web overview' }] },
        type: 'xhr',
      })
      .click('Delete')
      .exchange('GET', '/dashboard/delete/Old%20plan?_dc=1764400000000', {
        response: { success: true },
        type: 'xhr',
      })
      .build("delete the dashboard 'Old plan'")
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.url).toContain('/dashboard/delete/')
    expect(result.candidate.mutating).toBe(true)
  })

  it('leaves a path that only ends like one (a preset) a read', () => {
    const trace = traceBuilder()
      .exchange('GET', '/api/preset', {
        response: { presets: [{ id: 1, name: 'warm' }] },
        type: 'xhr',
      })
      .build('list the presets')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.mutating).toBe(false)
  })
})
