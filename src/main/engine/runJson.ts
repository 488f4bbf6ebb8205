import type { RunRecord } from '../store/runRepository'
import { toPublicRun } from './runEngine'

/**
 * The public run (`toPublicRun`, plus `extra` fields such as a task's `routing`) as JSON text,
 * with the result's stored bytes put in as they are (`RunRecord.resultText`: the site's own
 * answer, or the one serialization made when the run ended), so answering a run serializes no
 * result again. Without known bytes it is one `JSON.stringify` of the run.
 */
export function publicRunJson(record: RunRecord, extra: Record<string, unknown> = {}): string {
  const run: Record<string, unknown> = { ...toPublicRun(record), ...extra }
  if (run.result === undefined || record.resultText === undefined) return JSON.stringify(run)
  const { result: _, ...rest } = run
  const head = JSON.stringify(rest)
  // `head` always holds runId, so it is never `{}` and a comma always fits.
  return `${head.slice(0, -1)},"result":${record.resultText}}`
}
