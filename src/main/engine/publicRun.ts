import { FINAL_RUN_STATUSES, type Run } from '../../shared/run'
import type { RunEffect, RunRecord } from '../store/runRepository'

/** The run as the API shows it: the interface's fields and a few extras, without engine internals. */
export function toPublicRun(record: RunRecord): Run {
  const run: Run & { effects?: RunEffect[] } = {
    runId: record.runId,
    status: record.status,
    capabilityId: record.capabilityId,
    error: record.error,
    requirements: record.status === 'input_required' ? record.requirements : [],
    via: record.via,
    signIn: record.signIn,
    toolId: record.toolId,
    stateRevision: record.stateRevision,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
  if (record.status === 'succeeded') run.result = record.result
  // interface.md "Why a run failed": a `no_capability` run carries `result.next.tool` (the index tool).
  else if (record.error?.code === 'no_capability' && record.result !== undefined)
    run.result = record.result
  // What a cancel could not undo, or a lost write may have done.
  if (record.status === 'cancelled' || record.status === 'outcome_unknown')
    run.effects = record.effects
  return run
}

/** True when a run will not change again. */
export function isFinal(run: Pick<Run, 'status'>): boolean {
  return FINAL_RUN_STATUSES.includes(run.status)
}
