import type { StorageState } from '../../shared/trace'
import { safeUrl } from '../../shared/safeJson'

/**
 * The part of a browser storage state that belongs to one site (`host[:port]`): cookies whose
 * domain matches the host (RFC 6265 §5.1.3 domain matching; ports do not separate cookies) and
 * the localStorage of the site's own origins. Null when the site kept nothing.
 */
export function siteStorageState(
  state: StorageState | null,
  siteHost: string,
): StorageState | null {
  if (!state) return null
  const hostname = siteHost.replace(/:\d+$/, '').replace(/^\[|\]$/g, '')
  const cookies = state.cookies.filter((c) => {
    const domain = c.domain.replace(/^\./, '')
    return hostname === domain || hostname.endsWith(`.${domain}`)
  })
  const origins = state.origins.filter((o) => safeUrl(o.origin)?.host === siteHost)
  return cookies.length || origins.length ? { cookies, origins } : null
}
