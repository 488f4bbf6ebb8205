/**
 * The security findings of issue 26 item 1, each tried black-box through the running service
 * (real HTTP on 127.0.0.1, a real SQLite file, a real site): the request a prober sent, and what
 * the service must answer now.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../src/main/core'
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
  delete (Object.prototype as Record<string, unknown>)['x']
  await h.close()
})

const patch = (id: string, body: unknown, headers: Record<string, string> = {}, key = h.key) =>
  send<ErrorAnswerBody & { tool: ToolSpec }>(h.base, 'PATCH', `/v1/tools/${id}`, {
    key,
    json: body,
    headers,
  })

const search = (key: string) =>
  send<{ status: string }>(h.base, 'POST', '/v1/tools/search', {
    key,
    headers: { 'idempotency-key': `search-${Math.random().toString(36).slice(2, 12)}` },
    json: { intent: 'search the directory for writing tools' },
  })

async function unlockedVault(): Promise<void> {
  if ((await h.core.vault.open()).mode === 'locked')
    await h.core.vault.unlock('a passphrase for this test')
}

describe('1.1 prototype pollution through a tool edit', () => {
  it('refuses PATCH body path __proto__.x; the service keeps answering JSON requests', async () => {
    const answer = await patch(tool.id, { body: [{ path: '__proto__.x', value: 'yes' }] })
    expect(answer.status).toBe(400)
    expect(answer.body.error.code).toBe('invalid_input')
    expect(({} as Record<string, unknown>)['x']).toBeUndefined()
    const after = await search(h.key)
    expect(after.status).toBe(200)
  })

  it('refuses constructor.prototype paths and an input named __proto__', async () => {
    const viaConstructor = await patch(tool.id, {
      body: [{ path: 'constructor.prototype.x', value: 'yes' }],
    })
    expect(viaConstructor.status).toBe(400)
    const slot = tool.inputs.properties.query!['x-slot']
    const inputs = Object.entries(tool.inputs.properties).map(([name, s]) => ({
      slot: s['x-slot'],
      name: s['x-slot'] === slot ? '__proto__' : name,
      type: s.type as 'string',
      required: false,
    }))
    expect((await patch(tool.id, { inputs })).status).toBe(400)
    expect(({} as Record<string, unknown>)['x']).toBeUndefined()
  })

  it('refuses a secret named __proto__', async () => {
    await unlockedVault()
    const answer = await send<ErrorAnswerBody>(h.base, 'PUT', '/v1/accounts/__proto__', {
      key: h.key,
      json: { value: 'v-123456', hosts: [h.site.host] },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error.code).toBe('invalid_input')
  })
})

describe('1.3 headers a tool may not set', () => {
  it('refuses Host next to a secret, CR/LF in a value and {{json:secret:X}}', async () => {
    await unlockedVault()
    await h.core.vault.put(LOCAL_TENANT, 'TOK', 'tok-abcdef', [h.site.host])
    for (const headers of [
      { Host: 'other-vhost.example', 'X-Token': '{{secret:TOK}}' },
      { 'Proxy-Authorization': 'Basic {{secret:TOK}}' },
      { 'Transfer-Encoding': 'chunked' },
      { 'X-Token': 'a\r\nHost: other-vhost.example' },
      { 'X-Token': '{{json:secret:TOK}}' },
    ]) {
      const answer = await patch(tool.id, { headers })
      expect(answer.status, JSON.stringify(headers)).toBe(400)
      expect(answer.body.error.code).toBe('invalid_input')
    }
    expect(h.core.store.tools.get(tool.id)!.steps.at(-1)!.request.headers).toEqual(
      tool.steps.at(-1)!.request.headers,
    )
  })
})

describe("1.4 an org key's end user may call tools but not edit them", () => {
  it('refuses PATCH with X-Service-End-User (403); the same key without it edits', async () => {
    const { key } = h.core.store.keys.create(
      { id: 'key_org', tenant: LOCAL_TENANT, label: 'org', kind: 'org' },
      Date.now(),
    )
    const asEndUser = await patch(
      tool.id,
      { description: 'rewritten by an end user' },
      { 'x-service-end-user': 'mallory' },
      key,
    )
    expect(asEndUser.status).toBe(403)
    expect(asEndUser.body.error.code).toBe('forbidden')
    expect(h.core.store.tools.get(tool.id)!.description).toBe(tool.description)
    const call = await callTool<Run>(
      h.base,
      key,
      tool,
      { query: 'writing' },
      {
        'x-service-end-user': 'mallory',
      },
    )
    expect(call.status).toBe(200)
    const asOrg = await patch(tool.id, { description: 'edited by the org' }, {}, key)
    expect(asOrg.status).toBe(200)
  })
})

describe('1.5 a secret the site echoes back encoded', () => {
  let echo: Server
  afterEach(async () => {
    await new Promise((resolve) => echo.close(resolve))
  })

  it('is redacted from the run result whether base64, hex or JSON-escaped', async () => {
    const secret = 'tok-"quoted"-Zürich-123'
    echo = createServer((req, res) => {
      const sent = String(req.headers['x-api-token'] ?? '')
      const bytes = Buffer.from(sent, 'utf8')
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          b64: bytes.toString('base64'),
          basic: Buffer.from(`me:${sent}`).toString('base64'),
          hex: bytes.toString('hex'),
          text: `you sent ${JSON.stringify(sent)}`,
        }),
      )
    })
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    const host = `127.0.0.1:${(echo.address() as AddressInfo).port}`
    await unlockedVault()
    await h.core.vault.put(LOCAL_TENANT, 'ECHO_TOKEN', secret, [host])
    const echoTool: ToolSpec = {
      ...structuredClone(tool),
      id: '00000000-0000-4000-8000-0000000000e5',
      siteHost: host,
      name: 'echo__read_token',
      capabilityId: `${host}/echo__read_token`,
      inputs: { type: 'object', properties: {} },
      steps: [
        {
          id: 'target',
          request: {
            method: 'GET',
            url: `http://${host}/echo`,
            headers: { 'x-api-token': '{{secret:ECHO_TOKEN}}' },
            body: null,
          },
          extract: [],
        },
      ],
      output: { type: 'object' },
      verify: { status: [200, 299], mimeType: 'application/json', required: [] },
      mutating: false,
      status: 'verified',
    }
    h.core.store.tools.save(echoTool)
    const answer = await callTool<Run>(h.base, h.key, echoTool, {})
    expect(answer.status).toBe(200)
    expect(answer.body.status).toBe('succeeded')
    const kept = JSON.stringify(answer.body.result)
    const bytes = Buffer.from(secret, 'utf8')
    for (const form of [
      bytes.toString('base64'),
      bytes.toString('hex'),
      JSON.stringify(secret).slice(1, -1),
      secret,
    ])
      expect(kept).not.toContain(form)
    expect(kept).toContain('[secret:ECHO_TOKEN]')
    const basic = (answer.body.result as { basic: string }).basic
    expect(
      Buffer.from(basic.replace('[secret:ECHO_TOKEN]', ''), 'base64').toString(),
    ).not.toContain('Zürich')
  })
})
