import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { send, type ErrorAnswerBody } from '../../fixtures/harness/http'

let h: Harness

beforeEach(async () => {
  h = await startHarness()
})

afterEach(async () => {
  await h.close()
})

interface KeyAnswer {
  key: string
  id: string
  kind: string
}

describe('key routes of the account API (issue 13 item 2)', () => {
  it('the owner creates an org key, lists keys without their values, and revokes one', async () => {
    const owner = h.core.ownerToken
    const created = await send<KeyAnswer>(h.base, 'POST', '/v1/keys', {
      key: owner,
      json: { label: 'agents', kind: 'org' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ kind: 'org', key: expect.stringMatching(/^svc_live_/) })
    const org = created.body.key

    const asEndUser = await send(h.base, 'GET', '/api/v1/scopes', {
      key: org,
      headers: { 'x-service-end-user': 'customer-1' },
    })
    expect(asEndUser.status).toBe(200)

    const list = await send<{ keys: Array<{ id: string; kind: string }> }>(
      h.base,
      'GET',
      '/v1/keys',
      { key: owner },
    )
    expect(list.body.keys.map((k) => k.kind).sort()).toEqual(['org', 'personal'])
    expect(JSON.stringify(list.body)).not.toContain(org)

    const byKey = await send<ErrorAnswerBody>(h.base, 'GET', '/v1/keys', { key: h.key })
    expect(byKey.status).toBe(403)

    const revoked = await send(h.base, 'DELETE', `/v1/keys/${created.body.id}`, { key: owner })
    expect(revoked).toMatchObject({ status: 200, body: { revoked: true } })
    const after = await send<ErrorAnswerBody>(h.base, 'GET', '/api/v1/scopes', { key: org })
    expect(after.status).toBe(403)
    expect(after.body.error.code).toBe('revoked')
    const unknown = await send(h.base, 'DELETE', '/v1/keys/key_nope', { key: owner })
    expect(unknown.status).toBe(404)
    const bad = await send<ErrorAnswerBody>(h.base, 'POST', '/v1/keys', {
      key: owner,
      json: { kind: 'admin' },
    })
    expect(bad.body.error.code).toBe('invalid_input')
    const unknownField = await send<ErrorAnswerBody>(h.base, 'POST', '/v1/keys', {
      key: owner,
      json: { label: 'agents', scope: 'all' },
    })
    expect([unknownField.status, unknownField.body.error.code]).toEqual([422, 'unknown_argument'])
  })
})
