import { describe, expect, it } from 'vitest'
import { extractValue, filterResult } from '../../../src/main/engine/extract'
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
