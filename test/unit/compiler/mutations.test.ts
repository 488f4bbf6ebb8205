import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { rejectionReason } from '../../../src/main/compiler/classify'
import { mutationVerdict } from '../../../src/main/compiler/naming'
import { options, withNoise } from './noise'
import { records, traceBuilder } from './traceBuilder'

const exchangeOf = (method: string, path: string, body?: unknown) =>
  traceBuilder()
    .exchange(method, path, body === undefined ? {} : { body })
    .build().exchanges[0]!

describe('mutations', () => {
  it('reads on GET and HEAD, and on a POST that searches by path or body', () => {
    expect(mutationVerdict(exchangeOf('GET', '/api/orders'), null).mutating).toBe(false)
    expect(mutationVerdict(exchangeOf('HEAD', '/api/orders'), null).mutating).toBe(false)
    expect(
      mutationVerdict(exchangeOf('POST', '/api/products/search', { x: 1 }), null).mutating,
    ).toBe(false)
    expect(mutationVerdict(exchangeOf('POST', '/api/v2/listItems', { x: 1 }), null).mutating).toBe(
      false,
    )
    expect(
      mutationVerdict(exchangeOf('POST', '/api/products', { filters: { a: 1 } }), null).mutating,
    ).toBe(false)
  })

  it('writes on REST writes, and when unsure', () => {
    expect(mutationVerdict(exchangeOf('POST', '/api/orders', { item: 'x' }), null).mutating).toBe(
      true,
    )
    expect(mutationVerdict(exchangeOf('PUT', '/api/search', { q: 'x' }), null).mutating).toBe(true)
    expect(mutationVerdict(exchangeOf('PATCH', '/api/profile', { name: 'x' }), null).mutating).toBe(
      true,
    )
    expect(mutationVerdict(exchangeOf('DELETE', '/api/orders/1'), null).mutating).toBe(true)
    // "widgets" contains "get": words count, not substrings.
    expect(mutationVerdict(exchangeOf('POST', '/api/widgets', { name: 'x' }), null).mutating).toBe(
      true,
    )
  })

  it('compiles a form POST that answers a page as a mutating document tool', () => {
    const trace = withNoise(traceBuilder())
      .fill('Lena', { name: 'name' })
      .fill('Hello there', { name: 'message' })
      .submit()
      .exchange('POST', '/contact/', {
        form: 'name=Lena&message=Hello+there',
        type: 'document',
        mime: 'text/html',
        responseText: '<html><title>Thanks</title><body>Message sent</body></html>',
      })
      .build('send a message through the contact form')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.mutating).toBe(true)
    expect(result.candidate.name).toBe('example__send_message')
    expect(result.candidate.result).toEqual({ kind: 'document', page: true })
    expect(result.candidate.inputs.required).toEqual(['name', 'message'])
  })
})

describe('refusals', () => {
  const site = new Set(['tools.example.com'])
  const reason = (method: string, path: string, response: unknown, type = 'fetch') =>
    rejectionReason(
      traceBuilder().exchange(method, path, { response, type }).build().exchanges[0]!,
      site,
    )

  it('never targets ads, flags, config, dictionaries, assets, preflights or trackers', () => {
    expect(reason('GET', 'https://securepubads.g.doubleclick.net/gampad/ads?q=writing', {})).toBe(
      'ad request',
    )
    expect(reason('GET', '/ads/slot?q=writing', { ad: 1 })).toBe('ad request')
    expect(reason('GET', '/api/app-config', { theme: 'dark' })).toBe('feature-flag or config blob')
    expect(
      reason('GET', '/api/bootstrap-data', { a: true, b: false, c: true, d: true, e: false }),
    ).toBe('feature-flag or config blob')
    expect(reason('GET', '/i18n/de.json', { 'a.b': 'x' })).toBe('translation dictionary')
    expect(reason('GET', '/static/app.js', 'x', 'script')).toBe('static asset (script)')
    expect(reason('OPTIONS', '/api/search', '')).toBe('CORS preflight')
    expect(reason('GET', 'https://www.google-analytics.com/g/search?q=x', records('x'))).toBe(
      'third-party analytics host www.google-analytics.com',
    )
    expect(reason('GET', 'https://cdn.jsdelivr.net/api/search?q=x', records('x'))).toBe(
      'third-party cdn host cdn.jsdelivr.net',
    )
    // Another domain that is no tracker may be the site's own API (issue 9 "Third party").
    expect(reason('GET', 'https://api.weather.example/v1/forecast?q=x', records('x'))).toBeNull()
    // A subdomain of the same site is first-party.
    expect(reason('POST', 'https://api.example.com/v1/search', records('x'))).toBeNull()
  })

  it('explains specifically what is missing: the typed value went only to a beacon', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('POST', '/collect', {
        body: { event: 'search', q: 'writing' },
        status: 204,
        type: 'ping',
      })
      .build()
    const result = compileTrace(trace, options)
    expect(result.ok).toBe(false)
    if (result.ok) return
    // The noise's ad call carries it too: both refusals are named.
    expect(result.explanation.missing).toEqual([
      'a request carrying "writing" that can be a tool: it went only to GET /ads/slot (ad request), POST /collect (analytics beacon)',
    ])
  })

  it('explains that no request carried the typed value at all', () => {
    const trace = withNoise(traceBuilder()).fill('quill').submit().build()
    const result = compileTrace(trace, options)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.explanation.missing).toEqual([
      'any request after the submit: wait for the results before stopping',
      'a fetch/XHR answering JSON (or a page) whose request carries "quill" (typed into Search): no request carried it; submit and wait for the results',
    ])
    expect(result.explanation.considered.map((c) => c.rejectedBecause)).toEqual(
      expect.arrayContaining([
        'ad request',
        'feature-flag or config blob',
        'translation dictionary',
      ]),
    )
  })
})
