import type { RunRecord } from '../store/runRepository'

/** How a run is started (`RunEngine.start`): who asks, and what the caller allows. */
export interface StartOptions {
  tenant: string
  idempotencyKey?: string | null
  deadlineMs?: number | null
  /** The caller can be asked (202 `input_required`) rather than refused; default true. */
  mayAsk?: boolean
  /** The caller confirmed a write (`allow_mutation`): no approval is asked. */
  allowMutation?: boolean
  /** Surface A: check the balance first (402) and bill one credit on success. */
  billOnSuccess?: boolean
  /** Account-API execution: one run at a time per workspace, in arrival order (spec B rule 5). */
  serialize?: boolean
}

export interface StartedRun {
  /** The run as persisted before anything was sent. */
  run: RunRecord
  /**
   * Settles once `run` is committed (its insert shares its commit with the other runs started in
   * the same event-loop turn); rejects when it could not be stored, and then nothing was sent.
   */
  persisted: Promise<void>
  /** Settles when the run is final or waits on a person (it never rejects). */
  done: Promise<RunRecord>
  /** True when an earlier call with the same Idempotency-Key owns this run. */
  joined: boolean
}
