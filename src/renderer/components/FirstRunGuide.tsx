import { useEffect, useState } from 'react'
import { useAppStore } from '../stores/useAppStore'
import { useRecordStore } from '../stores/useRecordStore'
import { useSecretsStore } from '../stores/useSecretsStore'
import { useToolsStore } from '../stores/useToolsStore'
import { vaultWords } from '../vaultWords'
import { VaultUnlock } from './VaultUnlock'

const DISMISSED_KEY = 'sitecall.firstRunDismissed'
/** What the demo's first recording asks for: the orders page's own list request. */
const DEMO_INTENT = 'list my orders'

function VaultStep() {
  const vault = useSecretsStore((s) => s.vault)
  const load = useSecretsStore((s) => s.load)
  useEffect(() => void load(), [load])
  if (!vault) return <p className="muted">Checking the vault…</p>
  if (vault.mode !== 'locked')
    return (
      <p data-testid="guide-vault-open">
        The vault is open ({vault.mode === 'keychain' ? 'key in the OS keychain' : 'passphrase'}):
        saved logins and secrets are sealed with it.
      </p>
    )
  return (
    <>
      <p className="muted small" data-testid="guide-vault-message">
        {vaultWords(vault)}
      </p>
      <VaultUnlock vault={vault} onOpen={() => void load()} />
    </>
  )
}

/**
 * The first-run guide: try the built-in demo shop (its address and user shown),
 * set up the vault, make the first recording. Shown on Record while there is no tool, until the
 * person hides it.
 */
export function FirstRunGuide() {
  const demo = useAppStore((s) => s.info?.demo)
  const tools = useToolsStore((s) => s.list)
  const loadTools = useToolsStore((s) => s.loadList)
  const setPrefill = useRecordStore((s) => s.setPrefill)
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED_KEY) === '1')
  useEffect(() => void loadTools(), [loadTools])
  if (dismissed || !tools || tools.length > 0) return null
  return (
    <section className="card guide" data-testid="first-run-guide" aria-labelledby="guide-title">
      <div className="row">
        <h2 id="guide-title">Welcome to Sitecall</h2>
        <span className="spacer" />
        <button
          className="link"
          onClick={() => {
            localStorage.setItem(DISMISSED_KEY, '1')
            setDismissed(true)
          }}
        >
          Hide this guide
        </button>
      </div>
      <ol className="guide-steps">
        <li>
          <strong>Try the demo shop.</strong> A small shop runs inside Sitecall
          {demo ? (
            <>
              {' '}
              at <code data-testid="guide-demo-url">{demo.url}</code>; sign in there as{' '}
              <code>{demo.username}</code> with the password <code>{demo.password}</code>.
            </>
          ) : (
            '.'
          )}{' '}
          {demo && (
            <button
              data-testid="guide-use-demo"
              onClick={() => setPrefill({ url: demo.url, intent: DEMO_INTENT })}
            >
              Fill in the demo below
            </button>
          )}
        </li>
        <li>
          <strong>Set up the vault</strong> that seals the logins and secrets your tools use.
          <VaultStep />
        </li>
        <li>
          <strong>Record.</strong> Start recording, do the task once in the browser that opens (sign
          in, open the orders), press Stop, then Verify the tool Sitecall made.
        </li>
      </ol>
    </section>
  )
}
