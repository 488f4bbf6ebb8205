import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../src/main/store/db'
import { createSecretRepository } from '../../../src/main/store/secretRepository'
import { createVault, type Keychain, type KeychainAnswer } from '../../../src/main/vault'

const VALUE = 'pa55-W0rd-for-the-shop-7d1f'

/** An in-memory stand-in for the OS keychain (the OS edge), which can also refuse to answer. */
function memoryKeychain(answer: 'ok' | 'unavailable' | 'timeout' = 'ok') {
  const entries = new Map<string, string>()
  const fail = (): KeychainAnswer => ({
    ok: false,
    reason: answer === 'timeout' ? 'timeout' : 'unavailable',
    message: answer === 'timeout' ? 'no answer within 5000 ms' : "Couldn't access platform storage",
  })
  const keychain: Keychain & { entries: Map<string, string>; calls: number } = {
    entries,
    calls: 0,
    async get(account) {
      keychain.calls++
      return answer === 'ok' ? { ok: true, value: entries.get(account) ?? null } : fail()
    },
    async set(account, value) {
      keychain.calls++
      if (answer !== 'ok') return fail()
      entries.set(account, value)
      return { ok: true, value: null }
    },
    async remove(account) {
      keychain.calls++
      return { ok: true, value: entries.delete(account) ? 'deleted' : null }
    },
  }
  return keychain
}

describe('vault', () => {
  const dirs: string[] = []
  const dbs: Db[] = []
  afterEach(() => {
    for (const db of dbs.splice(0)) db.close()
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitecall-vault-'))
    dirs.push(dir)
    return dir
  }
  const vaultAt = (
    dir: string,
    options: { keychain: Keychain | null; passphrase?: string | null },
  ) => {
    const db = openDatabase(join(dir, 'sitecall.db'))
    dbs.push(db)
    const secrets = createSecretRepository(db)
    return { db, secrets, vault: createVault({ secrets, clock: Date.now, ...options }) }
  }
  const fileBytes = (dir: string) =>
    Buffer.concat(readdirSync(dir).map((f) => readFileSync(join(dir, f))))

  it('keeps the master key in the keychain when one answers, and reopens with it', async () => {
    const dir = newDir()
    const keychain = memoryKeychain()
    const first = vaultAt(dir, { keychain })
    expect(first.vault.status().mode).toBe('locked')
    expect(await first.vault.open()).toMatchObject({ mode: 'keychain', initialized: true })
    expect(keychain.entries.size).toBe(1)
    await first.vault.put('local', 'SHOP_PASSWORD', VALUE, ['shop.test'])
    const again = vaultAt(dir, { keychain })
    expect((await again.vault.open()).mode).toBe('keychain')
    expect(await again.vault.forRun('local').resolve('SHOP_PASSWORD')).toEqual({
      name: 'SHOP_PASSWORD',
      value: VALUE,
      hosts: ['shop.test'],
    })
  })

  it('asks a passphrase where no keychain answers, and never stores the value in the clear', async () => {
    for (const answer of ['unavailable', 'timeout'] as const) {
      const dir = newDir()
      const { vault, db } = vaultAt(dir, { keychain: memoryKeychain(answer) })
      const status = await vault.open()
      expect(status).toMatchObject({ mode: 'locked', unlockWith: 'passphrase', initialized: false })
      expect(status.message).toMatch(/passphrase/)
      await expect(vault.put('local', 'SHOP_PASSWORD', VALUE, null)).rejects.toMatchObject({
        code: 'unavailable',
        status: 503,
      })
      await expect(vault.unlock('short')).rejects.toMatchObject({ code: 'invalid_input' })
      expect(await vault.unlock('a long enough passphrase')).toMatchObject({
        mode: 'passphrase',
        unlockWith: null,
      })
      await vault.put('local', 'SHOP_PASSWORD', VALUE, ['shop.test'])
      db.pragma('wal_checkpoint(TRUNCATE)')
      const bytes = fileBytes(dir)
      expect(bytes.includes(Buffer.from(VALUE))).toBe(false)
      expect(bytes.includes(Buffer.from('SHOP_PASSWORD'))).toBe(true)
    }
  })

  it('reopens a passphrase vault only with the right passphrase (unlock or SITECALL_PASSPHRASE)', async () => {
    const dir = newDir()
    const set = vaultAt(dir, { keychain: null, passphrase: 'correct horse battery' })
    expect((await set.vault.open()).mode).toBe('passphrase')
    await set.vault.put('local', 'TOKEN', VALUE, ['api.test'])

    const wrongEnv = vaultAt(dir, { keychain: null, passphrase: 'wrong horse battery' })
    expect(await wrongEnv.vault.open()).toMatchObject({ mode: 'locked', unlockWith: 'passphrase' })
    await expect(wrongEnv.vault.unlock('still wrong!')).rejects.toMatchObject({
      code: 'invalid_input',
      status: 422,
    })
    await expect(wrongEnv.vault.unlock()).rejects.toMatchObject({ status: 400 })
    expect((await wrongEnv.vault.unlock('correct horse battery')).mode).toBe('passphrase')
    expect((await wrongEnv.vault.forRun('local').resolve('TOKEN'))?.value).toBe(VALUE)

    // A keychain that answers later does not take over a passphrase vault.
    const keychain = memoryKeychain()
    const later = vaultAt(dir, { keychain, passphrase: null })
    expect((await later.vault.open()).unlockWith).toBe('passphrase')
    expect(keychain.calls).toBe(0)
  })

  it('stays locked, saying why, when its keychain key is gone or the keychain is off', async () => {
    const dir = newDir()
    const keychain = memoryKeychain()
    await vaultAt(dir, { keychain }).vault.open()
    keychain.entries.clear()
    const gone = await vaultAt(dir, { keychain }).vault.open()
    expect(gone).toMatchObject({ mode: 'locked', unlockWith: 'keychain' })
    expect(gone.message).toMatch(/missing from the OS keychain/)
    const off = vaultAt(dir, { keychain: null })
    expect((await off.vault.open()).message).toMatch(/SITECALL_KEYCHAIN=off/)
    await expect(off.vault.unlock('some passphrase')).rejects.toMatchObject({ code: 'conflict' })
  })

  it('keeps one data key per workspace, so a workspace cannot read another one', async () => {
    const dir = newDir()
    const { vault, db } = vaultAt(dir, { keychain: null, passphrase: 'correct horse battery' })
    await vault.put('alpha', 'TOKEN', 'alpha-value-1', [])
    await vault.put('beta', 'TOKEN', 'beta-value-22', [])
    const keys = db.prepare('SELECT tenant, wrapped FROM vault_data_keys').all() as Array<{
      tenant: string
      wrapped: Buffer
    }>
    expect(keys.map((k) => k.tenant).sort()).toEqual(['alpha', 'beta'])
    expect(keys[0]!.wrapped.equals(keys[1]!.wrapped)).toBe(false)
    // An envelope moved to the other workspace's row does not open there.
    db.prepare(
      "UPDATE secrets SET envelope = (SELECT envelope FROM secrets WHERE tenant = 'alpha') WHERE tenant = 'beta'",
    ).run()
    await expect(vault.forRun('beta').resolve('TOKEN')).rejects.toMatchObject({ code: 'internal' })
    expect((await vault.forRun('alpha').resolve('TOKEN'))?.value).toBe('alpha-value-1')
  })

  it('lists names and hosts without unlocking, keeps hosts when a PUT leaves them out, deletes', async () => {
    const dir = newDir()
    const { vault } = vaultAt(dir, { keychain: null, passphrase: 'correct horse battery' })
    expect(await vault.put('local', 'TOKEN', VALUE, ['api.test'])).toMatchObject({
      created: true,
      secret: { name: 'TOKEN', hosts: ['api.test'] },
    })
    expect(await vault.put('local', 'TOKEN', 'new-value-123', null)).toMatchObject({
      created: false,
      secret: { hosts: ['api.test'] },
    })
    const locked = vaultAt(dir, { keychain: null })
    expect(locked.vault.list('local')).toEqual([
      expect.objectContaining({ name: 'TOKEN', hosts: ['api.test'] }),
    ])
    expect(JSON.stringify(locked.vault.list('local'))).not.toContain('new-value')
    expect(locked.vault.remove('local', 'TOKEN')).toBe(true)
    expect(locked.vault.remove('local', 'TOKEN')).toBe(false)
  })

  it('refuses text holding a stored value, naming the secret but not its value', async () => {
    const { vault } = vaultAt(newDir(), { keychain: null, passphrase: 'correct horse battery' })
    await vault.refuseSecretValues(`log in with ${VALUE}`, 'local')
    await vault.put('local', 'SHOP_PASSWORD', VALUE, ['shop.test'])
    await vault.put('local', 'PIN', '123', ['shop.test'])
    const refused = vault.refuseSecretValues(`log in to the shop with ${VALUE} and buy`, 'local')
    await expect(refused).rejects.toMatchObject({ code: 'invalid_input', status: 422 })
    await expect(refused).rejects.toThrow(/\{\{secret:SHOP_PASSWORD\}\}/)
    await refused.catch((error: Error) => expect(error.message).not.toContain(VALUE))
    await vault.refuseSecretValues('log in with {{secret:SHOP_PASSWORD}}, order 123 items', 'local')
    await vault.refuseSecretValues(`${VALUE} is fine in another workspace`, 'other')
  })

  it('seals other records (a login) under the workspace key, bound to their purpose', async () => {
    const { vault } = vaultAt(newDir(), { keychain: null, passphrase: 'correct horse battery' })
    const sealed = await vault.sealFor('local', 'login:shop.test', Buffer.from('{"cookies":[]}'))
    expect((await vault.unsealFor('local', 'login:shop.test', sealed)).toString()).toBe(
      '{"cookies":[]}',
    )
    await expect(vault.unsealFor('local', 'login:other.test', sealed)).rejects.toMatchObject({
      code: 'internal',
    })
  })
})
