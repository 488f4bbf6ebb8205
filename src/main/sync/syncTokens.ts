import type { Keychain } from '../vault/keychain'
import type { Vault } from '../vault/vault'
import type { SyncLink, SyncLocal } from './syncLocal'

/** The vault's purpose of a sealed sync token (see `Vault.sealFor`). */
const SEALED_PURPOSE = 'sync-token'

/** The keychain entry of a link's token: one per workspace of this desktop. */
export const keychainAccount = (tenant: string): string => `sync-token-${tenant}`

export interface TokenPlace {
  keychain: Keychain | null
  vault: Vault
}

/**
 * Keeps a link's token (an OAuth refresh token, or an owner token given with `--token`) out of
 * the SQLite file in clear: in the OS keychain through the vault's keychain path (a killable
 * child with a timeout, `vault/keychain.ts`), else sealed by the vault under the workspace's
 * data key (the vault must be open: a keychain key or `SITECALL_PASSPHRASE`). Returns where.
 * Rejects with 503 `unavailable` when neither the keychain nor an open vault can keep it.
 */
export async function keepToken(
  place: TokenPlace,
  tenant: string,
  token: string,
): Promise<Pick<SyncLink, 'tokenStore' | 'sealedToken'>> {
  if (place.keychain) {
    const kept = await place.keychain.set(keychainAccount(tenant), token)
    if (kept.ok) return { tokenStore: 'keychain', sealedToken: null }
  }
  await place.vault.open()
  const sealed = await place.vault.sealFor(tenant, SEALED_PURPOSE, Buffer.from(token, 'utf8'))
  return { tokenStore: 'vault', sealedToken: sealed }
}

/** Reads a link's token back from where `keepToken` put it; rejects when it is not there. */
export async function readToken(place: TokenPlace, link: SyncLink): Promise<string> {
  if (link.tokenStore === 'keychain') {
    if (!place.keychain)
      throw new Error('The link keeps its token in the OS keychain, which is off.')
    const answer = await place.keychain.get(keychainAccount(link.tenant))
    if (!answer.ok) throw new Error(`The OS keychain: ${answer.message}`)
    if (answer.value === null)
      throw new Error('The keychain holds no token for this link: link again.')
    return answer.value
  }
  if (!link.sealedToken) throw new Error('The link has no token: link again.')
  await place.vault.open()
  return (await place.vault.unsealFor(link.tenant, SEALED_PURPOSE, link.sealedToken)).toString(
    'utf8',
  )
}

/** Forgets a link's token wherever it is (keychain entry removed; the sealed one goes with the row). */
export async function forgetToken(place: TokenPlace, link: SyncLink): Promise<void> {
  if (link.tokenStore === 'keychain' && place.keychain)
    await place.keychain.remove(keychainAccount(link.tenant))
}

/**
 * The bearer of a link's requests (`SyncServerOptions.bearer`). An owner-token link sends its
 * token. An OAuth link trades its refresh token for an access token at the server's
 * `/oauth/token` (RFC 6749 §6) on first use and when `renew` asks, and keeps the rotated
 * refresh token the server answers (a refresh token works once) where the old one was.
 */
export function createBearer(
  place: TokenPlace,
  local: SyncLocal,
  link: SyncLink,
  doFetch: typeof fetch = fetch,
): (renew: boolean) => Promise<string> {
  let access: string | null = null
  return async (renew) => {
    if (link.auth === 'token') return readToken(place, link)
    if (access && !renew) return access
    const refresh = await readToken(place, link)
    const res = await doFetch(`${link.serverUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: link.clientId ?? '',
      }).toString(),
      signal: AbortSignal.timeout(30_000),
    })
    const body = (await res.json().catch(() => ({}))) as {
      access_token?: string
      refresh_token?: string
      error?: string
      error_description?: string
    }
    if (res.status !== 200 || !body.access_token)
      throw new Error(
        `The server refused the link's refresh token (${body.error ?? res.status}): link again.`,
      )
    if (body.refresh_token) {
      const kept = await keepToken(place, link.tenant, body.refresh_token)
      local.saveTokenPlace(link.tenant, kept)
      Object.assign(link, kept)
    }
    access = body.access_token
    return access
  }
}
