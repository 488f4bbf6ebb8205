import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isServiceError, ServiceError } from '../../../shared/errors'
import { httpUrl } from '../../../shared/urls'
import type { IndexOutcome } from '../../browse/indexSite'
import type { Indexing } from '../../browse/indexJobs'
import type { ToolMatch, ToolRouter } from '../../router/router'
import { admitMetered, METERED_COST } from '../billing'
import type { ServerDeps } from '../serverDeps'
import { operationKey } from '../operationKey'
import { validBody } from '../routeValidation'
import { hashInputs } from '../../engine/inputsHash'
import type { Caller } from '../../surface/caller'
import { presentReceipt, replayReceipt } from '../receiptReplay'
import { INDEX_ENDPOINT } from '../accountPaths'
import { INDEX_BODY_SCHEMA, INDEX_JOB_BODY_SCHEMA } from '../../../shared/accountApiSchemas'
import { browseGuardFor, guardApiUrl, localSitesOf, ownOriginsOf } from '../../surface/localSites'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { OPERATION_KEY, json, billing } from '../../surface/openapi/docParts'

/** The result of an index receipt: the search result's shape plus `routing` (interface.md "B"). */
interface IndexResult {
  status: 'candidate' | 'unavailable'
  tools: ToolMatch[]
  index_endpoint: string
  candidate?: ToolMatch
  reason?: string
  routing: {
    traceId: string
    status: 'candidate' | 'unavailable' | 'running'
    candidate?: ToolMatch
    explanation?: IndexOutcome['explanation']
    /** Machine reason: `sign_in_required`, `site_unreachable`, `browser_failed`, `stopped`, `no_evidence`. */
    reason?: string
    signIn?: { url: string }
    observed?: IndexOutcome['observed']
  }
}

/** Checks an http(s) URL; 400 `invalid_input` otherwise. Returns it normalized. */
function checkUrl(value: string): string {
  const url = httpUrl(value)
  if (!url)
    throw new ServiceError(
      'invalid_input',
      '"url" must be a full http or https address, like https://example.com/.',
    )
  return url.href
}

/**
 * The indexing routes:
 *
 * `POST /v1/index` (interface.md "B"; body {@link INDEX_BODY_SCHEMA}; header `Idempotency-Key`
 * required; 1 credit per operation key, ledger and receipt key `index:<key>`): observes the URL
 * with the local headless Chromium (see `observePage`: load, settle, the one-search-box heuristic)
 * and compiles the trace with the intent. Answers the receipt `{status, cost, result}` where
 * `result` is shaped like a search result (`status` `candidate` or `unavailable`, `tools: []`,
 * `index_endpoint`, `candidate` as a tool match, `reason` text) plus `result.routing`
 * `{traceId, status, candidate?, explanation?, reason?, signIn?, observed}`; the candidate is
 * saved, so `POST /v1/tools/{id}/execute` runs and verifies it. A page that asks to sign in is
 * `unavailable` with `routing.reason` `sign_in_required` and `routing.signIn.url`. The receipt is
 * stored `uncertain` (and charged) before the browser starts and completed when the observation
 * ends: a repeat of the key while it runs waits for it; after a crash it stays `uncertain`
 * (inspect before a new operation). A repeat with the same inputs replays the receipt
 * (`Idempotent-Replayed: true`), with other inputs 409 `idempotency_conflict`.
 *
 * `POST /api/v1/index` (interface.md "C"; body {@link INDEX_JOB_BODY_SCHEMA}): starts an index job in the
 * background, 202 with the job; a site the workspace is already indexing answers that job, 200.
 * 429 `index_limit` (5 jobs in 24 hours, `Retry-After` until the oldest leaves the window), 429
 * `index_busy` (3 jobs running). A new job costs 1 credit (402 before it starts). `GET
 * /api/v1/index/{jobId}` reads it (404 `not_found` for another workspace's or unknown id); done
 * means `status` `done` and `indexed` above 0.
 *
 * `model_unavailable` (interface.md "Index job": "carries model_unavailable as a reason when the indexing
 * model has no credit") never occurs here: Sitecall compiles without a language model, so no
 * job can wait on a model's credit. It is not faked.
 *
 * Refusals: 401/403 (auth; OAuth tokens need `tools:index`), 400 `bad_request` /
 * `invalid_input`, 422 `unknown_argument`, 402, 503 `chromium_not_found` (checked before billing).
 */
export function registerIndexRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const indexing: IndexOperations = { deps, router: deps.routers.candidates, inflight: new Map() }
  app.post('/v1/index', { schema: INDEX_ROUTE }, (request, reply) =>
    indexOnce(indexing, request, reply),
  )
  app.post('/api/v1/index', { schema: INDEX_JOB_ROUTE }, (request, reply) =>
    startIndexJob(deps, request, reply),
  )
  app.get<{ Params: { jobId: string } }>(
    '/api/v1/index/:jobId',
    { schema: INDEX_JOB_READ_ROUTE },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const job = deps.indexing.getJob(caller.tenant, request.params.jobId)
      if (!job) throw new ServiceError('not_found', `No index job ${request.params.jobId}.`)
      return job
    },
  )
}

const INDEX_ROUTE = routeSchema({
  summary: 'Observe a URL with the local browser and compile a candidate (1 credit).',
  tag: 'indexing',
  auth: 'key',
  body: { schema: INDEX_BODY_SCHEMA, required: true },
  params: [OPERATION_KEY],
  responses: { '200': json('Index receipt `{status, cost, result: {..., routing}}`.') },
  errors: [
    'bad_request',
    'invalid_input',
    'invalid_input@422',
    'unknown_argument',
    'idempotency_conflict',
    'unavailable',
    'destination_denied',
    ...billing,
  ],
})

const INDEX_JOB_ROUTE = routeSchema({
  summary: 'Start an index job (202), or answer the job already indexing that site (200).',
  tag: 'indexing',
  auth: 'key',
  body: { schema: INDEX_JOB_BODY_SCHEMA, required: true },
  responses: { '200': json('The running job.'), '202': json('The new job.') },
  errors: [
    'bad_request',
    'invalid_input',
    'invalid_input@422',
    'unknown_argument',
    'unavailable',
    'index_busy',
    'index_limit',
    'destination_denied',
    ...billing,
  ],
})

const INDEX_JOB_READ_ROUTE = routeSchema({
  summary: 'Read an index job (done: status `done` and `indexed` above 0).',
  tag: 'indexing',
  auth: 'key',
  responses: { '200': json('The job.') },
  errors: ['not_found'],
})

/** What `POST /v1/index` keeps between requests: its router and the observations running. */
interface IndexOperations {
  deps: ServerDeps
  router: ToolRouter
  /** By workspace and operation key: a repeat of a running key waits for it. */
  inflight: Map<string, Promise<unknown>>
}

/** `POST /v1/index`: one observation per operation key, its receipt kept and replayed. */
async function indexOnce(ops: IndexOperations, request: FastifyRequest, reply: FastifyReply) {
  const { store, auth, clock } = ops.deps
  const caller = auth.authenticate(request)
  const key = operationKey(request)
  const body = validBody(request, INDEX_BODY_SCHEMA)
  const url = await admitUrl(ops.deps, caller, request, body.url)
  const inputHash = hashInputs({ url, intent: body.intent })
  const opKey = `index:${key}`
  const memo = `${caller.tenant}\0${opKey}`
  const running = ops.inflight.get(memo)
  if (running) await running.catch(() => undefined)
  const stored = store.receipts.get<IndexResult>(caller.tenant, opKey)
  if (stored) return replayReceipt(reply, stored, inputHash)
  await ops.deps.vault.refuseSecretValues(body.intent, caller.tenant)
  const service = ops.deps.indexing
  requireBrowser(service)
  const charge = admitMetered(store.ledger, caller.tenant, opKey, 'indexing', clock())
  const traceId = service.newTraceId()
  const { receipt, created } = openReceipt(
    ops.deps,
    caller.tenant,
    opKey,
    inputHash,
    traceId,
    charge,
  )
  if (!created) return replayReceipt(reply, receipt, inputHash)
  const work = service
    .index(caller.tenant, {
      url,
      intent: body.intent,
      traceId,
      ...guardOf(store, caller, request),
    })
    .then((outcome) =>
      store.receipts.complete<IndexResult>(
        caller.tenant,
        opKey,
        { status: 'completed', result: resultOf(ops.router, outcome, body.intent) },
        clock(),
      ),
    )
  ops.inflight.set(memo, work)
  try {
    const done = await work
    return reply.status(200).send(presentReceipt(done ?? receipt))
  } finally {
    ops.inflight.delete(memo)
  }
}

/**
 * The receipt of an observation about to start, stored `uncertain` (and charged, in the same
 * transaction) before the browser starts: a crash leaves it for the caller to inspect.
 */
function openReceipt(
  deps: ServerDeps,
  tenant: string,
  opKey: string,
  inputHash: string,
  traceId: string,
  charge: () => void,
) {
  const now = deps.clock()
  const pending: IndexResult = {
    status: 'unavailable',
    tools: [],
    index_endpoint: INDEX_ENDPOINT,
    reason:
      'The observation had not finished when this receipt was read (or the app stopped during it): inspect the trace and the browser before a new operation.',
    routing: { traceId, status: 'running' },
  }
  return deps.store.transaction(() => {
    const put = deps.store.receipts.put<IndexResult>({
      tenant,
      opKey,
      operation: 'index',
      inputHash,
      status: 'uncertain',
      cost: METERED_COST,
      result: pending,
      createdAt: now,
      updatedAt: now,
    })
    if (put.created) charge()
    return put
  })
}

/** `POST /api/v1/index`: a background job, 202, or the job already indexing that site, 200. */
async function startIndexJob(deps: ServerDeps, request: FastifyRequest, reply: FastifyReply) {
  const { store, auth, clock } = deps
  const caller = auth.authenticate(request)
  const body = validBody(request, INDEX_JOB_BODY_SCHEMA)
  const url = await admitUrl(deps, caller, request, body.url)
  if (body.intent) await deps.vault.refuseSecretValues(body.intent, caller.tenant)
  const service = deps.indexing
  requireBrowser(service)
  const { job, created } = service.startJob(
    caller.tenant,
    {
      url,
      ...(body.intent ? { intent: body.intent } : {}),
      ...guardOf(store, caller, request),
    },
    (jobId) => admitMetered(store.ledger, caller.tenant, `index-job:${jobId}`, 'indexing', clock()),
  )
  return reply.status(created ? 202 : 200).send(job)
}

/** The URL to observe: http(s) (400 `invalid_input`), and one the caller may reach. */
async function admitUrl(
  deps: ServerDeps,
  caller: Caller,
  request: FastifyRequest,
  value: string,
): Promise<string> {
  const url = checkUrl(value)
  await guardApiUrl(url, { ...caller, ownOrigins: ownOriginsOf(request) }, localSitesOf(deps.store))
  return url
}

/** The receipt's result: the search result's shape, the candidate ranked for the intent. */
function resultOf(router: ToolRouter, outcome: IndexOutcome, intent: string): IndexResult {
  const candidate = outcome.candidate ? router.rank(intent, [outcome.candidate])[0] : undefined
  return {
    status: outcome.status,
    tools: [],
    index_endpoint: INDEX_ENDPOINT,
    ...(candidate ? { candidate } : {}),
    ...(outcome.message ? { reason: outcome.message } : {}),
    routing: {
      traceId: outcome.traceId,
      status: outcome.status,
      ...(candidate ? { candidate } : {}),
      ...(outcome.explanation ? { explanation: outcome.explanation } : {}),
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.signIn ? { signIn: outcome.signIn } : {}),
      observed: outcome.observed,
    },
  }
}

/**
 * No Chromium to observe with is 503 `unavailable` (interface.md "Account API status meanings": 503,
 * provider configuration required), its message saying how to point at one: the recorder's
 * `chromium_not_found` is the desktop app's code, not one of the interface's REST tables.
 */
function requireBrowser(service: Indexing): void {
  try {
    service.requireBrowser()
  } catch (error) {
    if (isServiceError(error) && error.code === 'chromium_not_found')
      throw new ServiceError('unavailable', error.message)
    throw error
  }
}

/**
 * The destination check an API caller's indexing browser connects under:
 * redirects and the page's own requests meet the rule the URL met; none for the owner.
 */
function guardOf(
  store: ServerDeps['store'],
  caller: { owner: boolean; tenant: string },
  request: { socket: { localPort?: number | undefined } },
): { guard?: NonNullable<ReturnType<typeof browseGuardFor>> } {
  const guard = browseGuardFor(
    { ...caller, ownOrigins: ownOriginsOf(request) },
    localSitesOf(store),
  )
  return guard ? { guard } : {}
}
