import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/main/store/db'
import { createSecretRepository } from '../../../src/main/store/secretRepository'
import { createVault } from '../../../src/main/vault'
import { DEFAULT_KDF } from '../../../src/main/vault/passphrase'
import { isServiceError } from '../../../src/shared/errors'

const PASSPHRASE = 'correct horse battery staple'

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!isServiceError(error)) throw new Error(`expected a refusal, got ${String(error)}`)
  return error
}

describe('passphrase unlock (issue 13 item 8)', () => {
  it('derives new vault keys with scrypt N of at least 2^16', () => {
    expect(DEFAULT_KDF.N).toBeGreaterThanOrEqual(2 ** 16)
  })

  it('backs off after failed passphrases, even for the right one, and forgets after success', async () => {
    let now = 1_000_000
    const secrets = createSecretRepository(openDatabase(':memory:'))
    const setUp = createVault({ secrets, keychain: null, clock: () => now })
    await setUp.open()
    await setUp.unlock(PASSPHRASE)
    expect(secrets.meta()!.kdf!.N).toBe(DEFAULT_KDF.N)

    const vault = createVault({ secrets, keychain: null, clock: () => now })
    await vault.open()
    for (let i = 0; i < 3; i++)
      expect((await refusal(vault.unlock('wrong passphrase'))).code).toBe('invalid_input')
    const waiting = await refusal(vault.unlock(PASSPHRASE))
    expect(waiting.code).toBe('rate_limited')
    expect(waiting.status).toBe(429)
    const wait = waiting.details.retryAfterSeconds as number
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(vault.status().mode).toBe('locked')

    now += wait * 1000
    expect((await refusal(vault.unlock('wrong again'))).code).toBe('invalid_input')
    const longer = await refusal(vault.unlock(PASSPHRASE))
    expect(longer.details.retryAfterSeconds as number).toBeGreaterThan(wait)

    now += (longer.details.retryAfterSeconds as number) * 1000
    expect((await vault.unlock(PASSPHRASE)).mode).toBe('passphrase')
  })
})
