/**
 * The ranker's model: a conditional logit (McFadden 1974, "Conditional logit
 * analysis of qualitative choice behavior"), the softmax over a choice set of learning to rank.
 * An intent's choice set is the tools that may fit it and the choice of no tool (its own feature,
 * `none`): each gets probability exp(w·x) / Σ exp(w·x). Fitted by Newton's method on the
 * log-likelihood of the right choice (several right ones: their summed probability) with an L2
 * penalty, deterministic; calibrated by Platt scaling (Platt 1999, "Probabilistic outputs for
 * support vector machines"): σ(slope·logit(p) + offset) fitted on out-of-fold probabilities, so 0.9 means
 * nine right in ten on apps the weights were not fitted on. Pure.
 */

/** One intent's choice set: a feature vector per choice and which are right. */
export interface ChoiceGroup {
  rows: number[][]
  right: boolean[]
  /** How much the group counts in the fit (1 when absent): an app's share, spread over its intents. */
  weight?: number
}

/**
 * Platt's calibration of a raw choice probability p: σ(slope · logit(p) + offset). Both are
 * fitted (`fitPlatt`); the identity is slope 1, offset 0.
 */
export interface Platt {
  /** Multiplies the logit of p; above 0 keeps the order of probabilities. */
  slope: number
  /** Added to the scaled logit: shifts every calibrated probability up (above 0) or down. */
  offset: number
}

/** w·x */
export function dot(w: readonly number[], x: readonly number[]): number {
  let s = 0
  for (let i = 0; i < w.length; i++) s += w[i]! * x[i]!
  return s
}

/** The softmax of `logits` (stable: the largest is taken out first). */
export function softmax(logits: readonly number[]): number[] {
  let top = -Infinity
  for (const l of logits) if (l > top) top = l
  const e = logits.map((l) => Math.exp(l - top))
  const total = e.reduce((a, b) => a + b, 0)
  return e.map((v) => v / total)
}

/** The logit of `p`, clamped to [1e-9, 1 − 1e-9]. */
function logit(p: number): number {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p))
  return Math.log(q / (1 - q))
}

/** The calibrated probability of a raw choice probability `p`. */
export function calibrate(p: number, platt: Platt): number {
  return 1 / (1 + Math.exp(-(platt.slope * logit(p) + platt.offset)))
}

/**
 * Fits the weights on `groups` (those with a right choice) by damped Newton steps from zero;
 * `l2` penalises their squared norm. Returns one weight per dimension.
 */
export function fitChoiceModel(
  groups: readonly ChoiceGroup[],
  dimensions: number,
  l2 = 0.01,
  iterations = 30,
): number[] {
  const usable = groups.filter((g) => g.right.some(Boolean))
  let w = new Array<number>(dimensions).fill(0)
  const n = usable.reduce((s, g) => s + (g.weight ?? 1), 0) || 1
  let previous = objective(usable, w, l2) / n
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(dimensions).fill(0)
    const h = Array.from({ length: dimensions }, () => new Array<number>(dimensions).fill(0))
    for (const group of usable) accumulate(group, w, g, h)
    for (let i = 0; i < dimensions; i++) {
      g[i] = g[i]! / n - l2 * w[i]!
      for (let j = 0; j < dimensions; j++) h[i]![j] = h[i]![j]! / n
      h[i]![i] = h[i]![i]! + l2
    }
    const step = solve(h, g)
    // Damped: halve the step until the objective improves (the likelihood of several right
    // choices is not concave everywhere).
    let t = 1
    let next = w
    let value = previous
    for (let k = 0; k < 20; k++, t /= 2) {
      next = w.map((wi, i) => wi + t * step[i]!)
      value = objective(usable, next, l2) / n
      if (value >= previous - 1e-12) break
    }
    if (value < previous - 1e-12) break
    const moved = Math.abs(value - previous)
    w = next
    previous = value
    if (moved < 1e-9) break
  }
  return w
}

/** Penalised log-likelihood (times n, the groups' summed weight) of `groups` under `w`. */
function objective(groups: readonly ChoiceGroup[], w: readonly number[], l2: number): number {
  let total = 0
  let n = 0
  for (const group of groups) {
    const p = softmax(group.rows.map((x) => dot(w, x)))
    let right = 0
    for (let i = 0; i < p.length; i++) if (group.right[i]) right += p[i]!
    total += (group.weight ?? 1) * Math.log(Math.max(right, 1e-300))
    n += group.weight ?? 1
  }
  return total - (n * l2 * w.reduce((s, v) => s + v * v, 0)) / 2
}

/**
 * Adds one group's gradient and negative Hessian of log Σ_right p to `g` and `h`, times its
 * weight: E_{p|right}[x] − E_p[x], and Cov_p(x) − Cov_{p|right}(x).
 */
function accumulate(group: ChoiceGroup, w: readonly number[], g: number[], h: number[][]): void {
  const d = w.length
  const weight = group.weight ?? 1
  const p = softmax(group.rows.map((x) => dot(w, x)))
  let pr = 0
  for (let i = 0; i < p.length; i++) if (group.right[i]) pr += p[i]!
  const mean = new Array<number>(d).fill(0)
  const meanR = new Array<number>(d).fill(0)
  for (let i = 0; i < p.length; i++) {
    const x = group.rows[i]!
    const q = group.right[i] ? p[i]! / pr : 0
    for (let a = 0; a < d; a++) {
      mean[a] = mean[a]! + p[i]! * x[a]!
      meanR[a] = meanR[a]! + q * x[a]!
    }
  }
  for (let a = 0; a < d; a++) g[a] = g[a]! + weight * (meanR[a]! - mean[a]!)
  for (let i = 0; i < p.length; i++) {
    const x = group.rows[i]!
    const q = group.right[i] ? p[i]! / pr : 0
    const c = weight * (p[i]! - q)
    if (c === 0) continue
    for (let a = 0; a < d; a++) {
      if (x[a] === 0) continue
      const ca = c * x[a]!
      for (let b = 0; b < d; b++) h[a]![b] = h[a]![b]! + ca * x[b]!
    }
  }
  for (let a = 0; a < d; a++)
    for (let b = 0; b < d; b++)
      h[a]![b] = h[a]![b]! + weight * (meanR[a]! * meanR[b]! - mean[a]! * mean[b]!)
}

/** Solves `a·x = b` by Gaussian elimination with partial pivoting (a small, dense system). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]!])
  for (let c = 0; c < n; c++) {
    let pivot = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r
    ;[m[c], m[pivot]] = [m[pivot]!, m[c]!]
    const v = m[c]![c]!
    if (Math.abs(v) < 1e-12) continue
    for (let r = 0; r < n; r++) {
      if (r === c) continue
      const f = m[r]![c]! / v
      if (f === 0) continue
      for (let k = c; k <= n; k++) m[r]![k] = m[r]![k]! - f * m[c]![k]!
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!))
}

/**
 * Fits Platt's slope (a) and offset (b) on (raw probability, right?) pairs by Newton's method on the log-loss,
 * with Platt's smoothed targets (N₊+1)/(N₊+2) and 1/(N₋+2), each step halved until the loss
 * falls (Lin, Lin and Weng 2007, "A note on Platt's probabilistic outputs"). A pair's `weight`
 * (1 when absent) counts it that many times. With no pairs, the identity.
 */
export function fitPlatt(
  pairs: ReadonlyArray<{ p: number; right: boolean; weight?: number }>,
): Platt {
  if (!pairs.length) return { slope: 1, offset: 0 }
  const weightOf = (x: { weight?: number }) => x.weight ?? 1
  const pos = pairs.reduce((s, x) => s + (x.right ? weightOf(x) : 0), 0)
  const all = pairs.reduce((s, x) => s + weightOf(x), 0)
  const hi = (pos + 1) / (pos + 2)
  const lo = 1 / (all - pos + 2)
  const data = pairs.map((x) => ({ z: logit(x.p), t: x.right ? hi : lo, w: weightOf(x) }))
  const loss = (a: number, b: number) => {
    let total = 0
    for (const { z, t, w } of data) {
      const f = a * z + b
      // log(1 + e^f) − t·f, computed stably.
      total += w * ((f > 0 ? f + Math.log1p(Math.exp(-f)) : Math.log1p(Math.exp(f))) - t * f)
    }
    return total
  }
  let a = 1
  let b = 0
  let current = loss(a, b)
  for (let it = 0; it < 100; it++) {
    let ga = 0
    let gb = 0
    let haa = 1e-12
    let hab = 0
    let hbb = 1e-12
    for (const { z, t, w } of data) {
      const q = 1 / (1 + Math.exp(-(a * z + b)))
      const r = w * (q - t)
      const s = w * q * (1 - q)
      ga += r * z
      gb += r
      haa += s * z * z
      hab += s * z
      hbb += s
    }
    const det = haa * hbb - hab * hab
    if (Math.abs(det) < 1e-15) break
    const da = (hbb * ga - hab * gb) / det
    const db = (haa * gb - hab * ga) / det
    let step = 1
    let next = current
    for (; step > 1e-10; step /= 2) {
      next = loss(a - step * da, b - step * db)
      if (next <= current) break
    }
    if (next > current) break
    a -= step * da
    b -= step * db
    const moved = current - next
    current = next
    if (Math.abs(step * da) + Math.abs(step * db) < 1e-10 || moved < 1e-12) break
  }
  return { slope: a, offset: b }
}
