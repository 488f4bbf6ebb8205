import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { inferScalarType } from '../../../src/main/compiler/observations'
import { options, withNoise } from './noise'
import { records, traceBuilder } from './traceBuilder'

const ok = (result: ReturnType<typeof compileTrace>) => {
  if (!result.ok) throw new Error(`${result.explanation.reason} ${result.explanation.missing}`)
  return result.candidate
}

describe('several observations', () => {
  it('makes the page a typed slot and keeps what never changed constant', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('GET', '/api/tools?q=writing&page=1&sort=top&ratio=0.5', {
        response: records('writing'),
      })
      .exchange('GET', '/api/tools?q=writing&page=2&sort=top&ratio=1.5', {
        response: records('writing'),
      })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(Object.keys(tool.inputs.properties).sort()).toEqual(['page', 'q', 'ratio'])
    expect(tool.inputs.properties.page).toMatchObject({
      type: 'integer',
      default: 1,
      'x-in': 'query',
    })
    expect(tool.inputs.properties.ratio).toMatchObject({ type: 'number', default: 0.5 })
    expect(tool.inputs.required).toEqual(['q'])
    expect(tool.steps.at(-1)!.request.url).toContain('sort=top')
    expect(tool.evidence.signals.map((s) => s.name)).toContain('several_observations')
  })

  it('infers booleans from a form body, and a select gives the enum', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .fill('pro', { name: 'plan', options: ['free', 'pro', 'team'] })
      .submit()
      .exchange('POST', '/api/search', {
        form: 'q=writing&plan=free&verified=false',
        response: records('writing'),
      })
      .exchange('POST', '/api/search', {
        form: 'q=writing&plan=pro&verified=true',
        response: records('writing'),
      })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(tool.inputs.properties.verified).toMatchObject({ type: 'boolean', default: false })
    expect(tool.inputs.properties.plan).toMatchObject({
      type: 'string',
      enum: ['free', 'pro', 'team'],
    })
    expect(tool.inputs.required).toEqual(['q', 'plan'])
  })

  it('treats two identical searches as one observation: every value stays a slot', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', {
        body: { query: 'writing', page: 1 },
        response: records('writing'),
      })
      .exchange('POST', '/api/search', {
        body: { query: 'writing', page: 1 },
        response: records('writing'),
      })
      .build()
    expect(Object.keys(ok(compileTrace(trace, options)).inputs.properties)).toEqual([
      'query',
      'page',
    ])
  })

  it('never makes a per-request timestamp or id a slot', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', {
        body: { query: 'writing', requestId: '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b' },
        response: records('writing'),
      })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(Object.keys(tool.inputs.properties)).toEqual(['query'])
  })

  it('types text values only when every value agrees', () => {
    expect(inferScalarType(['1', '2'], true)).toBe('integer')
    expect(inferScalarType(['1', '2.5'], true)).toBe('number')
    expect(inferScalarType(['007'], true)).toBe('string')
    expect(inferScalarType(['true', 'false'], true)).toBe('boolean')
    expect(inferScalarType([1, 2.5], false)).toBe('number')
  })
})
