/** Latency figures of one series of calls, in milliseconds. */
export interface LatencySummary {
  n: number
  p50: number
  p99: number
  mean: number
  min: number
  max: number
}

/**
 * Nearest-rank percentile of an ascending list: no interpolation, so p99 of 500 samples is a
 * latency that one call really had (the 495th), not a value between two calls.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b)
  const sum = sorted.reduce((s, x) => s + x, 0)
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : NaN,
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
  }
}

/** a / b, or NaN when b is not a positive number (a ratio over nothing is no figure). */
export const ratio = (a: number, b: number): number => (b > 0 ? a / b : NaN)
