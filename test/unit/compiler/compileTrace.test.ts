import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { records, traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-000000000001', now: Date.UTC(2026, 10, 22) }

function noisyPage() {
  return traceBuilder()
    .exchange('GET', '/', {
      type: 'document',
      mime: 'text/html',
      responseText: '<html><body>Search</body></html>',
    })
    .exchange('GET', '/static/app.js', {
      type: 'script',
      mime: 'text/javascript',
      responseText: 'void 0',
    })
    .exchange('GET', '/locales/en.json', {
      response: {
        'search.placeholder': 'Search',
        'results.count': '{n}',
        'nav.home': 'Home',
        'nav.about': 'About',
        'footer.copy': '(c)',
      },
    })
    .exchange('GET', '/static/logo.png', { type: 'image', mime: 'image/png' })
}

describe('compileTrace', () => {
  it('picks the JSON request that carries what was typed and makes it a typed slot', () => {
    const trace = noisyPage()
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', {
        body: { query: 'writing', verified: false, page: 1, perPage: 12 },
        response: records('writing'),
      })
      .build()
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    expect(tool.evidence.targetExchangeId).toBe('exc_5')
    expect(tool.name).toBe('example__search_ai_tools')
    expect(tool.mutating).toBe(false)
    expect(tool.inputs.required).toEqual(['query'])
    expect(tool.inputs.properties).toMatchObject({
      query: { 'x-slot': 'p0', type: 'string', 'x-in': 'body', 'x-path': 'query' },
      verified: { 'x-slot': 'p1', type: 'boolean', default: false },
      page: { 'x-slot': 'p2', type: 'integer', default: 1 },
      perPage: { 'x-slot': 'p3', type: 'integer', default: 12 },
    })
    expect(tool.steps.at(-1)!.request.body).toEqual({
      kind: 'json',
      template: {
        query: '{{input.p0}}',
        verified: '{{input.p1}}',
        page: '{{input.p2}}',
        perPage: '{{input.p3}}',
      },
    })
    // Session-bound headers belong to the login, never to the tool.
    expect(tool.steps.at(-1)!.request.headers).not.toHaveProperty('cookie')
    expect(tool.verify.required).toEqual(
      expect.arrayContaining([
        { path: 'data', type: 'array' },
        { path: 'count', type: 'integer' },
        { path: 'data[].toolName', type: 'string' },
      ]),
    )
    expect(tool.evidence.signals.map((s) => s.name)).toContain('typed_value_in_request')
  })

  it('never chooses a beacon or a translation dictionary, even when they carry the typed value', () => {
    const trace = traceBuilder()
      .fill('writing')
      .submit()
      .exchange('POST', '/collect', { body: { event: 'search', query: 'writing' }, status: 204 })
      .exchange('GET', '/i18n/en.json?q=writing', {
        response: { 'a.b': 'x', 'a.c': 'y', 'a.d': 'z', 'b.a': 'w', 'b.b': 'v' },
      })
      .build()
    const result = compileTrace(trace, options)
    expect(result.ok).toBe(false)
    if (result.ok) return
    const reasons = Object.fromEntries(
      result.explanation.considered.map((c) => [c.exchangeId, c.rejectedBecause]),
    )
    expect(reasons).toEqual({ exc_1: 'analytics beacon', exc_2: 'translation dictionary' })
    expect(result.explanation.missing.join(' ')).toContain('"writing"')
  })

  it("takes a site's own /metrics/ or /events/ call that answers data; one that answers nothing stays a beacon", () => {
    const trace = traceBuilder()
      .fill('servers.db01')
      .exchange('POST', '/events', { body: { event: 'typing', q: 'servers.db01' }, status: 204 })
      .exchange('POST', '/metrics/find/', {
        body: { query: 'servers.db01.*' },
        response: [
          { id: 'servers.db01.cpu', text: 'cpu', leaf: 0 },
          { id: 'servers.db01.disk', text: 'disk', leaf: 0 },
        ],
        type: 'xhr',
      })
      .build('find the metrics under servers.db01')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.url).toMatch(/\/metrics\/find\/$/)
    const beacon = result.candidate.evidence.alternatives.find((a) => a.url.endsWith('/events'))
    expect(beacon).toBeUndefined()
  })

  it('prefers the submitted search over typeahead requests sent with prefixes', () => {
    const trace = traceBuilder()
      .exchange('GET', '/api/suggest?q=w', { response: { suggestions: ['writer'] } })
      .exchange('GET', '/api/suggest?q=wri', { response: { suggestions: ['writer'] } })
      .fill('writing')
      .submit()
      .exchange('GET', '/api/tools?q=writing&page=1', { response: records('writing') })
      .build()
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.evidence.targetExchangeId).toBe('exc_3')
    expect(result.candidate.steps[0]!.request.url).toBe(
      'https://tools.example.com/api/tools?q={{input.p0}}&page={{input.p1}}',
    )
    expect(result.candidate.inputs.properties.q).toMatchObject({ 'x-in': 'query', type: 'string' })
    expect(result.candidate.evidence.alternatives.map((a) => a.reason)).toEqual([
      'carries only a prefix of what was typed: a typeahead/suggest request',
      'carries only a prefix of what was typed: a typeahead/suggest request',
    ])
  })

  it('chooses the later of two identical searches and explains the earlier one', () => {
    const trace = traceBuilder()
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
      .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
      .build()
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.evidence.targetExchangeId).toBe('exc_2')
    expect(result.candidate.evidence.alternatives[0]).toMatchObject({
      exchangeId: 'exc_1',
      reason: expect.stringContaining('same endpoint'),
    })
  })

  it('explains instead of guessing when nothing carries the typed value', () => {
    const trace = noisyPage()
      .fill('writing')
      .submit()
      .exchange('GET', '/api/featured', { response: records('other') })
      .build()
    const result = compileTrace(trace, options)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(
      result.explanation.considered.find((c) => c.exchangeId === 'exc_5')?.rejectedBecause,
    ).toBe('carries none of the typed values')
  })

  it('never turns a secret field into a slot and makes a select an enum', () => {
    const trace = traceBuilder()
      .fill(null, { name: 'password', secret: true })
      .fill('pro', { name: 'plan', options: ['free', 'pro', 'team'] })
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', {
        body: { query: 'writing', plan: 'pro' },
        response: records('writing'),
      })
      .build()
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.inputs.required).toEqual(['query', 'plan'])
    expect(result.candidate.inputs.properties.plan).toMatchObject({ enum: ['free', 'pro', 'team'] })
    expect(JSON.stringify(result.candidate)).not.toContain('password')
  })

  it('marks a write as mutating', () => {
    const trace = traceBuilder()
      .fill('Ada')
      .submit()
      .exchange('POST', '/api/orders', {
        body: { customer: 'Ada' },
        response: { id: 'o1', customer: 'Ada', items: [{ sku: 'x' }] },
      })
      .build()
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.mutating).toBe(true)
  })

  it('is deterministic', () => {
    const build = () =>
      traceBuilder()
        .fill('writing')
        .submit()
        .exchange('POST', '/api/search', {
          body: { query: 'writing' },
          response: records('writing'),
        })
        .build()
    expect(compileTrace(build(), options)).toEqual(compileTrace(build(), options))
  })
})
