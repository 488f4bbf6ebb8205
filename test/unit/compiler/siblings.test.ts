import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { act, options, withNoise } from './noise'
import { records, traceBuilder } from './traceBuilder'

const ok = (result: ReturnType<typeof compileTrace>) => {
  if (!result.ok) throw new Error(`${result.explanation.reason} ${result.explanation.missing}`)
  return result.candidate
}

describe('sibling endpoints', () => {
  it('picks the list over a count endpoint sent later with the full query', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('GET', '/api/tools?q=writing', {
        // The records need not echo the typed value: a count must still lose.
        response: {
          items: [
            { id: 'a1', name: 'Quill' },
            { id: 'a2', name: 'Inkwell' },
          ],
        },
      })
      .exchange('GET', '/api/tools/count?q=writing', { response: { count: 2 } })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(new URL(tool.steps.at(-1)!.request.url.replace(/\{\{.*?\}\}/g, 'x')).pathname).toBe(
      '/api/tools',
    )
    const count = tool.evidence.alternatives.find((a) => a.url.includes('/count'))
    expect(count?.reason).toMatch(/count endpoint/)
  })

  it('prefers the submitted search over a suggest endpoint fired with the full value', () => {
    const trace = withNoise(traceBuilder())
      .exchange('GET', '/api/suggest?q=wri', { response: { suggestions: ['writing', 'writer'] } })
      .exchange('GET', '/api/suggest?q=writing', { response: { suggestions: ['writing tools'] } })
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(tool.name).toBe('example__search_ai_tools')
    const reasons = tool.evidence.alternatives.map((a) => a.reason)
    expect(reasons).toContain(
      'carries only a prefix of what was typed: a typeahead/suggest request',
    )
    expect(reasons.some((r) => r.startsWith('a typeahead/suggest endpoint'))).toBe(true)
  })

  it('chooses the answer the page showed: a later click names one of its records', () => {
    const builder = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', {
        body: { query: 'writing' },
        response: { data: [{ id: 'x1', toolName: 'Stale result' }] },
      })
      .exchange('POST', '/api/search/v2', {
        body: { query: 'writing' },
        response: { data: [{ id: 'a1', toolName: 'Quill Pro' }] },
      })
    const trace = builder.build()
    const last = trace.exchanges.at(-1)!
    // Both answers hold records; the person then clicks "Quill Pro": the second answer was shown.
    const first = trace.exchanges.at(-2)!
    first.startedAt = last.startedAt + 10
    act(trace, 'click', last.startedAt + 500, { name: 'Quill Pro' })
    const tool = ok(compileTrace(trace, options))
    expect(tool.evidence.targetExchangeId).toBe(last.id)
    expect(tool.evidence.signals.find((s) => s.name === 'shown_by_page')?.detail).toContain(
      'Quill Pro',
    )
  })

  it('gives every alternative a reason, at most 8', () => {
    let builder = withNoise(traceBuilder())
    for (let i = 1; i <= 12; i++)
      builder = builder.exchange('GET', `/api/suggest?q=${'writing'.slice(0, (i % 6) + 1)}`, {
        response: { suggestions: ['w'] },
      })
    const trace = builder
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(tool.evidence.alternatives.length).toBe(8)
    for (const a of tool.evidence.alternatives) expect(a.reason.length).toBeGreaterThan(10)
    for (const s of tool.evidence.signals) {
      expect(s.name).toMatch(/^[a-z_]+$/)
      expect(typeof s.weight).toBe('number')
      expect(s.detail.length).toBeGreaterThan(5)
    }
  })

  it('drops the search the person moved on from when a later request names the intent', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
      .exchange('GET', '/tool/writing-pilot', {
        type: 'document',
        mime: 'text/html',
        responseText: '<html><title>Writing Pilot</title></html>',
      })
      .exchange('GET', '/api/tools/writing-pilot/related', {
        response: { related: [{ id: 'b1', toolName: 'Other' }] },
      })
      .build('get the related tools of a tool')
    const search = trace.exchanges.find((e) => e.url.endsWith('/api/search'))!
    act(trace, 'click', search.startedAt + 20, { name: 'writing pilot' })
    const tool = ok(compileTrace(trace, options))
    expect(tool.steps.at(-1)!.request.url).toContain('/related')
    const alt = tool.evidence.alternatives.find((a) => a.url.endsWith('/api/search'))
    expect(alt).toBeDefined()
  })
})
