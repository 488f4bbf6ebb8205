import type { Exchange, StorageState } from '../../shared/trace'
import { withoutUserinfo } from '../../shared/httpChallenge'
import { safeJson } from '../../shared/safeJson'

/**
 * Seals and opens bytes under the vault (the vault's `SyncSealer`); the store
 * names only this shape so it needs no vault import.
 */
export interface CredentialSealer {
  seal(plaintext: Buffer): Buffer
  open(envelope: Buffer): Buffer | null
}

/** The vault purpose trace credentials are sealed under (one data key per workspace). */
export const TRACE_CREDENTIALS = 'trace-credentials'

/** Headers that carry a login: their values are sealed at rest (RFC 6265 §5.4, RFC 9110 §11). */
const CREDENTIAL_HEADERS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization'])

/** A sealed value as stored: the prefix, then the base64url envelope. */
const SEALED = 'sitecall-sealed.'
/** What stays where a credential was recorded while no vault was open: the value is gone. */
export const WITHHELD = 'sitecall-withheld'

const sealText = (text: string, sealer: CredentialSealer | null) =>
  sealer ? `${SEALED}${sealer.seal(Buffer.from(text, 'utf8')).toString('base64url')}` : WITHHELD

/** The original of a stored value, or the stored text when it is no sealed one or cannot open. */
const openText = (stored: string, sealer: CredentialSealer | null): string => {
  if (!stored.startsWith(SEALED)) return stored
  const plain = sealer?.open(Buffer.from(stored.slice(SEALED.length), 'base64url')) ?? null
  return plain ? plain.toString('utf8') : WITHHELD
}

/**
 * An exchange as it is stored: the values of `CREDENTIAL_HEADERS` and a URL's
 * userinfo (`http://user:pass@host/`) sealed with `sealer`, or replaced by `WITHHELD` when no
 * vault is open (null). Everything else is kept as recorded.
 */
export function sealExchange(exchange: Exchange, sealer: CredentialSealer | null): Exchange {
  return mapCredentialFields(
    exchange,
    (url) => sealUserinfo(url, sealer),
    (value) => sealText(value, sealer),
  )
}

/** The recorded exchange back from its stored form; values that cannot open stay `WITHHELD`. */
export function openExchange(exchange: Exchange, sealer: CredentialSealer | null): Exchange {
  return mapCredentialFields(
    exchange,
    (url) => openUserinfo(url, sealer),
    (value) => openText(value, sealer),
  )
}

/** A trace's storage state as stored: sealed JSON, or null (dropped) without a vault. */
export function sealStorageState(
  state: StorageState | null,
  sealer: CredentialSealer | null,
): string | null {
  if (!state) return null
  return sealer ? sealText(JSON.stringify(state), sealer) : null
}

/** The storage state back; null when it was dropped or does not open. */
export function openStorageState(
  stored: string | null,
  sealer: CredentialSealer | null,
): StorageState | null {
  if (stored === null) return null
  // Rows written before sealing hold the JSON itself.
  const text = stored.startsWith(SEALED) ? openText(stored, sealer) : stored
  if (text === WITHHELD) return null
  return (safeJson(text) as StorageState | null | undefined) ?? null
}

/**
 * The exchange with `url` applied to its URLs (userinfo) and `value` to the values of its
 * `CREDENTIAL_HEADERS`: every field of an exchange that can hold a credential.
 */
function mapCredentialFields(
  exchange: Exchange,
  url: (url: string) => string,
  value: (value: string) => string,
): Exchange {
  return {
    ...exchange,
    url: url(exchange.url),
    pageUrl: url(exchange.pageUrl),
    requestHeaders: mapCredentials(exchange.requestHeaders, value),
    responseHeaders: mapCredentials(exchange.responseHeaders, value),
  }
}

function mapCredentials(
  headers: Record<string, string>,
  map: (value: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    out[name] = CREDENTIAL_HEADERS.has(name.toLowerCase()) ? map(value) : value
  return out
}

/** A URL with its userinfo sealed (or withheld); see `sealExchange`. */
export function sealUserinfo(url: string, sealer: CredentialSealer | null): string {
  if (!URL.canParse(url)) return url
  const parsed = new URL(url)
  if (!parsed.username && !parsed.password) return url
  parsed.username = sealText(`${parsed.username}:${parsed.password}`, sealer)
  parsed.password = ''
  return parsed.href
}

/** A URL's sealed userinfo opened; see `openExchange`. */
export function openUserinfo(url: string, sealer: CredentialSealer | null): string {
  if (!URL.canParse(url)) return url
  const parsed = new URL(url)
  if (!parsed.username.startsWith(SEALED)) return url
  const userinfo = openText(parsed.username, sealer)
  if (userinfo === WITHHELD) {
    parsed.username = WITHHELD
    return parsed.href
  }
  const colon = userinfo.indexOf(':')
  parsed.username = userinfo.slice(0, colon)
  parsed.password = userinfo.slice(colon + 1)
  return parsed.href
}

/** What an exported or displayed credential header says instead of its value. */
export const LEFT_OUT = 'sitecall-left-out'

/**
 * A trace without its credentials, for a default `export-har` and the UI:
 * the values of `CREDENTIAL_HEADERS` become `LEFT_OUT` (the header stays, so the request's shape
 * still shows), URL userinfo is removed, the storage state is dropped.
 */
export function withoutCredentials<
  T extends { exchanges: Exchange[]; storageState: StorageState | null },
>(trace: T): T {
  return {
    ...trace,
    storageState: null,
    exchanges: trace.exchanges.map((e) => exchangeWithoutCredentials(e)),
  }
}

/** One exchange without its credentials; see `withoutCredentials`. */
export function exchangeWithoutCredentials(exchange: Exchange): Exchange {
  return mapCredentialFields(exchange, withoutUserinfo, () => LEFT_OUT)
}
