import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../src/main/store/db'
import { createSecretRepository } from '../../../src/main/store/secretRepository'
import { createKeychain, createVault, type Keychain } from '../../../src/main/vault'

/**
 * Set by `.ci/run`, which runs the tests inside `dbus-run-session` with an unlocked
 * gnome-keyring: only then is a real Secret Service there to talk to.
 */
const REAL_SECRET_SERVICE = process.env.SITECALL_TEST_KEYCHAIN === '1'
const SERVICE = 'SitecallTest'

describe('the OS keychain, called in a child process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-keychain-'))
  const dbs: Db[] = []
  afterAll(() => {
    for (const db of dbs) db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const vaultOver = (file: string, keychain: Keychain | null) => {
    const db = openDatabase(join(dir, file))
    dbs.push(db)
    const secrets = createSecretRepository(db)
    return { secrets, vault: createVault({ secrets, keychain, clock: Date.now }) }
  }

  it('fails fast where no Secret Service answers, and the vault turns to a passphrase', async () => {
    // A session bus address that leads nowhere: the binding's D-Bus connect fails at once.
    const keychain = createKeychain({
      service: SERVICE,
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/sitecall-bus' },
      // Generous, so a slow start of the child on a busy machine is not taken for a hang.
      timeoutMs: 20_000,
    })
    const answer = await keychain.get('probe')
    expect(answer).toMatchObject({ ok: false, reason: 'unavailable' })
    const { vault } = vaultOver('no-bus.db', keychain)
    const status = await vault.open()
    expect(status).toMatchObject({ mode: 'locked', unlockWith: 'passphrase', initialized: false })
    expect(status.message).toMatch(/passphrase/)
    expect(await vault.unlock('a passphrase for this server')).toMatchObject({
      mode: 'passphrase',
    })
    await vault.put('local', 'TOKEN', 'token-value-0001', ['api.test'])
    expect((await vault.forRun('local').resolve('TOKEN'))?.value).toBe('token-value-0001')
  })

  it('kills a keychain call that hangs and reports a timeout', async () => {
    // A stand-in binding whose call blocks like one waiting on an unanswered unlock prompt.
    const pidFile = join(dir, 'hung.pid')
    const modulePath = join(dir, 'hungKeyring.cjs')
    writeFileSync(
      modulePath,
      `exports.Entry = class {
        getPassword() {
          require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid))
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)
        }
      }`,
    )
    const keychain = createKeychain({ service: SERVICE, modulePath, timeoutMs: 1500 })
    const answer = await keychain.get('probe')
    expect(answer).toMatchObject({ ok: false, reason: 'timeout' })
    const pid = Number(readFileSync(pidFile, 'utf8'))
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/)
  })

  it.runIf(REAL_SECRET_SERVICE)(
    'stores, reads and deletes an entry in the Secret Service',
    async () => {
      const keychain = createKeychain({ service: SERVICE })
      const account = `roundtrip-${process.pid}`
      expect(await keychain.set(account, 'kept-in-the-keyring')).toEqual({ ok: true, value: null })
      expect(await keychain.get(account)).toEqual({ ok: true, value: 'kept-in-the-keyring' })
      expect(await keychain.remove(account)).toEqual({ ok: true, value: 'deleted' })
      expect(await keychain.get(account)).toEqual({ ok: true, value: null })
    },
  )

  it.runIf(REAL_SECRET_SERVICE)(
    'keeps the master key in the Secret Service and reopens the vault with it',
    async () => {
      const first = vaultOver('keychain.db', createKeychain({ service: SERVICE }))
      expect(await first.vault.open()).toMatchObject({ mode: 'keychain', initialized: true })
      await first.vault.put('local', 'SHOP_PASSWORD', 'from-the-keyring-42', ['shop.test'])
      const again = vaultOver('keychain.db', createKeychain({ service: SERVICE }))
      expect((await again.vault.open()).mode).toBe('keychain')
      expect((await again.vault.forRun('local').resolve('SHOP_PASSWORD'))?.value).toBe(
        'from-the-keyring-42',
      )
      const account = `master-key-${first.secrets.meta()!.keyId}`
      expect((await createKeychain({ service: SERVICE }).remove(account)).ok).toBe(true)
      const gone = vaultOver('keychain.db', createKeychain({ service: SERVICE }))
      expect(await gone.vault.open()).toMatchObject({ mode: 'locked', unlockWith: 'keychain' })
    },
  )
})
