import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createStore, type SqliteStore } from '../../../src/main/store/store'
import { keepToken, keychainAccount, readToken } from '../../../src/main/sync/syncTokens'
import type { SyncLink } from '../../../src/main/sync/syncLocal'
import type { Keychain, KeychainAnswer } from '../../../src/main/vault/keychain'
import { createVault, type Vault } from '../../../src/main/vault/vault'

let dir: string
let store: SqliteStore
let vault: Vault
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-synctok-'))
  store = createStore(join(dir, 'sitecall.db'))
  vault = createVault({
    secrets: store.secrets,
    keychain: null,
    passphrase: 'token test passphrase',
    clock: Date.now,
  })
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A keychain in memory, or one that answers every call `unavailable`. */
function fakeKeychain(working: boolean): Keychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  const down: KeychainAnswer = { ok: false, reason: 'unavailable', message: 'no Secret Service' }
  return {
    entries,
    get: async (account) => (working ? { ok: true, value: entries.get(account) ?? null } : down),
    set: async (account, value) => {
      if (!working) return down
      entries.set(account, value)
      return { ok: true, value: null }
    },
    remove: async (account) =>
      working ? { ok: true, value: entries.delete(account) ? 'deleted' : null } : down,
  }
}

const link = (place: Pick<SyncLink, 'tokenStore' | 'sealedToken'>): SyncLink => ({
  tenant: 'local',
  serverUrl: 'https://team.example',
  workspace: null,
  auth: 'oauth',
  clientId: 'c1',
  pulledRevision: 0,
  linkedAt: 1,
  ...place,
})

it('keeps a link token in the keychain when it answers, else sealed by the vault', async () => {
  const keychain = fakeKeychain(true)
  const inKeychain = await keepToken({ keychain, vault }, 'local', 'svc_ort_secret1')
  expect(inKeychain).toEqual({ tokenStore: 'keychain', sealedToken: null })
  expect(keychain.entries.get(keychainAccount('local'))).toBe('svc_ort_secret1')
  expect(await readToken({ keychain, vault }, link(inKeychain))).toBe('svc_ort_secret1')

  const down = fakeKeychain(false)
  const sealed = await keepToken({ keychain: down, vault }, 'local', 'svc_ort_secret2')
  expect(sealed.tokenStore).toBe('vault')
  expect(sealed.sealedToken!.includes('svc_ort_secret2')).toBe(false)
  expect(await readToken({ keychain: down, vault }, link(sealed))).toBe('svc_ort_secret2')
})
