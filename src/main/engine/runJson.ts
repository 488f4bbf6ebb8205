import type { RunRecord } from '../store/runRepository'
import { toPublicRun } from './publicRun'

const CLOSE = Buffer.from('}')

/**
 * The public run (`toPublicRun`, plus `extra` fields such as a task's `routing`) as JSON text,
 * with the result's stored bytes put in as they are (`RunRecord.resultText`: the site's own
 * answer, or the one serialization made when the run ended), so answering a run serializes no
 * result again. Without known bytes it is one `JSON.stringify` of the run.
 */
export function publicRunJson(record: RunRecord, extra: Record<string, unknown> = {}): string {
  const head = headOf(record, extra)
  if (typeof head !== 'string' || record.resultText === undefined) return JSON.stringify(head)
  return `${head},"result":${record.resultText}}`
}

/**
 * `publicRunJson` as the body to send: when the run holds the UTF-8 bytes the site answered
 * (`RunRecord.resultBytes`, a run that just ended), a Buffer around those bytes, so the result is
 * neither serialized nor encoded again; else the same text.
 */
export function publicRunBody(
  record: RunRecord,
  extra: Record<string, unknown> = {},
): string | Buffer {
  if (!record.resultBytes) return publicRunJson(record, extra)
  const head = headOf(record, extra)
  if (typeof head !== 'string') return JSON.stringify(head)
  return Buffer.concat([Buffer.from(`${head},"result":`), record.resultBytes, CLOSE])
}

/**
 * The run's JSON without its result and closing brace (`{"runId":…`), or the whole public run as
 * an object when it carries no result to put in.
 */
function headOf(record: RunRecord, extra: Record<string, unknown>): string | object {
  const run: Record<string, unknown> = { ...toPublicRun(record), ...extra }
  if (run.result === undefined || record.resultText === undefined) return run
  const { result: _, ...rest } = run
  // `rest` always holds runId, so its JSON is never `{}` and a comma always fits.
  return JSON.stringify(rest).slice(0, -1)
}
