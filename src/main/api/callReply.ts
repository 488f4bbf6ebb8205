import type { FastifyReply } from 'fastify'
import { capacityError, timeoutError, type CallOutcome } from '../engine/callTool'
import { isFinal, toPublicRun } from '../engine/runEngine'
import { publicRunBody } from '../engine/runJson'
import type { RunRecord } from '../store/runRepository'
import { applySelect } from './select'

/**
 * Renders a call's outcome over REST (interface.md "A. Site tool calls", "C"): 200 for a final run, 202
 * while it runs or waits on a person, 504 `run_timeout` past the deadline (thrown, so the error
 * envelope renders it), 429/503 `browser_capacity` with `Retry-After`. `select` keeps parts of a
 * succeeded result (`selectMissing` lists paths that matched nothing); `extra` fields (a task's
 * `routing`) are added to the run.
 */
export function sendOutcome(
  reply: FastifyReply,
  outcome: CallOutcome,
  select: string[] | undefined,
  extra: Record<string, unknown> = {},
): FastifyReply {
  if (outcome.kind === 'timed_out') throw timeoutError(outcome)
  if (outcome.kind === 'refused_capacity') {
    const { retryAfterSeconds: _, ...error } = capacityError(outcome).toBody()
    return reply
      .status(outcome.status)
      .header('retry-after', String(outcome.retryAfterSeconds))
      .send({ error })
  }
  return sendRun(reply, outcome.run, select, extra)
}

/** A run as a REST answer: 200 when final, else 202; `select` and `extra` as in `sendOutcome`. */
export function sendRun(
  reply: FastifyReply,
  record: RunRecord,
  select: string[] | undefined,
  extra: Record<string, unknown> = {},
): FastifyReply {
  const status = isFinal(record) ? 200 : 202
  // The result's bytes as received (or stored) go out as they are: no second serialization.
  if (!select)
    return reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send(publicRunBody(record, extra))
  const run: Record<string, unknown> = { ...toPublicRun(record), ...extra }
  if (record.status === 'succeeded') {
    const { value, missing } = applySelect(run.result, select)
    run.result = value
    if (missing.length) run.selectMissing = missing
  }
  return reply.status(status).send(run)
}
