/**
 * Issue 24 kind 3 with records in a map keyed by their ids: calibre's content server lists books
 * as `metadata: {"8": {"title": …, "sort": …}}` and deletes with `POST /cdb/delete-books/8/Books`.
 * The tool reads the map first and takes the key of the record whose title the caller gives.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { textAt } from '../../../src/shared/jsonPath'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000d2', now: Date.UTC(2026, 11, 2) }

const BOOKS = {
  metadata: {
    '6': { title: 'Winter Vegetables', sort: 'Winter Vegetables', authors: ['Ana Ruiz'] },
    '8': { title: 'Bread at Home', sort: 'Bread at Home', authors: ['Tomas Berg'] },
    '11': { title: 'The Silent Shore', sort: 'Silent Shore, The', authors: ['Mei Lin'] },
  },
}

describe('an id picked from a map of records keyed by id', () => {
  it('is the key of the record the caller names, read from the map, under the name field', () => {
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/interface-data/init', { response: BOOKS, type: 'xhr' })
      .click('Delete')
      .exchange('POST', '/cdb/delete-books/8/Books', { response: { ok: true }, type: 'xhr' })
      .build('delete Bread at Home from my library')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const read = tool.steps.find((s) => s.request.url.includes('/interface-data/init'))!
    const extractor = read.extract.find((x) => x.path.endsWith('~'))!
    expect(tool.steps.at(-1)!.request.url).toContain(`/{{step.${read.id}.${extractor.name}}}/`)
    const [name, input] = Object.entries(tool.inputs.properties).find(
      ([, p]) => p['x-in'] === 'answer',
    )!
    expect(name).toBe('title')
    expect(input.default).toBe('Bread at Home')
    expect(
      textAt(BOOKS, extractor.path, { [`input.${input['x-slot']}`]: 'The Silent Shore' }),
    ).toBe('11')
  })
})
