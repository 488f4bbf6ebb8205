import type { Cookie } from 'playwright-core'
import type { StorageState } from '../../shared/trace'

/**
 * A browser context's cookies as a trace's or a login's storage state keeps them: Playwright's
 * `storageState` cookie fields (`expires` in seconds since the epoch, -1 for a session cookie),
 * nothing else of what `context.cookies()` may carry (such as `partitionKey`).
 */
export function storedCookies(cookies: Cookie[]): StorageState['cookies'] {
  return cookies.map((c) => ({
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite: c.sameSite,
  }))
}
