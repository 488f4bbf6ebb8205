import type { EngineState } from './engineState'
import { launch, RUNNING } from './runExecute'
import { expireWaiting } from './runWaiting'

/**
 * After a crash or kill (`RunEngine.recover`): runs left in flight end `outcome_unknown` if they
 * were writes already sent, fail `worker_lost` if they were writes not yet sent (or their tool is
 * gone), and are resumed if they were reads; waiting runs past their window expire. Returns how
 * many of each.
 */
export function recoverRuns(state: EngineState): {
  resumed: number
  unknown: number
  lost: number
  expired: number
} {
  const counts = { resumed: 0, unknown: 0, lost: 0, expired: expireWaiting(state) }
  for (const run of state.deps.runs.withStatus(RUNNING)) {
    const tool = state.toolsOf(run.tenant).get(run.toolId)
    if (run.mutating && run.status === 'working') {
      state.move(run.runId, {
        status: 'outcome_unknown',
        error: {
          code: 'worker_lost',
          message:
            'Sitecall stopped while this write was in flight: check the site before repeating it.',
        },
        from: ['working'],
        finished: true,
      })
      counts.unknown++
    } else if (run.mutating || !tool) {
      state.move(run.runId, {
        status: 'failed',
        error: { code: 'worker_lost', message: 'Sitecall stopped before this run was sent.' },
        from: RUNNING,
        finished: true,
      })
      counts.lost++
    } else {
      // A read is safe to send again: put it back to accepted and run it.
      const again = state.move(run.runId, { status: 'accepted', from: RUNNING })
      if (again) {
        void launch(state, tool, again, false)
        counts.resumed++
      }
    }
  }
  return counts
}
