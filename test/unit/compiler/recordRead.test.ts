import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { asksForOne } from '../../../src/main/compiler/recordRead'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

const page = { type: 'document', mime: 'text/html' }

/** A HAR of a list of issues, then one issue opened from it. */
function issues(intent: string) {
  return traceBuilder()
    .exchange('GET', '/projects/website/issues', {
      ...page,
      responseText: '<a href="/issues/3">Broken link</a><a href="/issues/4">Typo</a>',
    })
    .exchange('GET', '/issues/3', { ...page, responseText: '<h2>Broken link</h2>' })
    .build(intent)
}

function targetPath(trace: ReturnType<typeof issues>): string {
  // The rules' own order: these tests are about the signals a rule gives, which the learned
  // ranker then weighs with the rest (its choices are pinned on the real-app corpus).
  const result = compileTrace(trace, { ...options, intent: trace.intent, targetModel: null })
  if (!result.ok) throw new Error(result.explanation.reason)
  const e = trace.exchanges.find((x) => x.id === result.candidate.evidence.targetExchangeId)!
  return new URL(e.url).pathname
}

describe('a read that asks for one record', () => {
  it('is told by the head noun of the intent’s object', () => {
    expect(asksForOne('show one issue of the Website project')).toBe(true)
    expect(asksForOne('show the details of a package in the registry')).toBe(true)
    expect(asksForOne('show an older version of a package')).toBe(true)
    expect(asksForOne('list the posts of one category')).toBe(false)
    expect(asksForOne('list the issues of the Website project')).toBe(false)
    expect(asksForOne('search for one issue')).toBe(false)
  })

  it('takes the record the trace opened from a listing, not the listing', () => {
    expect(targetPath(issues('show one issue of the Website project'))).toBe('/issues/3')
  })

  it('keeps the listing for an intent that asks for many', () => {
    expect(targetPath(issues('list the issues of the Website project'))).toBe(
      '/projects/website/issues',
    )
  })

  it('finds the opened record by a value of a JSON listing (`/sidebar/tidy-csv`)', () => {
    const trace = traceBuilder()
      .exchange('GET', '/-/data/packages', {
        response: [{ name: 'tidy-csv' }, { name: 'lunar-phase' }],
      })
      .exchange('GET', '/-/data/sidebar/tidy-csv', { response: { versions: { '2.0.3': {} } } })
      .build('show the details of a package in the registry')
    expect(targetPath(trace)).toBe('/-/data/sidebar/tidy-csv')
  })
})
