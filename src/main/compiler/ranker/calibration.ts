/**
 * Platt scaling (Platt 1999, "Probabilistic outputs for support vector machines"): a logistic
 * map a·p + c·e + b from a model's raw confidence p to the probability of being right, fitted on
 * out-of-fold predictions, so a calibrated 0.9 means nine right of ten on data the model was not
 * fitted on. Here p is the ranker's probability of its top choice (as is, not its logit: a lone
 * candidate has p = 1 whatever it shows) and e the rules' evidence score of that choice (0..1),
 * which says how much of the intent the choice carries. Pure.
 */

export interface PlattScaling {
  a: number
  b: number
  /** Weight of the evidence score; absent (0) for a one-input calibration. */
  c?: number
}

/** Raw probabilities are clamped to this margin before their logit is taken. */
const EPSILON = 1e-6

/** The logit of a probability, clamped away from 0 and 1. */
export function logit(p: number): number {
  const q = Math.min(1 - EPSILON, Math.max(EPSILON, p))
  return Math.log(q / (1 - q))
}

/** The calibrated probability of a raw probability `p` whose choice had evidence `evidence`. */
export function calibrate(p: number, scaling: PlattScaling, evidence = 0): number {
  return 1 / (1 + Math.exp(-(scaling.a * p + (scaling.c ?? 0) * evidence + scaling.b)))
}

/**
 * Fits a and b by gradient descent on the log-loss of (raw probability, right?) pairs, with
 * Platt's smoothed targets (N+ + 1)/(N+ + 2) and 1/(N− + 2) so a small sample is not fitted to
 * certainty. With no pairs, the identity (a = 1, b = 0).
 */
export function fitPlatt(
  pairs: Array<{ p: number; right: boolean; evidence?: number }>,
  options: { iterations?: number; learningRate?: number } = {},
): PlattScaling {
  if (!pairs.length) return { a: 1, b: 0 }
  const withEvidence = pairs.some((x) => x.evidence !== undefined)
  const positives = pairs.filter((x) => x.right).length
  const negatives = pairs.length - positives
  const hi = (positives + 1) / (positives + 2)
  const lo = 1 / (negatives + 2)
  let a = 1
  let b = 0
  let c = 0
  const rate = options.learningRate ?? 0.5
  for (let step = 0; step < (options.iterations ?? 20_000); step++) {
    let ga = 0
    let gb = 0
    let gc = 0
    for (const { p, right, evidence = 0 } of pairs) {
      const z = p
      const q = 1 / (1 + Math.exp(-(a * z + c * evidence + b)))
      const target = right ? hi : lo
      ga += ((q - target) * z) / pairs.length
      gb += (q - target) / pairs.length
      gc += ((q - target) * evidence) / pairs.length
    }
    a -= rate * ga
    b -= rate * gb
    if (withEvidence) c -= rate * gc
  }
  return withEvidence ? { a, b, c } : { a, b }
}
