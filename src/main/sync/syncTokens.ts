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
 * The access token of each link in this process, shared by every bearer of it (a sync and the
 * device loop, `deviceAgent.ts`): refresh tokens rotate and the server revokes a grant whose
 * used refresh token comes back, so two bearers must never trade the same one at once.
 */
const sharedAccess = new Map<
  string,
  { access: string | null; refreshing: Promise<string> | null }
>()

/**
 * The bearer of a link's requests (`SyncServerOptions.bearer`). An owner-token link sends its
 * token. An OAuth link trades its refresh token for an access token at the server's
 * `/oauth/token` (RFC 6749 §6) on first use and when `renew` asks, and keeps the rotated
 * refresh token the server answers (a refresh token works once) where the old one was. Bearers
 * of one link in this process share the access token and one refresh at a time.
 */
export function createBearer(
  place: TokenPlace,
  local: SyncLocal,
  link: SyncLink,
  doFetch: typeof fetch = fetch,
): (renew: boolean) => Promise<string> {
  const key = `${link.serverUrl} ${link.tenant} ${link.linkedAt}`
  let given: string | null = null
  const refresh = async (): Promise<string> => {
    const refreshToken = await readToken(place, link)
    const res = await doFetch(`${link.serverUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
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
    return body.access_token
  }
  return async (renew) => {
    if (link.auth === 'token') return readToken(place, link)
    let entry = sharedAccess.get(key)
    if (!entry) sharedAccess.set(key, (entry = { access: null, refreshing: null }))
    // Another bearer renewed since this one's token was refused: take its token.
    const fresh = entry.access && (!renew || entry.access !== given) ? entry.access : null
    if (fresh && !entry.refreshing) return (given = fresh)
    const shared = entry
    shared.refreshing ??= refresh()
      .then((access) => (shared.access = access))
      .finally(() => (shared.refreshing = null))
    return (given = await shared.refreshing)
  }
}
