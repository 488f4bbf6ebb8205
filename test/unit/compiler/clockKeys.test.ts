/**
 * Issue 24 kind 3: a cache-buster is never a slot. calibre's content server writes the page's
 * clock as a query key with no value (`POST /cdb/delete-books/8/Books?1796057586505=`); read as a
 * value it became the tool's only input.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { requestValues } from '../../../src/main/compiler/requestValues'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000d1', now: Date.UTC(2026, 11, 2) }

describe('a clock written as a query key', () => {
  it('is no value of the request, while a key of 13 digits far from the clock stays one', () => {
    // traceBuilder's clock starts at 1_700_000_000_000 ms and moves 100 ms per step.
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('POST', '/cdb/delete-books/8/Books?1700000000050=&confirm=1', {
        response: { ok: true },
      })
      .exchange('GET', '/lookup?1234567890123=', { response: { ok: true } })
      .build('delete the book')
    expect(requestValues(trace.exchanges[0]!).map((v) => v.key)).toEqual(['confirm'])
    expect(requestValues(trace.exchanges[1]!).map((v) => v.key)).toEqual(['1234567890123'])
  })

  it('gives the compiled tool no input for it', () => {
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/interface-data/books?1700000000050=', {
        response: { books: [{ id: 8, title: 'Bread at Home' }] },
        type: 'xhr',
      })
      .click('Delete')
      .exchange('POST', '/cdb/delete-books/8/Books?1700000000350=', {
        response: { ok: true },
        type: 'xhr',
      })
      .build('delete the book Bread at Home')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const target = result.candidate.steps.at(-1)!
    expect(target.request.url).toContain('?1700000000350=')
    const paths = Object.values(result.candidate.inputs.properties).map((p) => p['x-path'])
    expect(paths).not.toContain('1700000000350')
  })
})
