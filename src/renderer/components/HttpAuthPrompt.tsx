import { useEffect, useId, useState } from 'react'
import type { HttpAuthChallenge } from '../../shared/appApi'
import { useSecretsStore } from '../stores/useSecretsStore'
import { VaultUnlock } from './VaultUnlock'

/**
 * A site's HTTP authentication challenge met by the recording or sign-in browser, asked here
 * instead of in a browser dialog nobody may see: the site, its realm and scheme, a username and a
 * password. They are saved as the site's login, sealed in the vault, so the vault
 * is opened first when it is locked. `answer` resolves true once the credentials were taken.
 */
export function HttpAuthPrompt({
  challenge,
  answer,
}: {
  challenge: HttpAuthChallenge
  answer: (username: string, password: string) => Promise<boolean>
}) {
  const id = useId()
  const vault = useSecretsStore((s) => s.vault)
  const loadVault = useSecretsStore((s) => s.load)
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  useEffect(() => void loadVault(), [loadVault])
  const scheme = challenge.scheme === 'digest' ? 'Digest' : 'Basic'
  const submit = async () => {
    setBusy(true)
    const taken = await answer(username, password)
    setBusy(false)
    if (taken) setPassword('')
  }
  return (
    <section
      className="card"
      data-testid="http-auth-prompt"
      aria-labelledby={`${id}-title`}
      role="group"
    >
      <h2 id={`${id}-title`}>{challenge.host} asks you to sign in</h2>
      <p className="muted">
        The site uses HTTP {scheme} authentication
        {challenge.realm ? (
          <>
            {' '}
            for <strong data-testid="http-auth-realm">“{challenge.realm}”</strong>
          </>
        ) : null}
        . What you enter is saved as the login of {challenge.host}, sealed in the vault: tools of
        this site send it when the site asks, and never hold it themselves.
      </p>
      {challenge.failed && (
        <p className="banner banner-error" role="alert" data-testid="http-auth-refused">
          The site refused the username and password given: check them and try again.
        </p>
      )}
      {vault?.mode === 'locked' ? (
        <VaultUnlock vault={vault} onOpen={() => undefined} submitLabel="Unlock the vault" />
      ) : (
        <form
          className="row wrap"
          onSubmit={(e) => {
            e.preventDefault()
            void submit()
          }}
        >
          <label className="field">
            <span className="field-name">Username</span>
            <input
              data-testid="http-auth-username"
              autoComplete="username"
              required
              pattern="[^:]*"
              title="A username cannot hold a colon (RFC 7617)."
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field-name">Password</span>
            <input
              type="password"
              data-testid="http-auth-password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <button type="submit" className="primary" data-testid="http-auth-submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in and save the login'}
          </button>
        </form>
      )}
    </section>
  )
}
