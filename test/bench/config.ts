/** What one bench run does; every figure can be changed by env so CI can run a short one. */
export interface BenchConfig {
  /** Sequential calls measured per side (direct, Sitecall). */
  n: number
  /** Calls per side before measuring: JIT, sockets and SQLite pages warm up first. */
  warmup: number
  /** Calls per side in one latency batch; batches of the two sides alternate. */
  batch: number
  /** In-flight calls during the throughput phase. */
  concurrency: number
  /** Seconds each side is driven at `concurrency`. */
  seconds: number
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, not "${raw}".`)
  return value
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, not "${raw}".`)
  return value
}

/** Reads BENCH_N, BENCH_WARMUP, BENCH_BATCH, BENCH_CONCURRENCY, BENCH_SECONDS; throws on junk. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  return {
    n: positiveInt(env, 'BENCH_N', 500),
    warmup: positiveInt(env, 'BENCH_WARMUP', 50),
    batch: positiveInt(env, 'BENCH_BATCH', 50),
    concurrency: positiveInt(env, 'BENCH_CONCURRENCY', 16),
    seconds: positiveNumber(env, 'BENCH_SECONDS', 5),
  }
}

/**
 * Queries the calls rotate through: each hits a different slice of the directory, so neither side
 * answers one cached body. All must match records (setup checks), since an empty answer fails
 * verification and would count as a Sitecall failure the bench caused itself.
 */
export const QUERIES = [
  'writing',
  'image',
  'video',
  'code',
  'audio',
  'marketing',
  'research',
  'productivity',
] as const
