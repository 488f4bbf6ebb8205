/**
 * The fitted target ranker (fitted by test/apps/fitTargetRanker.ts): a conditional logit over the candidates' features
 * (`targetFeatures`), with its weights, feature scales and Platt calibration read from
 * `targetModel.params.json`, which `test/apps/fitTargetRanker.ts` writes (its seed and the data
 * it was fitted on are recorded there). Pure.
 */
import type { ScoredExchange } from '../targetSignals'
import { calibrate, type PlattScaling } from './calibration'
import { choiceProbabilities } from './conditionalLogit'
import { targetFeatures, vectorOf, type FeatureContext } from './targetFeatures'
import fitted from './targetModel.params.json' with { type: 'json' }

/** What the fitting script writes: the model and how it was made. */
export interface TargetModelParams {
  model: 'conditional-logit'
  /** Feature names in the order of the weights. */
  features: string[]
  /** Divisor of each raw feature (its largest magnitude in the training data). */
  scales: Record<string, number>
  weights: number[]
  /** Maps the top candidate's softmax probability to the chance it is right (out of fold). */
  platt: PlattScaling
  /** How it was fitted: seed, L2, data, folds; for people, not read by the compiler. */
  provenance: Record<string, unknown>
}

/** The model the compiler uses; null when no model has been fitted yet. */
export const TARGET_MODEL: TargetModelParams | null = (fitted as TargetModelParams).features?.length
  ? (fitted as TargetModelParams)
  : null

/** A candidate with the model's raw and calibrated probability of being the target. */
export interface ModelRanked {
  candidate: ScoredExchange
  /** Softmax probability among the trace's candidates. */
  probability: number
}

/**
 * Orders `candidates` by the model, best first (equal probabilities keep the rules' order), with
 * each one's probability. `params` defaults to the fitted model; without one the order is kept
 * and the probabilities are uniform.
 */
export function rankByModel(
  candidates: ScoredExchange[],
  context: FeatureContext,
  params: TargetModelParams | null = TARGET_MODEL,
): ModelRanked[] {
  if (!candidates.length) return []
  if (!params)
    return candidates.map((candidate) => ({ candidate, probability: 1 / candidates.length }))
  const raw = targetFeatures(candidates, context)
  const vectors = raw.map((r) => vectorOf(r, params.features, params.scales))
  const p = choiceProbabilities(params.weights, vectors)
  return candidates
    .map((candidate, i) => ({ candidate, probability: p[i]!, order: i }))
    .sort((a, b) => b.probability - a.probability || a.order - b.order)
    .map(({ candidate, probability }) => ({ candidate, probability }))
}

/**
 * The calibrated chance that a choice made with raw probability `p` and the rules' evidence
 * score `evidence` (0..1) is right.
 */
export function calibratedConfidence(
  p: number,
  evidence: number,
  params: TargetModelParams | null = TARGET_MODEL,
): number {
  return params ? calibrate(p, params.platt, evidence) : p
}
