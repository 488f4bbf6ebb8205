import type { RecordingResult } from '../../shared/appApi'
import { compileTrace } from '../compiler'
import type { SeenLogins } from '../logins/seenLogins'
import { importHar } from '../recorder/har'
import type { Store } from '../store/store'

export interface HarImportDeps {
  store: Pick<Store, 'traces' | 'tools'>
  /** Milliseconds since the Unix epoch. */
  clock: () => number
  ulid: () => string
  uuid: () => string
  /** Where the login the HAR shows is held for the offer (issue 24 item E). */
  seenLogins: Pick<SeenLogins, 'note'>
  /** The workspace whose saved logins say whether one is saved already. */
  tenant: string
}

/**
 * A HAR file dropped on Record: imported into a trace, saved, and compiled as a
 * recording is, the candidate named uniquely on its site. Same result shape as `recorder.stop`,
 * with the login the HAR's requests carried to the site offered (`login`), never saved by itself.
 * Errors: 400 `invalid_input` when the text is not a HAR 1.2 log (nothing is saved then).
 */
export async function importHarRecording(
  deps: HarImportDeps,
  input: { har: string; intent: string },
): Promise<RecordingResult> {
  const now = deps.clock()
  const trace = importHar(input.har, { traceId: `trc_${deps.ulid()}`, intent: input.intent, now })
  deps.store.traces.save(trace)
  const compiled = compileTrace(trace, { toolId: deps.uuid(), now, intent: input.intent })
  const candidate = compiled.ok ? compiled.candidate : null
  if (candidate) {
    candidate.name = deps.store.tools.uniqueName(candidate.siteHost, candidate.name)
    candidate.capabilityId = `${candidate.siteHost}/${candidate.name}`
    deps.store.tools.save(candidate)
  }
  const site =
    candidate?.siteHost ?? (URL.canParse(trace.startUrl) ? new URL(trace.startUrl).host : null)
  const login = site ? await deps.seenLogins.note(deps.tenant, trace, site) : null
  if (!compiled.ok)
    return { traceId: trace.id, candidate: null, explanation: compiled.explanation, login }
  return { traceId: trace.id, candidate, explanation: null, login }
}
