import { ServiceError } from '../../shared/errors'
import type { RunStatus } from '../../shared/run'
import type { RunRecord } from '../store/runRepository'
import type { EngineState } from './engineState'
import { applyAnswers, type Answer, type OpenRequirement } from './requirements'
import { launch } from './runExecute'
import { settledRun, type StartedRun } from './runStart'

/** The body of an answer to a waiting run (interface.md "Answering an input_required run"). */
export interface RespondBody {
  stateRevision: unknown
  answers: unknown
}

/** The run, or 404 `not_found` when there is none or it is another tenant's (null: any). */
export function findRun(state: EngineState, runId: string, tenant: string | null): RunRecord {
  const run = state.deps.runs.get(runId)
  if (!run || (tenant !== null && run.tenant !== tenant))
    throw new ServiceError('not_found', `No run ${runId}.`)
  return run
}

/** `run`, expired now when it waits on requirements past their 15 minutes. */
export function expireIfDue(state: EngineState, run: RunRecord): RunRecord {
  if (run.status !== 'input_required') return run
  const now = state.deps.clock()
  if (!run.requirements.some((r) => Date.parse(r.expiresAt) <= now)) return run
  return (
    state.move(run.runId, { status: 'expired', from: ['input_required'], finished: true }) ??
    state.deps.runs.get(run.runId)!
  )
}

/** Expires every waiting run past its window; returns how many. */
export function expireWaiting(state: EngineState): number {
  let n = 0
  for (const run of state.deps.runs.withStatus(['input_required']))
    if (expireIfDue(state, run).status === 'expired') n++
  return n
}

/**
 * Answers a waiting run's requirements and continues the same run (`RunEngine.respond`): a
 * declined approval fails it, answers that leave requirements open keep it waiting (next
 * revision), and the last answer launches it. Refusals as `RunEngine.respond` lists them.
 */
export function respondToRun(
  state: EngineState,
  runId: string,
  tenant: string | null,
  body: RespondBody,
): StartedRun {
  const run = expireIfDue(state, findRun(state, runId, tenant))
  const answers = parseAnswers(body.answers)
  if (!Number.isInteger(body.stateRevision))
    throw new ServiceError('invalid_input', '"stateRevision" must be the run\'s integer.')
  const ownIds = (run.requirements as OpenRequirement[]).map((r) => r.id)
  if (run.status === 'expired' && answers.some((a) => ownIds.includes(a.requirementId)))
    throw new ServiceError(
      'expired_requirement',
      `The requirements of ${runId} expired after 15 minutes: start a new run.`,
    )
  if (run.status !== 'input_required')
    throw new ServiceError('conflict', `${runId} is ${run.status}, not waiting for input.`)
  if (body.stateRevision !== run.stateRevision)
    throw new ServiceError(
      'stale_revision',
      `${runId} is at stateRevision ${run.stateRevision}: GET it and answer again.`,
    )
  const tool = state.toolsOf(run.tenant).get(run.toolId)
  if (!tool) throw new ServiceError('not_found', `The tool of ${runId} was deleted.`)
  const applied = applyAnswers(
    tool,
    runId,
    run.requirements as OpenRequirement[],
    run.inputs,
    answers,
    state.deps.clock(),
  )
  state.validator.check(tool, applied.inputs)
  const guard = { from: ['input_required'] as RunStatus[], revision: run.stateRevision }
  const raced = () =>
    new ServiceError('stale_revision', `${runId} changed meanwhile: GET it again.`)
  if (applied.declined) {
    const failed = state.move(runId, {
      status: 'failed',
      error: { code: 'declined', message: 'The approval was declined: nothing was sent.' },
      finished: true,
      ...guard,
    })
    if (!failed) throw raced()
    return settledRun(failed)
  }
  if (applied.open.length) {
    const waiting = state.move(runId, {
      status: 'input_required',
      inputs: applied.inputs,
      requirements: applied.open,
      ...guard,
    })
    if (!waiting) throw raced()
    return settledRun(waiting)
  }
  const accepted = state.move(runId, {
    status: 'accepted',
    inputs: applied.inputs,
    requirements: [],
    ...guard,
  })
  if (!accepted) throw raced()
  return {
    run: accepted,
    persisted: Promise.resolve(),
    done: launch(state, tool, accepted, false),
    joined: false,
  }
}

/** Checks the shape of `answers` (interface.md "Answering an input_required run"). */
function parseAnswers(raw: unknown): Answer[] {
  if (!Array.isArray(raw) || !raw.length)
    throw new ServiceError('invalid_input', '"answers" must be a non-empty array.')
  return raw.map((a) => {
    if (a === null || typeof a !== 'object' || typeof (a as Answer).requirementId !== 'string')
      throw new ServiceError(
        'invalid_input',
        'Each answer is {requirementId, value | optionId | approve}.',
      )
    return a as Answer
  })
}
