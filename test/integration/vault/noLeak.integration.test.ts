import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { APP_API_METHODS } from '../../../src/shared/appApi'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { secretTool, startSecretSite, type SecretSite } from './secretSite'

const VALUE = 'NeverShow/This+Secret=9f2c'
const FORMS = [
  VALUE,
  encodeURIComponent(VALUE),
  new URLSearchParams({ v: VALUE }).toString().slice(2),
]

/** Every `path (METHODS)` of Fastify's `printRoutes({commonPrefix: false})` tree, paths joined. */
function listRoutes(tree: string): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = []
  const parents: string[] = []
  for (const line of tree.split('\n')) {
    const match = /^([│├└─\s]*)(\S.*?) \(([A-Z, ]+)\)$/.exec(line)
    if (!match) continue
    const depth = match[1]!.length / 4
    const path = (parents[depth - 1] ?? '') + match[2]!
    parents[depth] = path
    for (const method of match[3]!.split(', ')) routes.push({ method, path })
  }
  return routes
}

describe('a secret value appears nowhere', () => {
  let home: string
  let core: Core
  let base: string
  let key: string
  let site: SecretSite
  let tool: ToolSpec
  const logs: string[] = []
  const seen: string[] = []

  /** One request; its status, headers and body text are kept for the search. Streams are cut. */
  async function grab(
    method: string,
    path: string,
    body?: unknown,
    token = core.ownerToken,
    stream?: AbortController,
  ) {
    const controller = stream ?? new AbortController()
    // A guard against a route that never answers, not a timing: the first secret stored opens
    // the vault (a key derivation), which took over 3 s on a loaded 2-core machine.
    const timer = stream ? undefined : setTimeout(() => controller.abort(), 20_000)
    let text = ''
    let headers = ''
    let status = 0
    try {
      const res = await fetch(base + path, {
        method,
        signal: controller.signal,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'idempotency-key': `op-${Math.random().toString(36).slice(2, 12)}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      })
      status = res.status
      headers = JSON.stringify([...res.headers])
      const reader = res.body?.getReader()
      const decoder = new TextDecoder()
      for (;;) {
        const chunk = await reader?.read()
        if (!chunk || chunk.done) break
        text += decoder.decode(chunk.value, { stream: true })
      }
    } catch (error) {
      // An event stream ends by our abort, or by the server closing it.
      if (!['AbortError', 'TypeError'].includes((error as Error).name)) throw error
    } finally {
      clearTimeout(timer)
    }
    seen.push(`${method} ${path} ${status} ${headers} ${text}`)
    return { status, text }
  }

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sitecall-no-leak-'))
    site = await startSecretSite(VALUE)
    core = createCore({
      home,
      port: 0,
      rendererDir: null,
      keychain: null,
      env: { SITECALL_PASSPHRASE: 'correct horse battery staple' },
      logger: { level: 'trace', stream: { write: (line) => void logs.push(line) } },
    })
    base = await core.listen()
    key = core.store.keys.create(
      { id: 'key_leak', tenant: LOCAL_TENANT, label: 'leak' },
      Date.now(),
    ).key
    tool = secretTool(site, 'SHOP_KEY')
    core.store.tools.save(tool)
    core.store.tools.save(secretTool(site, 'ELSEWHERE', 'items__get_elsewhere'))
  })
  afterAll(async () => {
    await core.close()
    await site.close()
    rmSync(home, { recursive: true, force: true })
  })

  it('stores and uses a secret, calls every route, and finds the value in no answer, log or file', async () => {
    const stream = new AbortController()
    const events = grab(
      'GET',
      `/app-api/events?token=${encodeURIComponent(core.ownerToken)}`,
      undefined,
      core.ownerToken,
      stream,
    )
    expect(
      (await grab('PUT', '/v1/accounts/SHOP_KEY', { value: VALUE, hosts: [site.host] })).status,
    ).toBe(200)
    expect(
      (await grab('PUT', '/v1/accounts/ELSEWHERE', { value: VALUE, hosts: ['x.test'] })).status,
    ).toBe(200)

    // Runs by every surface: surface A, the account API's execute, the app's own transport.
    const call = await grab('POST', `/api/v1/sites/${site.host}/call/${tool.name}`, {}, key)
    const runId = (JSON.parse(call.text) as { runId: string }).runId
    expect(call.status).toBe(200)
    expect(site.seen.at(-1)!.headers['x-api-key']).toBe(VALUE)
    await grab(
      'POST',
      `/v1/tools/${tool.id}/execute`,
      { intent: 'list the items', inputs: {} },
      key,
    )
    const denied = await grab(
      'POST',
      `/api/v1/sites/${site.host}/call/items__get_elsewhere`,
      {},
      key,
    )
    expect(denied.text).toContain('policy_denied')
    await grab('POST', '/app-api/tools.run', { id: tool.id, inputs: {} })
    await grab('POST', '/app-api/recorder.start', { url: site.url, intent: `use ${VALUE}` })
    await grab('POST', '/v1/tools/prepare', {
      trace_id: 'trc_none',
      request_id: 'exc_1',
      intent: `items with ${VALUE}`,
    })

    const appInputs: Record<string, unknown> = {
      'tools.get': { id: tool.id },
      'tools.run': { id: tool.id, inputs: {} },
      'runs.list': { toolId: tool.id },
      'recorder.start': { url: 'ftp://nowhere', intent: 'x' },
      'recorder.stop': { sessionId: 'rec_none' },
      'compile.prepare': { traceId: 'trc_none', exchangeId: 'exc_1' },
      'tools.delete': { id: 'no-such-tool' },
      'keys.create': { label: 'leak test' },
    }
    const params: Record<string, string> = {
      siteHost: site.host,
      toolId: tool.name,
      runId,
      id: tool.id,
      name: 'ELSEWHERE',
      slug: 'default',
    }
    const routes = listRoutes(core.server.printRoutes({ commonPrefix: false }))
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'PUT', path: '/v1/accounts/:name' },
        { method: 'GET', path: '/v1/accounts' },
        { method: 'DELETE', path: '/v1/accounts/:name' },
        { method: 'GET', path: '/api/v1/runs/:runId' },
      ]),
    )
    let called = 0
    for (const { method, path } of routes) {
      if (method === 'HEAD' || path === '/app-api/events') continue
      if (path === '/app-api/:method') {
        for (const name of APP_API_METHODS)
          await grab(method, `/app-api/${name}`, appInputs[name] ?? {})
        called++
        continue
      }
      const url = path
        .replace(/:([A-Za-z]+)/g, (_, p: string) => encodeURIComponent(params[p] ?? '1'))
        .replace('*', 'index.html')
      const body =
        method === 'GET' || method === 'DELETE'
          ? undefined
          : path.startsWith('/mcp')
            ? {
                jsonrpc: '2.0',
                id: 1,
                method: 'initialize',
                params: {
                  protocolVersion: '2025-06-18',
                  capabilities: {},
                  clientInfo: { name: 't', version: '1' },
                },
              }
            : path === '/v1/accounts/:name'
              ? { value: VALUE, hosts: ['x.test'] }
              : {}
      await grab(method, url, body)
      called++
    }
    expect(called).toBeGreaterThan(20)
    expect((await grab('GET', '/v1/accounts')).text).toContain('SHOP_KEY')
    await core.engine.idle()

    // The event stream ran through all of it; cut it now.
    stream.abort()
    await events
    const answers = seen.join('\n')
    expect(answers).toContain('runs.updated')
    expect(answers).toContain('[secret:SHOP_KEY]')

    core.store.db.pragma('wal_checkpoint(TRUNCATE)')
    const files: Buffer[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else files.push(readFileSync(path))
      }
    }
    walk(home)
    const bytes = Buffer.concat(files)
    expect(bytes.length).toBeGreaterThan(0)
    const logText = logs.join('')
    expect(logText).toContain('/v1/accounts/SHOP_KEY')
    for (const form of FORMS) {
      expect(answers).not.toContain(form)
      expect(logText).not.toContain(form)
      expect(bytes.includes(Buffer.from(form))).toBe(false)
    }
  })
})
