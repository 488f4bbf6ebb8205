import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { resourceHistory } from '../../../src/main/compiler/resourceHistory'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

const noted = (intent: string) => {
  const trace = traceBuilder()
    .exchange('GET', '/api/notes', { response: [{ title: 'Old' }, { title: 'Plan' }] })
    .exchange('PUT', '/api/notes/Draft%20of%20Old', {
      body: { title: 'Draft of Old', text: '' },
      status: 204,
    })
    .exchange('DELETE', '/api/notes/Old', { status: 204 })
    .exchange('DELETE', '/api/trash/notes/Draft%20of%20Old', { status: 204 })
    .build(intent)
  return trace
}

function target(trace: ReturnType<typeof noted>): string {
  // The rules' own order: these tests are about the signals a rule gives, which the learned
  // ranker then weighs with the rest (its choices are pinned on the real-app corpus).
  const result = compileTrace(trace, { ...options, intent: trace.intent, targetModel: null })
  if (!result.ok) throw new Error(result.explanation.reason)
  // The exchange the tool was made from: its path may read the name from the listing.
  const e = trace.exchanges.find((x) => x.id === result.candidate.evidence.targetExchangeId)!
  return `${e.method} ${decodeURIComponent(new URL(e.url).pathname)}`
}

describe('what a trace shows of the resource a write names', () => {
  it('finds a draft the trace creates and then deletes, by any route to it', () => {
    const trace = noted('delete a note')
    const [, draftPut, realDelete, draftDelete] = trace.exchanges
    expect(resourceHistory(draftPut!, trace.exchanges)?.temporary?.deleted).toBe(draftDelete)
    expect(resourceHistory(draftDelete!, trace.exchanges)?.temporary?.created).toBe(draftPut)
    expect(resourceHistory(realDelete!, trace.exchanges)).toMatchObject({
      temporary: null,
      listedBefore: trace.exchanges[0],
    })
  })

  it('ranks the draft the app cleans up below the real delete ("delete a note")', () => {
    expect(target(noted('delete a note'))).toBe('DELETE /api/notes/Old')
  })

  it('prefers the write to a record an earlier answer listed for an edit that names none', () => {
    const ui = { body: { title: 'ui', text: '', list: 'Plan' }, status: 204 }
    const trace = traceBuilder()
      .exchange('PUT', '/api/notes/ui-state', ui)
      .exchange('GET', '/api/notes', { response: [{ title: 'Plan', text: 'a' }] })
      .exchange('PUT', '/api/notes/Plan', { body: { title: 'Plan', text: 'b' }, status: 204 })
      .exchange('PUT', '/api/notes/ui-state', ui)
      .build('rewrite the text of a note')
    expect(target(trace)).toBe('PUT /api/notes/Plan')
  })
})
