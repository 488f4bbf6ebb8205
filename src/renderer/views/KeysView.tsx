import { useEffect, useState } from 'react'
import type { KeySummary } from '../../shared/appApi'
import { invoke } from '../api'
import { formatTime } from '../format'
import { attempt } from '../stores/useAppStore'
import { CopyButton } from '../components/CopyBlock'
import { ListTable } from '../components/ListTable'

function NewKey({ secret }: { secret: string }) {
  return (
    <div className="card secret">
      <p>
        <strong>Copy it now: it is stored hashed and will not be shown again.</strong>
      </p>
      <div className="row">
        <code className="secret-value" data-testid="key-secret">
          {secret}
        </code>
        <CopyButton text={secret} label="the key" />
      </div>
    </div>
  )
}

export function KeysView() {
  const [keys, setKeys] = useState<KeySummary[] | null>(null)
  const [label, setLabel] = useState('')
  // Held only in this view's state: leaving the page forgets the secret for good.
  const [secret, setSecret] = useState<string | null>(null)
  const load = async () => setKeys((await attempt(invoke('keys.list', {}))) ?? [])
  useEffect(() => void load(), [])

  const create = async () => {
    const created = await attempt(invoke('keys.create', { label: label.trim() }))
    if (!created) return
    setSecret(created.key)
    setLabel('')
    await load()
  }

  return (
    <>
      <h1>API keys</h1>
      <p className="muted">
        Programs and agents call your tools with a key: one per program.{' '}
        <a href="#/connect">Connect an agent</a> shows where each key goes.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault()
          void create()
        }}
      >
        <input
          data-testid="key-label"
          required
          maxLength={100}
          placeholder="Label, e.g. my-agent"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
        />
        <button className="primary" type="submit" data-testid="key-create">
          Create key
        </button>
      </form>
      {secret && <NewKey secret={secret} />}
      {keys && keys.length === 0 && <p className="muted">No keys yet.</p>}
      {keys && keys.length > 0 && (
        <div className="card flush">
          <ListTable columns={['Label', 'Prefix', 'Created', 'Last used', 'Revoked', null]}>
            {keys.map((k) => (
              <tr key={k.id} data-testid="key-row" className={k.revokedAt ? 'revoked' : ''}>
                <td>{k.label}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{formatTime(k.createdAt)}</td>
                <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</td>
                <td>{k.revokedAt ? formatTime(k.revokedAt) : '—'}</td>
                <td>
                  {!k.revokedAt && (
                    <button
                      className="link danger-text"
                      data-testid="key-revoke"
                      aria-label={`Revoke ${k.label}`}
                      onClick={() => {
                        if (confirm(`Revoke ${k.label}? Programs using it stop working.`))
                          void attempt(invoke('keys.revoke', { id: k.id })).then(load)
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </ListTable>
        </div>
      )}
    </>
  )
}
