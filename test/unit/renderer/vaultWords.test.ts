import { describe, expect, it } from 'vitest'
import type { VaultState } from '../../../src/shared/appApi'
import { vaultWords } from '../../../src/renderer/vaultWords'

// Issue 26 item 2.5: the app says the vault's state without the API's jargon (endpoints,
// environment variables, the keychain's D-Bus error).

const keychainDown: VaultState = {
  mode: 'locked',
  unlockWith: 'keychain',
  initialized: true,
  message:
    'The vault key is in the OS keychain, which did not answer (org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided): unlock the keychain, then POST /v1/vault/unlock with no passphrase.',
}

describe('vaultWords', () => {
  it('says each state in plain words, never an endpoint, a variable or a D-Bus error', () => {
    const states: VaultState[] = [
      keychainDown,
      {
        mode: 'locked',
        unlockWith: 'passphrase',
        initialized: false,
        message: 'POST /v1/vault/unlock',
      },
      {
        mode: 'locked',
        unlockWith: 'passphrase',
        initialized: true,
        message: 'SITECALL_PASSPHRASE',
      },
      { mode: 'keychain', unlockWith: null, initialized: true, message: '' },
      { mode: 'passphrase', unlockWith: null, initialized: true, message: '' },
    ]
    const said = states.map(vaultWords)
    for (const words of said) expect(words).not.toMatch(/POST|\/v1\/|SITECALL_|DBus|freedesktop/)
    expect(said[0]).toContain('Unlock your keychain')
    expect(said[1]).toContain('choose a passphrase of at least 8 characters')
    expect(new Set(said).size).toBe(states.length)
  })
})
