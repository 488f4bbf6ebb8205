import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { records, traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000b1', now: Date.UTC(2026, 10, 22) }

/** A search the compiler would pick (exc_3), next to a status call that carries nothing (exc_1). */
function searchWithStatus() {
  return traceBuilder()
    .exchange('GET', '/api/status?region=eu', { response: { ok: true, build: 'b_20261122' } })
    .fill('writing')
    .submit()
    .exchange('GET', '/static/app.css', { type: 'stylesheet', mime: 'text/css' })
    .exchange('GET', '/api/tools?q=writing', { response: records('writing') })
    .build()
}

describe('manual compile (targetExchangeId)', () => {
  it('compiles exactly the named exchange even when it carries no evidence, marked as chosen by hand', () => {
    const result = compileTrace(searchWithStatus(), { ...options, targetExchangeId: 'exc_1' })
    if (!result.ok) throw new Error(result.explanation.reason)
    const { candidate } = result
    expect(candidate.evidence.targetExchangeId).toBe('exc_1')
    expect(candidate.steps.at(-1)!.request.url).toBe(
      'https://tools.example.com/api/status?region={{input.p0}}',
    )
    expect(candidate.evidence.score).toBe(0)
    expect(candidate.evidence.signals).toContainEqual(
      expect.objectContaining({ name: 'chosen_by_hand', weight: 0 }),
    )
    expect(candidate.evidence.signals.map((s) => s.name)).toContain('json_answer')
    const search = candidate.evidence.alternatives.find((a) => a.exchangeId === 'exc_3')!
    expect(search.reason).toBe(
      `more evidence (${search.score} > 0), but the request chosen by hand was kept`,
    )
  })

  it('refuses a static asset even when it is chosen by hand, saying why', () => {
    const result = compileTrace(searchWithStatus(), { ...options, targetExchangeId: 'exc_2' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.explanation.considered).toContainEqual(
      expect.objectContaining({
        exchangeId: 'exc_2',
        rejectedBecause: 'static asset (stylesheet)',
      }),
    )
  })

  it('says a later call of the same endpoint had more evidence when the earlier one was chosen', () => {
    const trace = traceBuilder()
      .exchange('GET', '/api/tools?q=writing', { response: records('writing') })
      .fill('writing')
      .submit()
      .exchange('GET', '/api/tools?q=writing', { response: records('writing') })
      .build()
    const auto = compileTrace(trace, options)
    if (!auto.ok) throw new Error(auto.explanation.reason)
    expect(auto.candidate.evidence.targetExchangeId).toBe('exc_2')
    expect(auto.candidate.evidence.signals.map((s) => s.name)).not.toContain('chosen_by_hand')

    const hand = compileTrace(trace, { ...options, targetExchangeId: 'exc_1' })
    if (!hand.ok) throw new Error(hand.explanation.reason)
    const { score, alternatives } = hand.candidate.evidence
    expect(hand.candidate.evidence.targetExchangeId).toBe('exc_1')
    expect(alternatives[0]!.score).toBeGreaterThan(score)
    expect(alternatives[0]!.reason).toBe(
      `the same endpoint sent later with more evidence (${alternatives[0]!.score} > ${score}); the request chosen by hand was kept`,
    )
  })

  it('still explains when the trace holds no exchange of that id', () => {
    const result = compileTrace(searchWithStatus(), { ...options, targetExchangeId: 'exc_99' })
    expect(result.ok).toBe(false)
  })
})
