import { useEffect, useState } from 'react'
import type { LoginOffer } from '../../shared/appApi'
import { invoke } from '../api'
import { attempt, useAppStore } from '../stores/useAppStore'
import { useSecretsStore } from '../stores/useSecretsStore'
import { VaultUnlock } from './VaultUnlock'

/**
 * At Stop: the login the person signed into while recording, offered as
 * "save this login for <site>" so Verify can use it at once; asks the vault's passphrase right
 * here when the vault is locked.
 */
export function LoginOfferCard({ traceId, host }: { traceId: string; host: string }) {
  const [offer, setOffer] = useState<LoginOffer | null>(null)
  const vault = useSecretsStore((s) => s.vault)
  const loadVault = useSecretsStore((s) => s.load)
  useEffect(() => {
    void loadVault()
    void attempt(invoke('logins.offer', { traceId, host })).then((o) => setOffer(o ?? null))
  }, [traceId, host, loadVault])
  if (!offer) return null
  if (offer.saved)
    return (
      <p className="banner banner-ok" data-testid="login-saved" role="status">
        The login for {host} is saved: runs of this tool sign in with it.
      </p>
    )
  const save = () =>
    void attempt(invoke('logins.saveFromTrace', { traceId, host })).then((o) => {
      if (!o) return
      setOffer(o)
      useAppStore.getState().touchNeeds()
    })
  return (
    <section className="card" data-testid="login-offer" aria-label={`Save the login for ${host}`}>
      <h2>Save this login for {host}?</h2>
      <p className="muted">
        You were signed in to {host} when you stopped. Saved (sealed in the vault), it lets Verify
        and later runs call the site as you without signing in again.
      </p>
      {vault?.mode === 'locked' ? (
        <VaultUnlock vault={vault} onOpen={save} submitLabel="Unlock and save the login" />
      ) : (
        <button className="primary" data-testid="login-offer-save" onClick={save}>
          Save the login for {host}
        </button>
      )}
    </section>
  )
}
