import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SEARCH_BODY_SCHEMA } from '../../../shared/accountApiSchemas'
import type { RouteResult, ToolRouter } from '../../router/router'
import type { ToolSpec } from '../../../shared/toolSpec'
import { admitMetered, METERED_COST } from '../billing'
import { operationKey } from '../operationKey'
import type { ServerDeps } from '../serverDeps'
import { INDEX_ENDPOINT } from '../accountPaths'
import { validBody, validQuery } from '../routeValidation'
import { hashInputs } from '../../engine/inputsHash'
import { presentReceipt, replayReceipt } from '../receiptReplay'
import { createWorkspaceToolCache } from '../toolCache'
import { OWNER_WORKSPACE } from '../../store/workspaces'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { searchContract } from '../../surface/openapi/docParts'

/** The search receipt of interface.md "Resources". */
export interface SearchReceipt {
  status: 'completed' | 'uncertain'
  cost: number
  result: RouteResult & { index_endpoint: string }
}

/**
 * The three search forms of interface.md "B" (rule 1: one result and one operation-key ledger):
 * `POST /v1/tools/search` and `POST /v1/tool-router` (JSON `{intent, domain?}`) and
 * `GET /v1/tools?intent=&domain=`. Each needs `Idempotency-Key`; the operation is keyed
 * `search:<key>` in the ledger and the receipts, whatever the form. The first request with a key
 * costs 1 credit and stores its receipt; a repeat with the same inputs returns that receipt as it
 * was stored (its `cost` stays the operation's cost, 1; nothing is charged again; the answer
 * carries `Idempotent-Replayed: true`); a repeat with other inputs is 409 `idempotency_conflict`.
 * Refusals: 401/403 (auth; 403 `forbidden` for a token whose scopes lack `tools:read`), 400
 * `invalid_input` (key, intent, domain), 400 `bad_request` (no JSON object), 422
 * `unknown_argument`, 402 `quota_exceeded` / `insufficient_paid_credits` (checked before routing).
 */
export function registerSearchRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const tools = createWorkspaceToolCache(deps.store.toolsFor)
  const routerOf = (tenant: string) => deps.routers.searching(deps.store.toolsFor(tenant))
  // The first search after a start is as fast as the next: owner workspace's index is built
  // when the service is ready, in steps between which it keeps answering; a search that comes
  // first waits for it (`search` awaits `ready()`), then syncs the tools of that moment.
  app.addHook('onReady', () => {
    void routerOf(OWNER_WORKSPACE).build(tools(OWNER_WORKSPACE))
    return Promise.resolve()
  })
  const handle = (request: FastifyRequest, reply: FastifyReply, viaQuery: boolean) =>
    search(deps, routerOf, tools, request, reply, viaQuery)
  app.post(
    '/v1/tools/search',
    {
      schema: routeSchema(
        searchContract('Search tools by intent (1 credit per operation key).', false),
      ),
    },
    (request, reply) => handle(request, reply, false),
  )
  app.post(
    '/v1/tool-router',
    { schema: routeSchema(searchContract('The tool router: the same result as search.', false)) },
    (request, reply) => handle(request, reply, false),
  )
  app.get(
    '/v1/tools',
    {
      schema: routeSchema(
        searchContract('Search tools by intent in the query (same ledger as POST).', true),
      ),
    },
    (request, reply) => handle(request, reply, true),
  )
}

async function search(
  deps: ServerDeps,
  routerOf: (tenant: string) => ToolRouter,
  tools: (tenant: string) => ToolSpec[],
  request: FastifyRequest,
  reply: FastifyReply,
  viaQuery: boolean,
) {
  const { store, auth, clock } = deps
  const caller = auth.authenticate(request)
  const key = operationKey(request)
  const body = viaQuery
    ? validQuery(request, SEARCH_BODY_SCHEMA)
    : validBody(request, SEARCH_BODY_SCHEMA)
  // Spec B rule 4: secret values never appear in intents; name them as {{secret:NAME}}.
  await deps.vault.refuseSecretValues(body.intent, caller.tenant)
  const domain = body.domain?.toLowerCase().replace(/\.(?=:|$)/, '') ?? null
  const inputHash = hashInputs({ intent: body.intent, domain })
  const opKey = `search:${key}`
  const stored = store.receipts.get<SearchReceipt['result']>(caller.tenant, opKey)
  if (stored) return replayReceipt(reply, stored, inputHash)
  const charge = admitMetered(store.ledger, caller.tenant, opKey, 'search', clock())
  const router = routerOf(caller.tenant)
  await router.ready()
  const routed = router.route(body.intent, tools(caller.tenant), { domain })
  const result: SearchReceipt['result'] = { ...routed, index_endpoint: INDEX_ENDPOINT }
  const now = clock()
  // The charge and the receipt land together: a crash leaves neither or both.
  const { receipt, created } = store.transaction(() => {
    const put = store.receipts.put({
      tenant: caller.tenant,
      opKey,
      operation: 'search',
      inputHash,
      status: 'completed',
      cost: METERED_COST,
      result,
      createdAt: now,
      updatedAt: now,
    })
    if (put.created) charge()
    return put
  })
  if (!created) return replayReceipt(reply, receipt, inputHash)
  return reply.status(200).send(presentReceipt(receipt))
}
