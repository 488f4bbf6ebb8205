import { HAR_MAX_BYTES, type AppApiInput, type RecordingResult } from '../../shared/appApi'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { Trace } from '../../shared/trace'
import type { ToolSpec } from '../../shared/toolSpec'
import { compileTrace } from '../compiler'
import type { SeenLogins } from '../logins/seenLogins'
import { importHar, importHarFile } from '../recorder/har'
import type { Store } from '../store/store'
import { harTooLarge, harUploads, type HarUploads } from './harUploads'

export interface HarImportDeps {
  store: Pick<Store, 'traces' | 'tools'>
  /** Milliseconds since the Unix epoch. */
  clock: () => number
  ulid: () => string
  uuid: () => string
  /** Where the login the HAR shows is held for the offer. */
  seenLogins: Pick<SeenLogins, 'note'>
  /** The workspace whose saved logins say whether one is saved already. */
  tenant: string
  /** Where streamed uploads wait; default the process's own. */
  uploads?: Pick<HarUploads, 'take' | 'remove'>
}

/**
 * The trace of the HAR the input names: its text, or the streamed upload of `uploadId` (read
 * from its file, streamed past 32 MB as the CLI reads one; removed after). Errors: 413
 * `payload_too_large` over {@link HAR_MAX_BYTES}; 404 `not_found` for an upload unknown, taken
 * or expired; 400 `invalid_input` for a file that is not HAR 1.2, named by `fileName`.
 */
async function harTrace(
  deps: HarImportDeps,
  input: AppApiInput<'recorder.importHar'>,
  options: { traceId: string; intent: string; now: number },
): Promise<Trace> {
  if ('har' in input) {
    if (Buffer.byteLength(input.har) > HAR_MAX_BYTES) throw harTooLarge()
    return importHar(input.har, options)
  }
  const uploads = deps.uploads ?? harUploads
  const path = uploads.take(input.uploadId)
  if (!path)
    throw new ServiceError(
      'not_found',
      'The uploaded HAR file is no longer here (it is kept 10 minutes): drop it again.',
    )
  try {
    return await importHarFile(path, options)
  } catch (error) {
    // The file's own name, not the temp path it waited at.
    if (isServiceError(error))
      throw new ServiceError(
        error.code,
        error.message.replace(path, input.fileName || 'The file'),
        error.details,
      )
    throw error
  } finally {
    await uploads.remove(path)
  }
}

/**
 * The tool of `tools` that `candidate` compiles again: same name, intent, inputs and requests
 * (its own id, version, evidence and times aside), as when the same HAR is imported twice;
 * null when none.
 */
function sameTool(tools: ToolSpec[], candidate: ToolSpec): ToolSpec | null {
  const shape = (t: ToolSpec) =>
    JSON.stringify([t.name, t.intent, t.inputs, t.steps, t.output, t.verify, t.via])
  const wanted = shape(candidate)
  return tools.find((t) => shape(t) === wanted) ?? null
}

/**
 * A HAR file dropped on Record: imported into a trace, saved, and compiled as a
 * recording is, the candidate named uniquely on its site; the same HAR imported again answers
 * the tool it made the first time instead of a copy named `_2`. Same result shape as `recorder.stop`,
 * with the login the HAR's requests carried to the site offered (`login`), never saved by itself.
 * Errors: 400 `invalid_input` when the text is not a HAR 1.2 log (nothing is saved then), and
 * those of the upload (see `harTrace`).
 */
export async function importHarRecording(
  deps: HarImportDeps,
  input: AppApiInput<'recorder.importHar'>,
): Promise<RecordingResult> {
  const now = deps.clock()
  const trace = await harTrace(deps, input, {
    traceId: `trc_${deps.ulid()}`,
    intent: input.intent,
    now,
  })
  deps.store.traces.save(trace)
  const compiled = compileTrace(trace, { toolId: deps.uuid(), now, intent: input.intent })
  let candidate = compiled.ok ? compiled.candidate : null
  // The same HAR imported again compiles the same tool: that tool is shown, not a `_2` copy.
  const already = candidate
    ? sameTool(deps.store.tools.list({ siteHost: candidate.siteHost }), candidate)
    : null
  if (already) candidate = already
  else if (candidate) {
    candidate.name = deps.store.tools.uniqueName(candidate.siteHost, candidate.name)
    candidate.capabilityId = `${candidate.siteHost}/${candidate.name}`
    deps.store.tools.save(candidate)
  }
  const site =
    candidate?.siteHost ?? (URL.canParse(trace.startUrl) ? new URL(trace.startUrl).host : null)
  const login = site ? await deps.seenLogins.note(deps.tenant, trace, site) : null
  if (!compiled.ok || !candidate)
    return {
      traceId: trace.id,
      candidate: null,
      explanation: compiled.ok ? null : compiled.explanation,
      login,
    }
  return { traceId: trace.id, candidate, explanation: null, login }
}
