import type { VaultState } from '../shared/appApi'

/**
 * What the vault's state means to the person, in the app's words. The service's own `message`
 * is written for programs (it names `POST /v1/vault/unlock`, `SITECALL_KEYCHAIN` and may carry
 * the keychain's D-Bus error): the app shows this instead.
 */
export function vaultWords(vault: VaultState): string {
  if (vault.mode === 'keychain') return 'Open: its key is kept in the system keychain.'
  if (vault.mode === 'passphrase') return 'Open: unlocked with your passphrase for this session.'
  if (vault.unlockWith === 'keychain')
    return 'Locked: its key is in the system keychain, which is locked or did not answer. Unlock your keychain (sign in to the desktop session), then try again.'
  if (!vault.initialized)
    return 'Not set up yet: choose a passphrase of at least 8 characters. It seals the logins and secrets your tools use, and it cannot be recovered if forgotten.'
  return 'Locked: enter the passphrase you chose to open it.'
}
