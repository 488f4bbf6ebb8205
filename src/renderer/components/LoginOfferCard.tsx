import { useEffect, useState } from 'react'
import type { LoginOffer } from '../../shared/appApi'
import { invoke } from '../api'
import { attempt, useAppStore } from '../stores/useAppStore'
import { useSecretsStore } from '../stores/useSecretsStore'
import { VaultUnlock } from './VaultUnlock'

/** What a seen login holds, one line each: never a secret value, only the user name. */
function holds(offer: LoginOffer): string[] {
  const lines: string[] = []
  if (offer.username) lines.push(`User name: ${offer.username}`)
  if (offer.httpAuth)
    lines.push(
      offer.httpAuth === 'basic'
        ? 'HTTP Basic authentication: the user name and password'
        : 'HTTP Digest authentication: the user name (type the password below)',
    )
  if (offer.cookieCount)
    lines.push(`${offer.cookieCount} cookie${offer.cookieCount > 1 ? 's' : ''} of the session`)
  if (offer.bearer) lines.push('A bearer token')
  else if (offer.storageItems)
    lines.push(`${offer.storageItems} item${offer.storageItems > 1 ? 's' : ''} the site stored`)
  return lines
}

/**
 * After Stop or a HAR import (architecture.md "What recorded traffic asks", 5): the login the browser used on the recorded
 * site, offered as "Save the login you used on <site>?" with what it holds and Save / Skip.
 * Saved, it is sealed in the vault as a sign-in saves one, so Verify and later runs use it; a
 * locked vault asks its passphrase right here, and nothing is kept until then.
 */
export function LoginOfferCard({
  traceId,
  host,
  initial,
}: {
  traceId: string
  host: string
  /** The offer the result came with; absent: asked for (`logins.offer`). */
  initial?: LoginOffer | null
}) {
  const [offer, setOffer] = useState<LoginOffer | null>(initial ?? null)
  const [state, setState] = useState<'offered' | 'saved' | 'skipped'>('offered')
  const [password, setPassword] = useState('')
  const vault = useSecretsStore((s) => s.vault)
  const loadVault = useSecretsStore((s) => s.load)
  useEffect(() => {
    void loadVault()
    if (initial !== undefined) return
    void attempt(invoke('logins.offer', { traceId, host })).then((o) => setOffer(o ?? null))
  }, [traceId, host, initial, loadVault])
  if (!offer || state === 'skipped') return null
  if (state === 'saved' || offer.saved)
    return (
      <p className="banner banner-ok" data-testid="login-saved" role="status">
        The login you used on {host} is saved, sealed in the vault: Verify and runs of this tool use
        it.
      </p>
    )
  const save = () =>
    void attempt(
      invoke('logins.saveFromTrace', {
        traceId,
        host,
        ...(offer.needsPassword ? { password } : {}),
      }),
    ).then((o) => {
      if (!o) return
      setOffer(o)
      setState('saved')
      useAppStore.getState().touchNeeds()
    })
  const skip = () =>
    void attempt(invoke('logins.skipFromTrace', { traceId, host })).then(() => setState('skipped'))
  const lines = holds(offer)
  return (
    <section className="card stack" data-testid="login-offer" aria-labelledby="login-offer-title">
      <h2 id="login-offer-title">Save the login you used on {host}?</h2>
      <p className="muted">
        The recording shows the browser signed in to {host}. Saved, it is sealed in the vault (never
        shown again), and Verify and later runs call the site as you; skipped, runs ask you to sign
        in.
        {offer.replaces && ' Another login of this site is saved: saving replaces it.'}
      </p>
      {lines.length > 0 && (
        <ul data-testid="login-offer-holds">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {offer.needsPassword && (
        <label className="field">
          <span className="field-name">Password of {offer.username ?? 'the user'}</span>
          <input
            type="password"
            data-testid="login-offer-password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
      )}
      {vault?.mode === 'locked' ? (
        <>
          <p className="muted">The vault is locked: unlock it to save the login.</p>
          <VaultUnlock vault={vault} onOpen={save} submitLabel="Unlock and save the login" />
          <div>
            <button data-testid="login-offer-skip" onClick={skip}>
              Skip
            </button>
          </div>
        </>
      ) : (
        <div className="row">
          <button
            className="primary"
            data-testid="login-offer-save"
            disabled={offer.needsPassword && !password}
            onClick={save}
          >
            Save the login
          </button>
          <button data-testid="login-offer-skip" onClick={skip}>
            Skip
          </button>
        </div>
      )}
    </section>
  )
}
