import { useEffect, useState } from 'react'
import type { SecretSummary, VaultState } from '../../shared/appApi'
import { formatTime } from '../format'
import { parseHosts, useSecretsStore } from '../stores/useSecretsStore'
import { ConfirmButton } from '../components/ConfirmButton'
import { ListTable } from '../components/ListTable'
import { vaultWords } from '../vaultWords'

const MODE_LABEL = { keychain: 'Keychain', passphrase: 'Passphrase', locked: 'Locked' } as const

/** The vault's mode, and when locked the way to unlock it (it always says which). */
function VaultPanel({ vault }: { vault: VaultState }) {
  const unlock = useSecretsStore((s) => s.unlock)
  const [passphrase, setPassphrase] = useState('')
  const [again, setAgain] = useState('')
  const choosing = !vault.initialized && vault.unlockWith === 'passphrase'
  const mismatch = choosing && again !== '' && again !== passphrase
  return (
    <div className={`card vault vault-${vault.mode}`} data-testid="vault-panel">
      <div className="row">
        <span
          className={`badge ${vault.mode === 'locked' ? 'badge-amber' : 'badge-green'}`}
          data-testid="vault-mode"
        >
          {MODE_LABEL[vault.mode]}
        </span>
        <span data-testid="vault-message">{vaultWords(vault)}</span>
      </div>
      {vault.mode === 'locked' && vault.unlockWith === 'passphrase' && (
        <form
          className="row unlock"
          onSubmit={(e) => {
            e.preventDefault()
            if (mismatch) return
            void unlock(passphrase).then((open) => open && setPassphrase(''))
          }}
        >
          <input
            type="password"
            data-testid="vault-passphrase"
            autoComplete={choosing ? 'new-password' : 'current-password'}
            placeholder={choosing ? 'Choose a passphrase (8 or more characters)' : 'Passphrase'}
            minLength={choosing ? 8 : 1}
            required
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
          {choosing && (
            <input
              type="password"
              data-testid="vault-passphrase-again"
              autoComplete="new-password"
              placeholder="The same again"
              required
              value={again}
              onChange={(e) => setAgain(e.target.value)}
            />
          )}
          <button className="primary" type="submit" data-testid="vault-unlock" disabled={mismatch}>
            {choosing ? 'Set passphrase' : 'Unlock'}
          </button>
          {mismatch && <span className="hint danger-text">The two do not match.</span>}
        </form>
      )}
      {vault.mode === 'locked' && vault.unlockWith === 'keychain' && (
        <button data-testid="vault-unlock" onClick={() => void unlock()}>
          Try the keychain again
        </button>
      )}
    </div>
  )
}

/** Name, value and hosts of a secret to store; the value field is cleared once it is saved. */
function SetSecretForm({ locked, names }: { locked: boolean; names: string[] }) {
  const save = useSecretsStore((s) => s.set)
  const [name, setName] = useState('')
  const [value, setValue] = useState('')
  const [hosts, setHosts] = useState('')
  const replacing = names.includes(name.trim())
  return (
    <form
      className="card secret-form"
      data-testid="secret-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save(name.trim(), value, parseHosts(hosts)).then((saved) => {
          if (!saved) return
          setName('')
          setValue('')
          setHosts('')
        })
      }}
    >
      <h2>{replacing ? `Replace ${name.trim()}` : 'Add a secret'}</h2>
      <fieldset disabled={locked} className="form-grid">
        <label className="field">
          <span className="field-name">Name</span>
          <input
            data-testid="secret-name"
            required
            maxLength={64}
            pattern="[A-Za-z0-9_.\-]+"
            title="Letters, digits, _, - and ."
            placeholder="shop_password"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <span className="hint">
            Tools use it as <code>{`{{secret:${name.trim() || 'NAME'}}}`}</code>.
          </span>
        </label>
        <label className="field">
          <span className="field-name">Value</span>
          <input
            data-testid="secret-value"
            type="password"
            autoComplete="new-password"
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
          <span className="hint">Stored encrypted; never shown again.</span>
        </label>
        <label className="field">
          <span className="field-name">Hosts it may be sent to</span>
          <input
            data-testid="secret-hosts"
            placeholder="shop.example.com, api.example.com:8443"
            value={hosts}
            onChange={(e) => setHosts(e.target.value)}
          />
          <span className="hint">
            A run that would send it to any other host fails <code>policy_denied</code>.
          </span>
        </label>
      </fieldset>
      <div className="row">
        <button className="primary" type="submit" data-testid="secret-save" disabled={locked}>
          {replacing ? 'Replace value' : 'Save secret'}
        </button>
        {locked && <span className="hint">Unlock the vault to add or change secrets.</span>}
      </div>
    </form>
  )
}

function SecretRow({ secret }: { secret: SecretSummary }) {
  const remove = useSecretsStore((s) => s.remove)
  return (
    <tr data-testid="secret-row">
      <td>
        <code>{secret.name}</code>
      </td>
      <td data-testid="secret-hosts-cell">
        {secret.hosts.length ? (
          secret.hosts.map((h) => (
            <span key={h} className="chip">
              {h}
            </span>
          ))
        ) : (
          <span className="muted">no host: it is never sent</span>
        )}
      </td>
      <td className="nowrap">{formatTime(secret.updatedAt)}</td>
      <td className="actions">
        <ConfirmButton
          label="Delete"
          testId="secret-delete"
          onConfirm={() => void remove(secret.name)}
        />
      </td>
    </tr>
  )
}

/** The vault's secrets: names and bound hosts, set and delete; values never shown. */
export function SecretsView() {
  const { secrets, vault, load } = useSecretsStore()
  useEffect(() => void load(), [load])
  const locked = vault?.mode === 'locked'
  return (
    <>
      <h1>Secrets</h1>
      <p className="muted">
        Passwords and tokens your tools send, kept encrypted on this machine. Each is bound to the
        hosts it may go to.
      </p>
      {vault && <VaultPanel vault={vault} />}
      <SetSecretForm locked={locked} names={(secrets ?? []).map((s) => s.name)} />
      {secrets && secrets.length === 0 && <p className="muted">No secrets yet.</p>}
      {secrets && secrets.length > 0 && (
        <div className="card flush">
          <ListTable columns={['Name', 'Bound hosts', 'Updated', null]} testId="secrets-table">
            {secrets.map((s) => (
              <SecretRow key={s.name} secret={s} />
            ))}
          </ListTable>
        </div>
      )}
    </>
  )
}
