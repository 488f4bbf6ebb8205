import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { intentVerbClass } from '../../../src/main/compiler/intentVerb'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

describe('the intent verb', () => {
  it('reads the main verb after fillers and skips a sign-in step before the work', () => {
    expect(intentVerbClass('please rename budget.xlsx to budget-2026.xlsx')).toBe('update')
    expect(intentVerbClass('log in and delete the file old.txt')).toBe('delete')
    expect(intentVerbClass('what is in the invoices folder')).toBe('read')
    expect(intentVerbClass("flag the email 'Lunch on Friday?'")).toBe('update')
    expect(intentVerbClass('unpin the note Groceries')).toBe('update')
  })

  it('finds the verb of a terse intent a word or two in ("blog search tomato")', () => {
    expect(intentVerbClass('blog search tomato')).toBe('search')
    expect(intentVerbClass('npm registry search lunar')).toBe('search')
    expect(intentVerbClass('Recipes posts')).toBeNull()
  })

  it('takes a phrasal verb with a pronoun inside and a sign-in noun anywhere', () => {
    expect(intentVerbClass('Could you sign me in to our editor, please?')).toBe('auth')
    expect(intentVerbClass('kick it off now')).toBe('trigger')
    expect(intentVerbClass('I got logged out, could you sign me back in?')).toBe('auth')
    expect(intentVerbClass('wiki login')).toBe('auth')
    expect(intentVerbClass('redmine 2fa login rlee')).toBe('auth')
  })

  it('reads "give X a new name/title" as a change, and a plain "give" as none', () => {
    expect(intentVerbClass('give a tiddler a new title')).toBe('update')
    expect(intentVerbClass('give the file budget.xlsx another name')).toBe('update')
    expect(intentVerbClass('give me the list of files')).not.toBe('update')
  })
})

describe('a HAR without values', () => {
  it('takes the one write of the kind the intent asks for ("delete a file")', () => {
    const trace = traceBuilder()
      .exchange('GET', '/api/contents?type=directory', {
        response: { content: [{ name: 'old.txt', type: 'file' }] },
      })
      .exchange('DELETE', '/api/contents/old.txt', { status: 204, mime: 'text/plain' })
      .build('delete a file')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.method).toBe('DELETE')
  })
  it('takes the request with a search-term field for a search that names no value', () => {
    const html = { mime: 'text/html', type: 'document' }
    const trace = traceBuilder()
      .exchange('GET', '/', { ...html, responseText: '<h1>Blog</h1>' })
      .exchange('GET', '/?s=tomato', { ...html, responseText: '<h2>Tomato soup</h2>' })
      .build('search the blog posts for a word')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.url).toMatch(/[?&]s=/)
  })
  it('offers the last data read, at low confidence, for a read that names nothing of the trace', () => {
    const trace = traceBuilder()
      .exchange('GET', '/api/contents?type=directory', { type: 'xhr', response: { content: [] } })
      .exchange('GET', '/api/contents/invoices?type=directory', {
        type: 'xhr',
        response: { content: [{ name: 'march.pdf' }] },
      })
      .build('list the files in a folder')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.url).toContain('/api/contents/invoices')
    expect(result.candidate.evidence.confidence).toBeLessThan(0.1)
    // A write names nothing either: no fallback, the compiler explains instead.
    expect(compileTrace({ ...trace, intent: 'rename a file' }, options).ok).toBe(false)
  })
})
