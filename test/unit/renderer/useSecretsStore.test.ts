import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createHttpTransport } from '../../../src/renderer/api'
import { useAppStore } from '../../../src/renderer/stores/useAppStore'
import { parseHosts, useSecretsStore } from '../../../src/renderer/stores/useSecretsStore'

let home: string
let core: Core

// A vault with no keychain and no passphrase yet: it starts locked, as on a headless server.
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-secrets-store-'))
  core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    env: { SITECALL_KEYCHAIN: 'off' },
  })
  const base = await core.listen()
  const transport = createHttpTransport(fetch, () => core.ownerToken, { baseUrl: base })
  Object.assign(globalThis, { window: { sitecall: transport } })
})

afterAll(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
  Reflect.deleteProperty(globalThis, 'window')
})

describe('parseHosts', () => {
  it('splits on commas, spaces and new lines and keeps only host[:port] of a pasted URL', () => {
    expect(
      parseHosts(' a.example.com,b.example.com\nhttps://c.example.com:8443/login?x=1 '),
    ).toEqual(['a.example.com', 'b.example.com', 'c.example.com:8443'])
    expect(parseHosts('')).toEqual([])
  })
})

describe('useSecretsStore', () => {
  it('says the vault is locked, refuses a secret until unlocked, then keeps it without its value', async () => {
    const store = useSecretsStore.getState
    await store().load()
    expect(store().vault).toMatchObject({ mode: 'locked', unlockWith: 'passphrase' })
    expect(await store().set('shop_password', 'p4ssw0rd-value', ['shop.example.com'])).toBe(false)
    expect(useAppStore.getState().error?.code).toBe('unavailable')
    useAppStore.getState().dismiss()

    expect(await store().unlock('short')).toBe(false)
    expect(useAppStore.getState().error?.code).toBe('invalid_input')
    expect(await store().unlock('a long enough passphrase')).toBe(true)
    expect(store().vault?.mode).toBe('passphrase')

    expect(await store().set('shop_password', 'p4ssw0rd-value', ['Shop.Example.com'])).toBe(true)
    expect(store().secrets).toEqual([
      expect.objectContaining({ name: 'shop_password', hosts: ['shop.example.com'] }),
    ])
    expect(JSON.stringify(store())).not.toContain('p4ssw0rd-value')
    expect(core.vault.list(LOCAL_TENANT).map((s) => s.name)).toEqual(['shop_password'])

    await store().remove('shop_password')
    expect(store().secrets).toEqual([])
    expect(core.vault.list(LOCAL_TENANT)).toEqual([])
  })

  it('refuses a host with a scheme or path, naming it', async () => {
    expect(
      await useSecretsStore.getState().set('token', 'abcdefgh', ['shop.example.com/login']),
    ).toBe(false)
    expect(useAppStore.getState().error).toMatchObject({ code: 'invalid_input' })
    expect(useAppStore.getState().error?.message).toContain('shop.example.com/login')
    useAppStore.getState().dismiss()
  })
})
