import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import type { Run } from '../../../src/shared/run'
import { callTool, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { secretTool, startSecretSite, type SecretSite } from './secretSite'

const VALUE = 'sk_live/Qm9yaW5n+7f3c2a'
const PASSPHRASE = 'correct horse battery staple'

describe('{{secret:NAME}} in runs', () => {
  let home: string
  let core: Core
  let base: string
  let key: string
  let site: SecretSite

  const start = async (env: Record<string, string>) => {
    core = createCore({ home, port: 0, rendererDir: null, keychain: null, env })
    base = await core.listen()
    key = core.store.keys.create(
      { id: `key_${Date.now()}`, tenant: LOCAL_TENANT, label: 't' },
      Date.now(),
    ).key
  }
  const putSecret = (name: string, body: unknown) =>
    send<Record<string, unknown>>(base, 'PUT', `/v1/accounts/${name}`, { key, json: body })
  const run = async (toolName: string) => {
    const answer = await callTool<Run>(base, key, { siteHost: site.host, name: toolName }, {})
    return answer.body
  }

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sitecall-secret-runs-'))
    site = await startSecretSite(VALUE)
    await start({ SITECALL_PASSPHRASE: PASSPHRASE })
    core.store.tools.save(secretTool(site, 'SHOP_KEY'))
    core.store.tools.save(secretTool(site, 'NOT_STORED', 'items__get_unstored'))
  })
  afterAll(async () => {
    await core.close()
    await site.close()
    rmSync(home, { recursive: true, force: true })
  })

  it('stores a secret without answering its value, and lists names and hosts only', async () => {
    const put = await putSecret('SHOP_KEY', { value: VALUE, hosts: [site.host] })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ name: 'SHOP_KEY', hosts: [site.host], created: true })
    expect(JSON.stringify(put.body)).not.toContain(VALUE)
    const list = await send<{ accounts: unknown[] }>(base, 'GET', '/v1/accounts', { key })
    expect(list.body.accounts).toEqual([
      {
        name: 'SHOP_KEY',
        hosts: [site.host],
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      },
    ])
    const vault = await send<{ vault: { mode: string } }>(base, 'GET', '/v1/vault', { key })
    expect(vault.body.vault.mode).toBe('passphrase')
  })

  it('refuses bad names, bad hosts and unknown fields without quoting the value', async () => {
    const badName = await putSecret('has space', { value: VALUE })
    expect(badName.status).toBe(400)
    const slash = await putSecret('a%3Ab', { value: VALUE })
    expect(slash.status).toBe(400)
    const badHost = await putSecret('X', { value: VALUE, hosts: ['https://x.test/'] })
    expect(badHost.status).toBe(400)
    const extra = await putSecret('X', { value: VALUE, note: 1 })
    expect((extra.body as unknown as ErrorAnswerBody).error.code).toBe('unknown_argument')
    const big = await putSecret('X', { value: 'v'.repeat(64 * 1024 + 1) })
    expect(big.status).toBe(400)
    for (const answer of [badName, slash, badHost, extra, big])
      expect(JSON.stringify(answer.body)).not.toContain(VALUE)
    const missing = await send<ErrorAnswerBody>(base, 'DELETE', '/v1/accounts/NOPE', { key })
    expect(missing.status).toBe(404)
  })

  it('sends the value at send time to a bound host and keeps only [secret:NAME] on the run', async () => {
    const before = site.seen.length
    const done = await run('items__get_items')
    expect(done.status).toBe('succeeded')
    expect(site.seen.length).toBe(before + 1)
    const sent = site.seen.at(-1)!
    expect(sent.headers['x-api-key']).toBe(VALUE)
    expect(new URL(sent.url, site.url).searchParams.get('key')).toBe(VALUE)
    expect(JSON.stringify(done)).not.toContain(VALUE)
    expect(JSON.stringify(done.result)).toContain('[secret:SHOP_KEY]')
    const stored = core.store.db.prepare('SELECT * FROM runs WHERE id = ?').get(done.runId)
    expect(JSON.stringify(stored)).not.toContain(VALUE)
    expect(JSON.stringify(stored)).not.toContain(encodeURIComponent(VALUE))
  })

  it('fails policy_denied before anything leaves when the site is not a bound host', async () => {
    for (const hosts of [['api.example.com'], []]) {
      expect((await putSecret('SHOP_KEY', { value: VALUE, hosts })).status).toBe(200)
      const before = site.seen.length
      const done = await run('items__get_items')
      expect(done.status).toBe('failed')
      expect(done.error).toMatchObject({ code: 'policy_denied' })
      expect(done.error!.message).toContain('SHOP_KEY')
      expect(done.error!.message).not.toContain(VALUE)
      expect(site.seen.length).toBe(before)
    }
    expect((await putSecret('SHOP_KEY', { value: VALUE, hosts: [site.host] })).status).toBe(200)
  })

  it('fails a run naming a secret that is not stored, sending nothing', async () => {
    const before = site.seen.length
    const done = await run('items__get_unstored')
    expect(done.status).toBe('failed')
    expect(done.error).toMatchObject({ code: 'session_or_permission' })
    expect(done.error!.message).toContain('NOT_STORED')
    expect(site.seen.length).toBe(before)
  })

  it('refuses an intent that holds a stored value (prepare and recording), naming the secret', async () => {
    const prepare = await send<ErrorAnswerBody>(base, 'POST', '/v1/tools/prepare', {
      key,
      headers: { 'idempotency-key': 'op-secret-intent-1' },
      json: { trace_id: 'trc_none', request_id: 'exc_1', intent: `list items with key ${VALUE}` },
    })
    expect(prepare.status).toBe(422)
    expect(prepare.body.error.code).toBe('invalid_input')
    expect(prepare.body.error.message).toContain('{{secret:SHOP_KEY}}')
    expect(JSON.stringify(prepare.body)).not.toContain(VALUE)
    const clean = await send<ErrorAnswerBody>(base, 'POST', '/v1/tools/prepare', {
      key,
      headers: { 'idempotency-key': 'op-secret-intent-2' },
      json: {
        trace_id: 'trc_none',
        request_id: 'exc_1',
        intent: 'list items with {{secret:SHOP_KEY}}',
      },
    })
    expect(clean.status).toBe(404)
    const record = await send<{ ok: boolean; error?: { code: string; message: string } }>(
      base,
      'POST',
      '/app-api/recorder.start',
      { key: core.ownerToken, json: { url: site.url, intent: `sign in with ${VALUE}` } },
    )
    expect(record.body.ok).toBe(false)
    expect(record.body.error?.code).toBe('invalid_input')
    expect(JSON.stringify(record.body)).not.toContain(VALUE)
    expect(core.recordings.current()).toBeNull()
    // The search forms and run-by-task take intents too: refused before anything is charged.
    const charged = core.store.ledger.usage('local', Date.now()).charged
    for (const [path, json] of [
      ['/v1/tools/search', { intent: `find items for ${VALUE}` }],
      ['/api/v1/runs', { intent: `list items with key ${VALUE}` }],
    ] as const) {
      const answer = await send<ErrorAnswerBody>(base, 'POST', path, {
        key,
        headers: { 'idempotency-key': `op-secret-intent-${path.length}` },
        json,
      })
      expect(answer.status, path).toBe(422)
      expect(answer.body.error.code).toBe('invalid_input')
      expect(JSON.stringify(answer.body)).not.toContain(VALUE)
    }
    expect(core.store.ledger.usage('local', Date.now()).charged).toBe(charged)
  })

  it('restarts locked without the passphrase: runs fail, PUT answers 503, the owner unlocks', async () => {
    await core.close()
    await start({})
    const vault = await send<{ vault: Record<string, unknown> }>(base, 'GET', '/v1/vault', { key })
    expect(vault.body.vault).toMatchObject({
      mode: 'locked',
      unlockWith: 'passphrase',
      initialized: true,
    })
    const before = site.seen.length
    const done = await run('items__get_items')
    expect(done.status).toBe('failed')
    expect(done.error).toMatchObject({ code: 'session_or_permission' })
    expect(done.error!.message).toMatch(/passphrase/)
    expect(site.seen.length).toBe(before)
    const put = await putSecret('OTHER', { value: 'whatever-1234' })
    expect(put.status).toBe(503)
    expect((put.body as unknown as ErrorAnswerBody).error.code).toBe('unavailable')
    // Listing needs no key: names and hosts are not secret.
    expect(
      (await send<{ accounts: unknown[] }>(base, 'GET', '/v1/accounts', { key })).body.accounts,
    ).toHaveLength(1)

    const unlock = (token: string, passphrase: string) =>
      send<{ vault?: { mode: string } } & Partial<ErrorAnswerBody>>(
        base,
        'POST',
        '/v1/vault/unlock',
        {
          key: token,
          json: { passphrase },
        },
      )
    expect((await unlock(key, PASSPHRASE)).status).toBe(403)
    const wrong = await unlock(core.ownerToken, 'not the passphrase')
    expect(wrong.status).toBe(422)
    expect(wrong.body.error?.message).not.toContain('not the passphrase')
    const right = await unlock(core.ownerToken, PASSPHRASE)
    expect(right.status).toBe(200)
    expect(right.body.vault?.mode).toBe('passphrase')
    expect((await run('items__get_items')).status).toBe('succeeded')
  })
})
