import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppResult, ToolDetail } from '../../../src/shared/appApi'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

let h: Harness
let tool: ToolSpec

beforeEach(async () => {
  h = await startHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
})

afterEach(async () => {
  await h.close()
})

/** The same workflow compiled again, as a recording does: a new candidate numbered `_2`. */
function recordAgain(): ToolSpec {
  const name = h.core.store.tools.uniqueName(tool.siteHost, tool.name)
  const again: ToolSpec = {
    ...structuredClone(tool),
    id: randomUUID(),
    name,
    capabilityId: `${tool.siteHost}/${name}`,
    status: 'candidate',
    createdAt: tool.createdAt + 1,
    updatedAt: tool.updatedAt + 1,
  }
  h.core.store.tools.save(again)
  return again
}

function patch<T = { tool: ToolSpec }>(id: string, body: unknown) {
  return send<T>(h.base, 'PATCH', `/v1/tools/${id}`, { key: h.key, json: body })
}

function app<T>(method: string, input: unknown) {
  return send<AppResult<T>>(h.base, 'POST', `/app-api/${method}`, {
    key: h.core.ownerToken,
    json: input,
  })
}

/** The edit that keeps every input as it is but renames the slot of `query`. */
function inputsRenaming(from: string, to: string) {
  return Object.entries(tool.inputs.properties).map(([name, s]) => ({
    slot: s['x-slot'],
    name: name === from ? to : name,
    type: s.type as 'string',
    required: tool.inputs.required?.includes(name) ?? false,
  }))
}

function execute(id: string, inputs: Record<string, string>, key: string) {
  return send<{ run: Run; tool: { status: string } }>(h.base, 'POST', `/v1/tools/${id}/execute`, {
    key: h.key,
    headers: { 'idempotency-key': key },
    json: { inputs },
  })
}

describe('PATCH /v1/tools/{id}', () => {
  it('renames a tool and its input; the new version is a candidate until an execution verifies it', async () => {
    const querySlot = tool.inputs.properties.query!['x-slot']
    const answer = await patch(tool.id, {
      name: 'local__find_ai_tools',
      description: 'Finds AI tools by keyword.',
      inputs: inputsRenaming('query', 'keyword'),
    })
    expect(answer.status).toBe(200)
    const edited = answer.body.tool
    expect(edited).toMatchObject({
      id: tool.id,
      name: 'local__find_ai_tools',
      description: 'Finds AI tools by keyword.',
      status: 'candidate',
    })
    expect(edited.version).not.toBe(tool.version)
    expect(edited.inputs.properties.keyword!['x-slot']).toBe(querySlot)
    expect(edited.inputs.properties.query).toBeUndefined()
    // Still a candidate: surface A refuses it until it is verified again.
    const before = await callTool(
      h.base,
      h.key,
      { siteHost: h.site.host, name: edited.name },
      {
        keyword: 'image',
      },
    )
    expect(before.status).toBe(404)

    const run = await execute(tool.id, { [querySlot]: 'image' }, 'edit-verify-0001')
    expect(run.body.run.status).toBe('succeeded')
    expect(run.body.tool.status).toBe('verified')
    const after = await callTool<Run>(
      h.base,
      h.key,
      { siteHost: h.site.host, name: edited.name },
      {
        keyword: 'image',
      },
    )
    expect(after.status).toBe(200)
    expect(after.body.status).toBe('succeeded')
    const old = await callTool(h.base, h.key, tool, { query: 'image' })
    expect(old.status).toBe(404)
  })

  it('binds a header to a stored secret and the site receives the secret at run time', async () => {
    if ((await h.core.vault.open()).mode === 'locked')
      await h.core.vault.unlock('a passphrase for this test')
    await h.core.vault.put('local', 'DIRECTORY_TOKEN', 'tok-12345', [h.site.host])
    const answer = await patch(tool.id, {
      headers: { 'X-Api-Token': '{{secret:DIRECTORY_TOKEN}}' },
    })
    expect(answer.status).toBe(200)
    expect(answer.body.tool.steps.at(-1)!.request.headers['X-Api-Token']).toBe(
      '{{secret:DIRECTORY_TOKEN}}',
    )
    const slot = tool.inputs.properties.query!['x-slot']
    const run = await execute(tool.id, { [slot]: 'writing' }, 'edit-secret-0001')
    expect(run.body.run.status).toBe('succeeded')
    const sent = h.site.requests.filter((r) => r.path.startsWith('/api/search')).at(-1)!
    expect(sent.headers['x-api-token']).toBe('tok-12345')
  })

  it('refuses a secret that is not stored or not bound to the tool’s host, and saves nothing', async () => {
    const missing = await patch<ErrorAnswerBody>(tool.id, {
      headers: { Authorization: 'Bearer {{secret:NOPE}}' },
    })
    expect(missing.status).toBe(400)
    expect(missing.body.error.code).toBe('invalid_input')
    expect(missing.body.error.message).toContain('NOPE')

    if ((await h.core.vault.open()).mode === 'locked')
      await h.core.vault.unlock('a passphrase for this test')
    await h.core.vault.put('local', 'ELSEWHERE', 'value-1', ['example.org'])
    const unbound = await patch<ErrorAnswerBody>(tool.id, {
      headers: { Authorization: 'Bearer {{secret:ELSEWHERE}}' },
    })
    expect(unbound.status).toBe(400)
    expect(unbound.body.error.message).toContain('not bound to')
    expect(h.core.store.tools.get(tool.id)).toEqual(tool)
  })

  it('edits an input’s default, options and required flag, and the verify rule', async () => {
    const inputs = inputsRenaming('query', 'query').map((i) =>
      i.name === 'query'
        ? { ...i, required: false, default: 'image', enum: ['image', 'writing'] }
        : i,
    )
    const answer = await patch(tool.id, { inputs, verify: { status: [200, 201] } })
    expect(answer.status).toBe(200)
    const query = answer.body.tool.inputs.properties.query!
    expect(query).toMatchObject({ default: 'image', enum: ['image', 'writing'] })
    expect(answer.body.tool.inputs.required ?? []).not.toContain('query')
    expect(answer.body.tool.verify.status).toEqual([200, 201])
    // The default is what a call without the input sends.
    const run = await execute(tool.id, {}, 'edit-default-0001')
    expect(run.body.run.status).toBe('succeeded')
    const sent = h.site.requests.filter((r) => r.path.startsWith('/api/search')).at(-1)!
    expect(JSON.parse(sent.body)).toMatchObject({ query: 'image' })
  })

  it('answers docs/interface.md’s codes for bad edits', async () => {
    const other = recordAgain()
    const clash = await patch<ErrorAnswerBody>(other.id, { name: tool.name })
    expect(clash.status).toBe(400)
    expect(clash.body.error.code).toBe('invalid_input')
    const unknown = await patch<ErrorAnswerBody>(tool.id, { nmae: 'x' })
    expect(unknown.status).toBe(422)
    expect(unknown.body.error.code).toBe('unknown_argument')
    const badName = await patch<ErrorAnswerBody>(tool.id, { name: 'Has Spaces' })
    expect(badName.body.error.code).toBe('invalid_input')
    const noSlot = await patch<ErrorAnswerBody>(tool.id, {
      body: [{ path: 'query', value: '{{input.p9}}' }],
    })
    expect(noSlot.body.error.message).toContain('p9')
    const wrongType = await patch<ErrorAnswerBody>(tool.id, {
      inputs: inputsRenaming('query', 'query').map((i) => ({
        ...i,
        type: 'integer',
        default: 'x',
      })),
    })
    expect(wrongType.body.error.code).toBe('invalid_input')
    const missing = await patch<ErrorAnswerBody>('no-such-tool', { name: 'local__x' })
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('not_found')
    const anonymous = await send<ErrorAnswerBody>(h.base, 'PATCH', `/v1/tools/${tool.id}`, {
      json: { name: 'local__y' },
    })
    expect(anonymous.status).toBe(401)
  })

  it('is described in /openapi.json with its body schema', async () => {
    const doc = await send<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>(
      h.base,
      'GET',
      '/openapi.json',
      { key: h.key },
    )
    const operation = doc.body.paths['/v1/tools/{id}']?.patch
    expect(operation).toBeDefined()
    expect(JSON.stringify(operation!.requestBody)).toContain('verify')
  })
})

describe('recording the same workflow again', () => {
  it('offers the earlier tool to be replaced, and the candidate takes its name', async () => {
    const again = recordAgain()
    expect(again.name).toBe(`${tool.name}_2`)
    const detail = await app<ToolDetail>('tools.get', { id: again.id })
    expect(detail.body.ok && detail.body.value.replaces?.id).toBe(tool.id)

    const replaced = await app<ToolDetail>('tools.replace', {
      id: again.id,
      replaces: tool.id,
    })
    expect(replaced.body.ok).toBe(true)
    if (!replaced.body.ok) return
    expect(replaced.body.value.tool).toMatchObject({ id: again.id, name: tool.name })
    expect(replaced.body.value.tool.status).toBe('candidate')
    expect(h.core.store.tools.get(tool.id)).toBeNull()
    // The earlier tool is gone, so nothing is offered any more.
    expect(replaced.body.value.replaces).toBeNull()
  })
})
