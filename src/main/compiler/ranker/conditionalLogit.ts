/**
 * A conditional logit (McFadden 1974; the "softmax over a choice set" of learning to rank): each
 * group is a choice set of candidates, one or more of them right, and the model gives candidate
 * i the probability exp(w·x_i) / Σ_j exp(w·x_j). Fitted by full-batch gradient descent on the
 * negative log-likelihood of choosing a right candidate (the sum of the right ones' probabilities)
 * plus an L2 penalty toward prior weights (zero, or the hand-set weights the rules had: a rare
 * signal keeps its prior until data says otherwise); with no randomness the same data always
 * gives the same weights. Pure.
 */

/** One choice set: a feature vector per candidate and which candidates are right. */
export interface ChoiceGroup {
  features: number[][]
  right: boolean[]
  /** Where the group comes from (`app/workflow [path]`), for reports. */
  id?: string
}

export interface FitOptions {
  /** L2 penalty on the weights (not on nothing else: a conditional logit has no intercept). */
  l2: number
  /** Gradient steps (full batch). */
  iterations: number
  /** Step size of gradient descent. */
  learningRate: number
}

const DEFAULT_FIT: FitOptions = { l2: 0.05, iterations: 3000, learningRate: 0.5 }

/** w·x */
function dot(weights: readonly number[], x: readonly number[]): number {
  let sum = 0
  for (let i = 0; i < weights.length; i++) sum += weights[i]! * (x[i] ?? 0)
  return sum
}

/** The probability of each candidate of a group under `weights` (a softmax of w·x). */
export function choiceProbabilities(weights: readonly number[], features: number[][]): number[] {
  const scores = features.map((x) => dot(weights, x))
  const top = Math.max(...scores)
  const exps = scores.map((s) => Math.exp(s - top))
  const total = exps.reduce((a, b) => a + b, 0)
  return exps.map((e) => e / total)
}

/**
 * Fits the weights on `groups` (each with at least one right candidate; groups without one are
 * skipped: nothing in them can be learned), starting from and penalised toward `prior` (default
 * zero). Returns a weight per feature.
 */
export function fitConditionalLogit(
  groups: ChoiceGroup[],
  dimensions: number,
  options: FitOptions = DEFAULT_FIT,
  prior: readonly number[] = new Array<number>(dimensions).fill(0),
): number[] {
  const usable = groups.filter((g) => g.right.some(Boolean) && g.features.length > 0)
  const weights = [...prior]
  if (!usable.length) return weights
  for (let step = 0; step < options.iterations; step++) {
    const gradient = weights.map((w, d) => options.l2 * (w - prior[d]!))
    for (const group of usable) {
      const p = choiceProbabilities(weights, group.features)
      const pRight = p.reduce((sum, pi, i) => sum + (group.right[i] ? pi : 0), 0)
      // d(-log Σ_right p_i)/dw = E_p[x] − E_{p | right}[x]
      for (let i = 0; i < group.features.length; i++) {
        const x = group.features[i]!
        const coefficient = p[i]! - (group.right[i] ? p[i]! / pRight : 0)
        if (coefficient === 0) continue
        for (let d = 0; d < dimensions; d++)
          gradient[d]! += (coefficient * (x[d] ?? 0)) / usable.length
      }
    }
    for (let d = 0; d < dimensions; d++) weights[d]! -= options.learningRate * gradient[d]!
  }
  return weights
}

/** Index of the best-scored candidate (the first of equals), or -1 for an empty group. */
export function bestOf(weights: readonly number[], features: number[][]): number {
  let best = -1
  let bestScore = -Infinity
  for (let i = 0; i < features.length; i++) {
    const score = dot(weights, features[i]!)
    if (score > bestScore) {
      best = i
      bestScore = score
    }
  }
  return best
}
