/**
 * The learned target ranker (issue 24 C): a conditional logit fitted by gradient descent, Platt
 * calibration, and the model's use on a trace's candidates.
 */
import { describe, expect, it } from 'vitest'
import { calibrate, fitPlatt, logit } from '../../../src/main/compiler/ranker/calibration'
import {
  bestOf,
  choiceProbabilities,
  fitConditionalLogit,
  type ChoiceGroup,
} from '../../../src/main/compiler/ranker/conditionalLogit'
import { rankByModel, type TargetModelParams } from '../../../src/main/compiler/ranker/targetModel'
import type { ScoredExchange } from '../../../src/main/compiler/targetSignals'
import { traceBuilder } from './traceBuilder'

/** Groups where feature 0 marks the right candidate and feature 1 is noise that often misleads. */
function groups(count: number): ChoiceGroup[] {
  const out: ChoiceGroup[] = []
  for (let g = 0; g < count; g++) {
    const noisy = g % 3 === 0
    out.push({
      features: [
        [1, noisy ? 0 : 1],
        [0, noisy ? 1 : 0],
        [0, 0],
      ],
      right: [true, false, false],
    })
  }
  return out
}

describe('conditional logit', () => {
  it('learns the feature that marks the right candidate and not the noise', () => {
    const weights = fitConditionalLogit(groups(30), 2, {
      l2: 0.01,
      iterations: 500,
      learningRate: 0.5,
    })
    expect(weights[0]).toBeGreaterThan(1)
    expect(weights[0]!).toBeGreaterThan(Math.abs(weights[1]!))
    for (const g of groups(6)) expect(bestOf(weights, g.features)).toBe(0)
  })

  it('gives the same weights for the same data, and keeps a prior where data says nothing', () => {
    const a = fitConditionalLogit(
      groups(12),
      3,
      { l2: 0.1, iterations: 200, learningRate: 0.5 },
      [0, 0, 2],
    )
    const b = fitConditionalLogit(
      groups(12),
      3,
      { l2: 0.1, iterations: 200, learningRate: 0.5 },
      [0, 0, 2],
    )
    expect(a).toEqual(b)
    // Feature 2 never appears: its weight stays at the prior.
    expect(a[2]).toBeCloseTo(2, 6)
  })

  it('skips groups with no right candidate and answers probabilities that sum to one', () => {
    const weights = fitConditionalLogit([{ features: [[1], [0]], right: [false, false] }], 1)
    expect(weights).toEqual([0])
    const p = choiceProbabilities([2], [[1], [0], [0.5]])
    expect(p.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 10)
    expect(p[0]).toBeGreaterThan(p[2]!)
  })
})

describe('Platt calibration', () => {
  it('maps raw probabilities to the share right, fitted on held-out pairs', () => {
    // A model that says 0.6 and is right 9 times in 10.
    const pairs = Array.from({ length: 100 }, (_, i) => ({ p: 0.6, right: i % 10 !== 0 }))
    const scaling = fitPlatt(pairs, { iterations: 20_000, learningRate: 0.5 })
    expect(calibrate(0.6, scaling)).toBeGreaterThan(0.85)
    expect(calibrate(0.6, scaling)).toBeLessThan(0.93)
    expect(fitPlatt([])).toEqual({ a: 1, b: 0 })
    expect(logit(0.5)).toBeCloseTo(0)
  })
})

describe('ranking a trace with a model', () => {
  const trace = traceBuilder()
    .exchange('GET', '/api/a', { response: { x: 1 } })
    .exchange('GET', '/api/b', { response: { x: 2 } })
    .build('list things')
  const candidate = (i: number, signal: string): ScoredExchange => ({
    exchange: trace.exchanges[i]!,
    score: 0.5,
    signals: [{ name: signal, weight: 0.2, detail: '' }],
    exactMatches: [],
    prefixOnly: false,
  })
  const params: TargetModelParams = {
    model: 'conditional-logit',
    features: ['signal_good', 'signal_bad'],
    scales: { signal_good: 0.2, signal_bad: 0.2 },
    weights: [3, -3],
    platt: { a: 1, b: 0 },
    provenance: {},
  }

  it('puts the candidate with the learned evidence first, whatever the rules order', () => {
    const ranked = rankByModel(
      [candidate(0, 'bad'), candidate(1, 'good')],
      { intent: 'list things', exchanges: trace.exchanges },
      params,
    )
    expect(ranked.map((r) => r.candidate.exchange.url)).toEqual([
      'https://tools.example.com/api/b',
      'https://tools.example.com/api/a',
    ])
    expect(ranked[0]!.probability).toBeGreaterThan(0.99)
  })

  it('keeps the rules order without a model', () => {
    const ranked = rankByModel(
      [candidate(0, 'bad'), candidate(1, 'good')],
      { intent: 'x', exchanges: trace.exchanges },
      null,
    )
    expect(ranked[0]!.candidate.exchange.url).toBe('https://tools.example.com/api/a')
  })
})
