import { useState } from 'react'
import type { VaultState } from '../../shared/appApi'
import { useSecretsStore } from '../stores/useSecretsStore'

/** The vault's passphrase, asked where it is needed; `onOpen` runs once the vault is open. */
export function VaultUnlock({
  vault,
  onOpen,
  submitLabel,
}: {
  vault: VaultState
  onOpen: () => void
  submitLabel?: string
}) {
  const unlock = useSecretsStore((s) => s.unlock)
  const [passphrase, setPassphrase] = useState('')
  return (
    <form
      className="row wrap"
      onSubmit={(e) => {
        e.preventDefault()
        void unlock(passphrase).then((ok) => {
          if (!ok) return
          setPassphrase('')
          onOpen()
        })
      }}
    >
      <label className="field">
        <span className="field-name">
          {vault.initialized ? 'Vault passphrase' : 'Choose a vault passphrase'}
        </span>
        <input
          type="password"
          data-testid="vault-passphrase"
          autoComplete={vault.initialized ? 'current-password' : 'new-password'}
          required
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
        />
      </label>
      <button type="submit" data-testid="vault-unlock">
        {submitLabel ?? (vault.initialized ? 'Unlock' : 'Set up the vault')}
      </button>
    </form>
  )
}
