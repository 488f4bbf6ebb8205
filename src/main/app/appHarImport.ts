import type { RecordingResult } from '../../shared/appApi'
import { compileTrace } from '../compiler'
import { importHar } from '../recorder/har'
import type { Store } from '../store/store'

export interface HarImportDeps {
  store: Pick<Store, 'traces' | 'tools'>
  /** Milliseconds since the Unix epoch. */
  clock: () => number
  ulid: () => string
  uuid: () => string
}

/**
 * A HAR file dropped on Record: imported into a trace, saved, and compiled as a
 * recording is, the candidate named uniquely on its site. Same result shape as `recorder.stop`.
 * Errors: 400 `invalid_input` when the text is not a HAR 1.2 log (nothing is saved then).
 */
export function importHarRecording(
  deps: HarImportDeps,
  input: { har: string; intent: string },
): RecordingResult {
  const now = deps.clock()
  const trace = importHar(input.har, { traceId: `trc_${deps.ulid()}`, intent: input.intent, now })
  deps.store.traces.save(trace)
  const compiled = compileTrace(trace, { toolId: deps.uuid(), now, intent: input.intent })
  if (!compiled.ok) return { traceId: trace.id, candidate: null, explanation: compiled.explanation }
  const { candidate } = compiled
  candidate.name = deps.store.tools.uniqueName(candidate.siteHost, candidate.name)
  candidate.capabilityId = `${candidate.siteHost}/${candidate.name}`
  deps.store.tools.save(candidate)
  return { traceId: trace.id, candidate, explanation: null }
}
