import type { ErrorBody } from './errors'

/** interface.md "Run status". */
export const RUN_STATUSES = [
  'accepted',
  'working',
  'succeeded',
  'input_required',
  'failed',
  'outcome_unknown',
  'cancelled',
  'expired',
] as const
export type RunStatus = (typeof RUN_STATUSES)[number]

/** Statuses after which a run never changes again. */
export const FINAL_RUN_STATUSES: readonly RunStatus[] = [
  'succeeded',
  'failed',
  'outcome_unknown',
  'cancelled',
  'expired',
]

export interface Requirement {
  id: string
  kind: 'approval' | 'choice' | 'value'
  slot?: string
  options?: Array<{ id: string; label: string }>
  message: string
  /** ISO 8601 */
  expiresAt: string
  /** An approval's request as it will be sent (values known only at send time stay placeholders). */
  request?: { method: string; url: string; body: unknown }
}

/**
 * A run as the API shows it (interface.md "Run"): the interface's fields plus a few extras, which docs/interface.md
 * allows ("Extra fields may appear on a run").
 */
export interface Run {
  runId: string
  status: RunStatus
  capabilityId: string | null
  result?: unknown
  error: ErrorBody | null
  requirements: Requirement[]
  via: 'http' | 'rendered' | null
  signIn: { url: string } | null
  toolId: string
  stateRevision: number
  /** ISO 8601 */
  createdAt: string
  updatedAt: string
}
