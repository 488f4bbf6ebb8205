import { randomUUID } from 'node:crypto'
import { ulid } from 'ulid'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { connectHttp } from '../mcp/mcpClients'

let h: Harness
let tool: ToolSpec
/** Identifiers of the owner's records, none of which another workspace may ever read. */
interface Names {
  toolId: string
  toolName: string
  traceId: string
  runId: string
  jobId: string
  scope: string
  receiptKey: string
  localSite: string
  keyId: string
}
let owned: Names
/** Names of the same shapes that no record has. */
let ghost: Names
let foreignKeys: Array<{ key: string; endUser: string | null }>

const INTENT = 'search the AI tools directory by keyword'

const ownerCall = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
  fetch(`${h.base}${path}`, {
    method: init.method ?? 'POST',
    headers: {
      authorization: `Bearer ${init.key ?? h.key}`,
      'content-type': 'application/json',
      'idempotency-key': `k-${ulid()}`,
    },
    body: JSON.stringify(init.body ?? {}),
  })

beforeEach(async () => {
  h = await startHarness()
  const made = await makeSearchTool(h.core, h.site)
  tool = made.tool
  const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
  const run = (await (
    await ownerCall(`/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
      body: { [query]: 'writing' },
    })
  ).json()) as { runId: string; status: string }
  expect(run.status).toBe('succeeded')
  const scope = `owner-scope-${Date.now()}`
  expect(
    (await ownerCall('/api/v1/scopes', { body: { slug: scope, apps: [], tools: [tool.name] } }))
      .status,
  ).toBe(201)
  const receiptKey = `owner-receipt-${ulid()}`
  const search = await fetch(`${h.base}/v1/tools/search`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.key}`,
      'content-type': 'application/json',
      'idempotency-key': receiptKey,
    },
    body: JSON.stringify({ intent: INTENT }),
  })
  expect(search.status).toBe(200)
  const jobId = `idx_${ulid()}`
  const now = Date.now()
  h.core.store.indexJobs.create({
    id: jobId,
    tenant: 'local',
    url: `${h.site.url}/`,
    site: tool.siteHost,
    intent: INTENT,
    status: 'done',
    indexed: 1,
    reason: null,
    message: null,
    traceId: made.trace.id,
    toolIds: [tool.id],
    signInUrl: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: now,
  })
  const localSite = 'owner-only.internal:8123'
  h.core.store.localSites.add('local', localSite, now)
  owned = {
    toolId: tool.id,
    toolName: tool.name,
    traceId: made.trace.id,
    runId: run.runId,
    jobId,
    scope,
    receiptKey,
    localSite,
    keyId: h.keyId,
  }
  ghost = {
    toolId: randomUUID(),
    toolName: tool.name.replace(/^./, 'z'),
    traceId: `trc_${ulid()}`,
    runId: `run_${ulid()}`,
    jobId: `idx_${ulid()}`,
    scope: scope.replace('owner', 'ghost'),
    receiptKey: `ghost-receipt-${ulid()}`,
    localSite: 'ghost-only.internal:8123',
    keyId: 'key_ghost',
  }
  const mint = (id: string, kind: 'personal' | 'org') =>
    h.core.store.keys.create({ id, tenant: 'acme', label: id, kind }, Date.now()).key
  foreignKeys = [
    { key: mint('key_acme', 'personal'), endUser: null },
    { key: mint('key_acme_org', 'org'), endUser: 'customer-7' },
  ]
})

afterEach(async () => {
  await h.close()
})

/**
 * Every route of the server as Fastify's own router holds it (`printRoutes`: a tree of path
 * pieces, each line `piece (METHODS)`), so a route added later is walked without a change here.
 * HEAD answers as its GET does and is left out.
 */
function routeTable(): Array<{ method: string; path: string }> {
  const tree = h.core.server.printRoutes({ commonPrefix: false })
  const stack: string[] = []
  const routes: Array<{ method: string; path: string }> = []
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[└├]── (.+?) \(([A-Z, ]+)\)$/.exec(line)
    if (!match) continue
    const depth = match[1]!.length / 4
    stack.length = depth
    const path = (stack[depth - 1] ?? '') + match[2]!
    stack.push(path)
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.push({ method, path })
  }
  return routes
}

/** A route's path with its parameters naming the records `names` gives. */
function filled(path: string, names: Names): string {
  const fill: Record<string, string> = {
    siteHost: tool.siteHost,
    toolId: names.toolName,
    // `/v1/tools/:id` names a tool; `/v1/keys/:id` a key.
    id: path.startsWith('/v1/keys') ? names.keyId : names.toolId,
    runId: names.runId,
    jobId: names.jobId,
    slug: names.scope,
    host: names.localSite,
    name: 'SHOP_PASSWORD',
    method: 'tools.list',
  }
  return path
    .replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(fill[p] ?? 'x'))
    .replace(/\*$/, '')
}

/** Bodies that would reach the records `names` gives if a route let them through. */
function bodyFor(pattern: string, names: Names): unknown {
  const bodies: Record<string, unknown> = {
    '/v1/tools/search': { intent: INTENT },
    '/v1/tool-router': { intent: INTENT },
    '/api/v1/runs': { intent: INTENT, inputs: {} },
    '/v1/tools/prepare': {
      trace_id: names.traceId,
      request_id: 'exc_3',
      intent: INTENT,
    },
    '/v1/tools/:id': { name: 'taken_over' },
    '/v1/tools/:id/execute': { inputs: {}, allow_mutation: true },
    '/api/v1/runs/:runId/responses': { answers: [], stateRevision: 0 },
    '/mcp': {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    },
  }
  return bodies[pattern] ?? { query: 'writing', url: `${h.site.url}/`, intent: INTENT }
}

/**
 * Asks `method pattern` with `key`, its path and body naming the records of `names`; answers the
 * status and the first part of the body with each of those names replaced by `<name>`, so an
 * answer about the owner's records can be compared with one about records that do not exist.
 */
async function ask(
  method: string,
  pattern: string,
  { key, endUser }: { key: string; endUser: string | null },
  names: Names,
): Promise<{ status: number; text: string; raw: string }> {
  const withBody = method !== 'GET' && method !== 'DELETE' && method !== 'OPTIONS'
  const answer = await fetch(
    `${h.base}${filled(pattern, names)}${method === 'GET' ? '?intent=search&domain=' : ''}`,
    {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json, text/event-stream',
        'idempotency-key': `acme-${ulid()}`,
        ...(withBody ? { 'content-type': 'application/json' } : {}),
        ...(endUser ? { 'x-service-end-user': endUser } : {}),
      },
      ...(withBody ? { body: JSON.stringify(bodyFor(pattern, names)) } : {}),
      signal: AbortSignal.timeout(10_000),
    },
  )
  const raw = await readSome(answer)
  let text = raw
  for (const [what, value] of Object.entries(names)) text = text.split(value).join(`<${what}>`)
  return { status: answer.status, text, raw }
}

describe('workspaces (issue 13 item 2)', () => {
  it("a key of another workspace finds nothing of the owner's on any route", async () => {
    const routes = routeTable()
    const leaks: string[] = []
    const failures: string[] = []
    for (const { method, path: pattern } of routes) {
      for (const caller of foreignKeys) {
        const who = `${method} ${pattern} (${caller.endUser ?? 'no end user'})`
        const theirs = await ask(method, pattern, caller, owned)
        if (theirs.status >= 500) failures.push(`${who}: ${theirs.status} ${theirs.raw}`)
        // Asked about the owner's records, the answer is the one about records that do not
        // exist: the same status and words, the names it was asked about aside.
        const none = await ask(method, pattern, caller, ghost)
        const namesOwners =
          filled(pattern, owned) !== filled(pattern, ghost) ||
          JSON.stringify(bodyFor(pattern, owned)) !== JSON.stringify(bodyFor(pattern, ghost))
        if (namesOwners && (theirs.status !== none.status || theirs.text !== none.text))
          leaks.push(`${who}: ${theirs.status} ${theirs.text} / ${none.status} ${none.text}`)
        for (const [what, value] of Object.entries(owned))
          if (theirs.raw.includes(value) && !namesOwners)
            leaks.push(`${who}: holds the owner's ${what}`)
        // And no answer holds an owner's name the request did not carry.
        for (const [what, value] of Object.entries(owned))
          if (none.raw.includes(value)) leaks.push(`${who}: holds the owner's ${what}`)
      }
    }
    expect([...new Set(leaks)]).toEqual([])
    expect(failures).toEqual([])
    // The table is the whole server: the routes of tools, traces, runs, scopes, index jobs.
    const walked = routes.map((r) => `${r.method} ${r.path}`)
    for (const route of [
      'POST /api/v1/sites/:siteHost/call/:toolId',
      'GET /v1/tools/catalog',
      'POST /v1/tools/prepare',
      'POST /v1/tools/:id/execute',
      'GET /api/v1/runs/:runId',
      'DELETE /api/v1/scopes/:slug',
      'GET /api/v1/index/:jobId',
      'POST /mcp',
    ])
      expect(walked).toContain(route)

    // Nothing of the owner changed: the tool, its scope, its key, its allowed site, its run.
    const store = h.core.store
    expect(store.tools.get(tool.id)?.name).toBe(tool.name)
    expect(store.traces.get(owned.traceId)?.id).toBe(owned.traceId)
    expect(store.scopes.find('local', owned.scope)).not.toBeNull()
    expect(store.keys.list('local').find((k) => k.id === h.keyId)?.revokedAt).toBeNull()
    expect(store.localSites.list('local').map((s) => s.host)).toContain(owned.localSite)
    expect(store.runs.list({ toolId: tool.id }).map((r) => r.runId)).toEqual([owned.runId])
    expect(store.indexJobs.get('acme', owned.jobId)).toBeNull()
    // The other workspace made no tool or trace of the owner's site from the owner's trace.
    expect(store.toolsFor('acme').list()).toEqual([])
  })

  it('another workspace works with its own tools, the owner with the owner’s', async () => {
    const theirs: ToolSpec = { ...tool, id: `tool_${ulid()}`, description: 'acme copy' }
    h.core.store.toolsFor('acme').save(theirs)
    const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
    for (const { key, endUser } of foreignKeys) {
      const headers = {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(endUser ? { 'x-service-end-user': endUser } : {}),
      }
      const call = await fetch(`${h.base}/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ [query]: 'writing' }),
      })
      expect(call.status).toBe(200)
      const run = (await call.json()) as { status: string; runId: string }
      expect(run.status).toBe('succeeded')
      expect(h.core.store.runs.get(run.runId)?.toolId).toBe(theirs.id)
      const catalog = (await (await fetch(`${h.base}/v1/tools/catalog`, { headers })).json()) as {
        tools: Array<{ id: string }>
        traces: unknown[]
      }
      expect(catalog.tools.map((t) => t.id)).toEqual([theirs.id])
      expect(catalog.traces).toEqual([])
    }
    // The owner's catalog is the owner's tool only.
    const mine = (await (
      await fetch(`${h.base}/v1/tools/catalog`, { headers: { authorization: `Bearer ${h.key}` } })
    ).json()) as { tools: Array<{ id: string }> }
    expect(mine.tools.map((t) => t.id)).toEqual([tool.id])
    // MCP lists each workspace its own site tools.
    const client = await connectHttp(h.base, { key: foreignKeys[0]!.key })
    const listed = await client.listTools()
    const described = listed.tools.map((t) => t.description ?? '').join('\n')
    expect(described).toContain('acme copy')
    await client.close()
  })

  it("the owner's org key still acts for its end users on the owner's tools", async () => {
    const org = h.core.store.keys.create(
      { id: 'key_local_org', tenant: 'local', label: 'org', kind: 'org' },
      Date.now(),
    ).key
    const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
    const answer = await fetch(`${h.base}/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${org}`,
        'content-type': 'application/json',
        'x-service-end-user': 'customer-7',
      },
      body: JSON.stringify({ [query]: 'writing' }),
    })
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { status: string }).status).toBe('succeeded')
  })
})

/** The body, at most its first 8 MB (an event stream never ends by itself). */
async function readSome(answer: Response): Promise<string> {
  const reader = answer.body?.getReader()
  if (!reader) return ''
  const decoder = new TextDecoder()
  let text = ''
  try {
    while (text.length < 8_388_608) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000)),
      ])
      if (!chunk || chunk.done) break
      text += decoder.decode(chunk.value, { stream: true })
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return text
}
