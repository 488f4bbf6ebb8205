/**
 * Platt scaling (Platt 1999, "Probabilistic outputs for support vector machines"): a logistic
 * map a·z + b from a model's raw confidence z to the probability of being right, fitted on
 * out-of-fold predictions, so a calibrated 0.9 means nine right of ten on data the model was not
 * fitted on. Here z is the logit of the ranker's top choice probability. Pure.
 */

export interface PlattScaling {
  a: number
  b: number
}

/** Raw probabilities are clamped to this margin before their logit is taken. */
const EPSILON = 1e-6

/** The logit of a probability, clamped away from 0 and 1. */
export function logit(p: number): number {
  const q = Math.min(1 - EPSILON, Math.max(EPSILON, p))
  return Math.log(q / (1 - q))
}

/** The calibrated probability of a raw probability `p`. */
export function calibrate(p: number, scaling: PlattScaling): number {
  return 1 / (1 + Math.exp(-(scaling.a * logit(p) + scaling.b)))
}

/**
 * Fits a and b by gradient descent on the log-loss of (raw probability, right?) pairs, with
 * Platt's smoothed targets (N+ + 1)/(N+ + 2) and 1/(N− + 2) so a small sample is not fitted to
 * certainty. With no pairs, the identity (a = 1, b = 0).
 */
export function fitPlatt(
  pairs: Array<{ p: number; right: boolean }>,
  options: { iterations?: number; learningRate?: number } = {},
): PlattScaling {
  if (!pairs.length) return { a: 1, b: 0 }
  const positives = pairs.filter((x) => x.right).length
  const negatives = pairs.length - positives
  const hi = (positives + 1) / (positives + 2)
  const lo = 1 / (negatives + 2)
  let a = 1
  let b = 0
  const rate = options.learningRate ?? 0.1
  for (let step = 0; step < (options.iterations ?? 5000); step++) {
    let ga = 0
    let gb = 0
    for (const { p, right } of pairs) {
      const z = logit(p)
      const q = 1 / (1 + Math.exp(-(a * z + b)))
      const target = right ? hi : lo
      ga += ((q - target) * z) / pairs.length
      gb += (q - target) / pairs.length
    }
    a -= rate * ga
    b -= rate * gb
  }
  return { a, b }
}
