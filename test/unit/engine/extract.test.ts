import { describe, expect, it } from 'vitest'
import { extractValue, filterResult, lookupMiss } from '../../../src/main/engine/extract'
import type { Outcome, SiteResponse } from '../../../src/main/engine/outcome'
import type { ResultShape } from '../../../src/shared/toolSpec'

const flows: SiteResponse = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    rev: 'r1',
    flows: [
      { id: 'a1', name: 'run nightly import' },
      { id: 'a2', name: 'refresh reports cache' },
    ],
  }),
}

describe('extractValue', () => {
  it('reads positions as before and lookups by the input in scope', () => {
    expect(extractValue(flows, { name: 'id', from: 'json', path: 'flows[1].id' })).toBe('a2')
    const lookup = { name: 'id', from: 'json' as const, path: 'flows[?name=={{input.p0}}].id' }
    expect(extractValue(flows, lookup, { 'input.p0': 'run nightly import' })).toBe('a1')
    expect(extractValue(flows, lookup, { 'input.p0': 'nothing' })).toBeUndefined()
    expect(extractValue(flows, lookup)).toBeUndefined()
  })
})

describe('filterResult', () => {
  const shape: ResultShape = {
    kind: 'json',
    filter: { path: 'flows', fields: ['name'], input: 'p0' },
  }
  const ok: Outcome = { ok: true, result: JSON.parse(flows.body) as unknown }

  it('keeps the records holding the term', () => {
    const out = filterResult(ok, shape, { 'input.p0': 'Reports' })
    expect(out).toEqual({
      ok: true,
      result: { rev: 'r1', flows: [{ id: 'a2', name: 'refresh reports cache' }] },
    })
  })

  it('passes failures, other shapes and a missing term through unchanged', () => {
    const failed: Outcome = { ok: false, code: 'not_found', message: 'gone' }
    expect(filterResult(failed, shape, { 'input.p0': 'x' })).toBe(failed)
    expect(filterResult(ok, { kind: 'json' }, { 'input.p0': 'x' })).toBe(ok)
    expect(filterResult(ok, undefined, { 'input.p0': 'x' })).toBe(ok)
    expect(filterResult(ok, shape, {})).toBe(ok)
  })
})

describe('lookupMiss', () => {
  const lookup = { name: 'id', from: 'json' as const, path: 'flows[?name=={{input.p0}}].id' }

  it('says the input names nothing when the list holds no such record', () => {
    expect(lookupMiss(flows, lookup, { 'input.p0': 'nope' }, 'GET /flows')).toEqual({
      ok: false,
      code: 'not_found',
      message: 'No record of GET /flows has name "nope": check the name.',
    })
  })

  it('leaves positions, and answers without the list, to the drift check', () => {
    expect(lookupMiss(flows, { ...lookup, path: 'flows[7].id' }, {}, 'GET /flows')).toBeNull()
    const page = { ...flows, body: '<html>Sign in</html>' }
    expect(lookupMiss(page, lookup, { 'input.p0': 'x' }, 'GET /flows')).toBeNull()
  })
})
