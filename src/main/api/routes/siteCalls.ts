import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { ToolSpec } from '../../../shared/toolSpec'
import { isFinal, toPublicRun } from '../../engine/runEngine'
import type { RunRecord } from '../../store/runRepository'
import type { ServerDeps } from '../server'
import { applySelect } from '../select'
import { parseDeadline, settleWithin } from '../deadline'

/** Spec "Limits": Idempotency-Key (site tool call) max 200 characters. */
const MAX_IDEMPOTENCY_KEY = 200

/**
 * Surface A (spec "A. Site tool calls") and runs (spec "C"): `POST
 * /api/v1/sites/{site_host}/call/{tool_id}`, `GET /api/v1/sites/{site_host}`, `GET
 * /api/v1/runs/{runId}`.
 */
export function registerSiteCallRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { store, engine, auth } = deps

  app.post<{ Params: { siteHost: string; toolId: string } }>(
    '/api/v1/sites/:siteHost/call/:toolId',
    async (request, reply) => {
      const caller = auth.authenticate(request)
      const body = request.body
      if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ServiceError(
          'bad_request',
          400,
          "The body must be a JSON object of the tool's inputs.",
        )
      const { siteHost, toolId } = request.params
      const tool = store.tools.getByName(siteHost, toolId) ?? store.tools.get(toolId)
      if (!tool || tool.siteHost !== siteHost)
        throw new ServiceError(
          'not_found',
          404,
          `No tool "${toolId}" on ${siteHost}: GET /api/v1/sites/${siteHost} lists them.`,
        )
      if (tool.status === 'quarantined') throw quarantined(tool, store.tools.list({ siteHost }))
      if (tool.status === 'candidate')
        throw new ServiceError(
          'not_found',
          404,
          `${tool.name} is an unverified candidate: execute it once with POST /v1/tools/${tool.id}/execute.`,
        )
      const { select, deadlineMs: bodyDeadline, ...inputs } = body as Record<string, unknown>
      if (
        select !== undefined &&
        !(Array.isArray(select) && select.every((s) => typeof s === 'string'))
      )
        throw new ServiceError('invalid_input', 400, '"select" must be an array of path strings.')
      const deadlineMs = parseDeadline(request.headers['x-service-deadline-ms'], bodyDeadline)
      const idempotencyKey = request.headers['idempotency-key']
      if (
        typeof idempotencyKey === 'string' &&
        (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
      )
        throw new ServiceError(
          'invalid_input',
          400,
          `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`,
        )
      const started = engine.start(tool, inputs, {
        tenant: caller.tenant,
        // Namespaced apart from account-API operation keys (`execute:…`), which share the table.
        idempotencyKey: typeof idempotencyKey === 'string' ? `call:${idempotencyKey}` : null,
        deadlineMs,
        mayAsk: true,
        billOnSuccess: true,
      })
      const run = await settleWithin(started.done, deadlineMs)
      if (!run) {
        throw new ServiceError(
          'run_timeout',
          504,
          `The run passed its ${deadlineMs} ms deadline and goes on: poll it.`,
          {
            runId: started.run.runId,
            deadlineMs,
            poll: `/api/v1/runs/${started.run.runId}`,
          },
        )
      }
      const refused = capacityRefusal(run)
      if (refused)
        return reply
          .status(refused.status)
          .header('retry-after', String(refused.retryAfterSeconds))
          .send({ error: refused.error })
      return reply
        .status(run.status === 'input_required' ? 202 : 200)
        .send(present(run, select as string[] | undefined))
    },
  )

  app.get<{ Params: { siteHost: string } }>('/api/v1/sites/:siteHost', async (request) => {
    auth.authenticate(request)
    const { siteHost } = request.params
    const tools = store.tools.list({ siteHost })
    if (!tools.length) throw new ServiceError('not_found', 404, `No tools on ${siteHost}.`)
    return {
      site_host: siteHost,
      tools: tools.map((t) => ({
        id: t.name,
        capabilityId: t.capabilityId,
        description: t.description,
        inputs: t.inputs,
        mutating: t.mutating,
        status: t.status,
      })),
    }
  })

  app.get<{ Params: { runId: string } }>('/api/v1/runs/:runId', async (request, reply) => {
    const caller = auth.authenticate(request)
    const run = engine.get(request.params.runId)
    if (!run || (run.tenant !== caller.tenant && !caller.owner))
      throw new ServiceError('not_found', 404, `No run ${request.params.runId}.`)
    return reply.status(isFinal(run) ? 200 : 202).send(toPublicRun(run))
  })
}

function present(record: RunRecord, select: string[] | undefined) {
  const run = toPublicRun(record)
  if (!select || run.status !== 'succeeded') return run
  const { value, missing } = applySelect(run.result, select)
  return { ...run, result: value, ...(missing.length ? { selectMissing: missing } : {}) }
}

/**
 * A run that failed for want of a browser (spec "Errors": `browser_capacity`) answers 503 when it
 * queued for its 30 s first, 429 when it was refused at once, with `Retry-After` (about 30 s).
 * The rendered executor puts `waited` and `retryAfterSeconds` on the run's error; a run without
 * them (no browser configured) counts as waited.
 */
function capacityRefusal(record: RunRecord) {
  const error = record.error
  if (record.status !== 'failed' || error?.code !== 'browser_capacity') return null
  const retryAfterSeconds =
    typeof error.retryAfterSeconds === 'number' ? error.retryAfterSeconds : 30
  return {
    status: error.waited === false ? 429 : 503,
    retryAfterSeconds,
    error: { code: error.code, message: error.message, runId: record.runId },
  }
}

/**
 * 409 `tool_quarantined` (spec "A", 409): names what to use meanwhile: another verified tool of
 * the site when there is one, else recording the flow again. The tool is rechecked by itself.
 */
function quarantined(tool: ToolSpec, siblings: ToolSpec[]): ServiceError {
  const other = siblings.find((t) => t.id !== tool.id && t.status === 'verified')
  const meanwhile = other
    ? `use ${other.name} meanwhile`
    : 'record the flow again in the app meanwhile'
  return new ServiceError(
    'tool_quarantined',
    409,
    `${tool.name} failed its checks 3 times in a row and is rechecked automatically; ${meanwhile}.`,
  )
}
