import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../../src/main/store/db'
import { createOAuthRepository } from '../../../../src/main/store/oauthRepository'
import { createClientRegistrar } from '../../../../src/main/api/oauth/clientRegistration'
import { isServiceError } from '../../../../src/shared/errors'

const body = { client_name: 'agent', redirect_uris: ['http://127.0.0.1:9/cb'] }

function refusal(fn: () => unknown): { code: string; status: number; details: unknown } {
  try {
    fn()
  } catch (error) {
    if (isServiceError(error))
      return { code: error.code, status: error.status, details: error.details }
    throw error
  }
  throw new Error('expected a refusal')
}

describe('OAuth client registration limits (issue 13 item 8)', () => {
  it('refuses past the burst with 429 rate_limited and Retry-After seconds, then refills', () => {
    let now = 1_000_000
    const repo = createOAuthRepository(openDatabase(':memory:'))
    const register = createClientRegistrar(repo, () => now, {
      perMinute: 6,
      burst: 3,
      maxClients: 100,
    })
    for (let i = 0; i < 3; i++) register(body)
    const refused = refusal(() => register(body))
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429 })
    expect((refused.details as { retryAfterSeconds: number }).retryAfterSeconds).toBe(10)
    expect(repo.countClients()).toBe(3)
    now += 10_000
    expect(register(body).client_id).toMatch(/^svc_client_/)
  })

  it('keeps at most maxClients, letting unused clients over an hour old go first', () => {
    let now = 0
    const repo = createOAuthRepository(openDatabase(':memory:'))
    const register = createClientRegistrar(repo, () => now, {
      perMinute: 6000,
      burst: 100,
      maxClients: 2,
    })
    const used = register(body).client_id
    repo.createFamily({
      id: 'fam',
      clientId: used,
      tenant: 'local',
      scope: 'tools:read',
      createdAt: 0,
    })
    const unused = register(body).client_id
    expect(refusal(() => register(body))).toMatchObject({ code: 'rate_limited', status: 429 })
    now += 60 * 60_000 + 1
    const fresh = register(body).client_id
    expect(repo.getClient(unused)).toBeNull()
    expect(repo.getClient(used)).not.toBeNull()
    expect(repo.getClient(fresh)).not.toBeNull()
    expect(repo.countClients()).toBe(2)
  })
})
