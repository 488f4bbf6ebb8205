import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { intentValues } from '../../../src/main/compiler/intentValues'
import { intentVerbClass } from '../../../src/main/compiler/intentVerb'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

/** The target's method and path of a compile that must succeed. */
function targetOf(trace: ReturnType<ReturnType<typeof traceBuilder>['build']>): string {
  const result = compileTrace(trace, { ...options, intent: trace.intent })
  if (!result.ok) throw new Error(result.explanation.reason)
  const last = result.candidate.steps.at(-1)!.request
  return `${last.method} ${decodeURIComponent(new URL(last.url).pathname)}`
}

describe('the same intent, worded another way', () => {
  it('reads "put" as a change, "rewrite" as an edit, "rm" as a delete, "narrow down" as a search', () => {
    expect(intentVerbClass('can you put my picture Sunset.png on the wiki?')).toBe('create')
    expect(intentVerbClass('rewrite the text of a note')).toBe('update')
    expect(intentVerbClass('rm tiddler Old Draft')).toBe('delete')
    expect(intentVerbClass('narrow down a package search')).toBe('search')
  })

  it('takes a word after "under" as a value, as after "in" ("pages under meetings")', () => {
    const trace = traceBuilder()
      .exchange('POST', '/ajax', { form: 'call=index&idx=meetings', response: { pages: [] } })
      .build()
    const values = (intent: string) => intentValues(intent, trace.exchanges).map((v) => v.value)
    expect(values('what pages do we have under meetings on the wiki?')).toEqual(['meetings'])
    expect(values('what pages do we have about the meetings')).toEqual([])
  })

  it('matches an unquoted value by its words when the intent drops its punctuation', () => {
    const trace = traceBuilder()
      .exchange('POST', '/doku.php', { form: 'id=start&wikitext=Status%3A+amber&do=save' })
      .build()
    const values = (intent: string) => intentValues(intent, trace.exchanges).map((v) => v.value)
    expect(values('team status: Status: amber')).toEqual(['Status: amber'])
    // The words must be the value's, in its order: "status … amber" apart is no match.
    expect(values('set the status to amber')).toEqual([])
  })

  it('splits a name and its version written together (`lunar-phase@1.1.0`)', () => {
    const trace = traceBuilder()
      .exchange('GET', '/data/sidebar/lunar-phase', { response: { name: 'lunar-phase' } })
      .exchange('GET', '/data/sidebar/lunar-phase?v=1.1.0', { response: { name: 'lunar-phase' } })
      .build('lunar-phase@1.1.0')
    expect(intentValues('lunar-phase@1.1.0', trace.exchanges).map((v) => v.value)).toEqual([
      '1.1.0',
    ])
    expect(targetOf(trace)).toBe('GET /data/sidebar/lunar-phase')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.url).toContain('v={{input.')
  })

  it('never takes a collection word after "for" as a value of the path ("for packages")', () => {
    const trace = traceBuilder()
      .exchange('GET', '/-/registry/packages', { response: [{ name: 'a-b' }, { name: 'c-d' }] })
      .exchange('GET', '/-/registry/search/lunar', { response: [{ name: 'lunar-cal' }] })
      .build('search the registry for packages by name')
    expect(targetOf(trace)).toBe('GET /-/registry/search/lunar')
  })

  it('offers the last page or POST read for a read that names nothing of the trace', () => {
    const page = { type: 'document', mime: 'text/html' }
    const trace = traceBuilder()
      .exchange('GET', '/wiki?id=start', { ...page, responseText: '<h1>Start</h1>' })
      .exchange('POST', '/ajax?call=index', {
        type: 'xhr',
        mime: 'text/html',
        form: 'call=index&idx=team',
        responseText: '<li><a href="/wiki?id=team:status">status</a></li>',
      })
      .build('list the entries of a folder')
    const result = compileTrace(trace, { ...options, intent: trace.intent })
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.method).toBe('POST')
    expect(result.candidate.evidence.signals.map((s) => s.name)).toContain('last_read')
  })

  it('takes the later of two searches for "narrow down a search": refining is no use of the first', () => {
    const trace = traceBuilder()
      .exchange('GET', '/-/registry/packages', { response: [{ name: 'lunar-cal' }] })
      .exchange('GET', '/-/registry/search/lunar', { response: [{ name: 'lunar-cal' }] })
      .exchange('GET', '/-/registry/search/lunar-cal', { response: [{ name: 'lunar-cal' }] })
      .build('narrow down a package search in the registry')
    expect(intentVerbClass(trace.intent)).toBe('search')
    expect(targetOf(trace)).toBe('GET /-/registry/search/lunar-cal')
  })

  it('prefers a request with a search term to a page that carries none, for a search', () => {
    const page = { type: 'document', mime: 'text/html' }
    const trace = traceBuilder()
      .exchange('GET', '/index.php/Main_Page', { ...page, responseText: '<h1>Main Page</h1>' })
      .exchange('GET', '/api.php?action=opensearch&search=Lunar', {
        response: ['Lunar', ['Lunar Calendar']],
      })
      .build('search the wiki for pages by the start of their title')
    expect(targetOf(trace)).toBe('GET /api.php')
  })
})
