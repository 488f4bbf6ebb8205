import {
  DEFAULT_RESULT_RETENTION,
  type ResultRetention,
  type RunRepository,
} from '../store/runRepository'

/** The `resultRetention` entry of settings.json: whole days and megabytes (MiB). */
export interface RetentionSetting {
  days?: number
  maxMB?: number
}

/** How often the background sweep drops expired results by default: every 10 minutes. */
const RESULT_SWEEP_MS = 10 * 60_000

const DAY_MS = 24 * 60 * 60_000

/**
 * The retention rule of a setting: each field
 * missing takes the default (30 days, 1024 MB). Throws an Error naming the field when a value is
 * not a positive number, so a typo in settings.json stops the start instead of keeping nothing.
 */
export function retentionFrom(setting: RetentionSetting | undefined): ResultRetention {
  const positive = (name: keyof RetentionSetting, value: unknown, fallback: number): number => {
    if (value === undefined) return fallback
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new Error(`settings.json resultRetention.${name} must be a positive number.`)
    return value
  }
  return {
    maxAgeMs: positive('days', setting?.days, DEFAULT_RESULT_RETENTION.maxAgeMs / DAY_MS) * DAY_MS,
    maxBytes: Math.floor(
      positive('maxMB', setting?.maxMB, DEFAULT_RESULT_RETENTION.maxBytes / 1024 ** 2) * 1024 ** 2,
    ),
  }
}

/**
 * Starts the background sweep: applies `rule` now and then every `everyMs` (a timer that never
 * holds the process open). The run records stay; only their results go, and a later read of one
 * says `result_expired`. Returns the stop function.
 */
export function startResultSweep(deps: {
  runs: Pick<RunRepository, 'expireResults'>
  clock: () => number
  rule: ResultRetention
  everyMs?: number
}): () => void {
  const sweep = () => {
    try {
      deps.runs.expireResults(deps.rule, deps.clock())
    } catch {
      // A closed or busy store: the next sweep tries again.
    }
  }
  sweep()
  const timer = setInterval(sweep, deps.everyMs ?? RESULT_SWEEP_MS)
  timer.unref()
  return () => clearInterval(timer)
}
