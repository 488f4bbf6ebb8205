import { generate } from 'otplib'
import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { SiteLogins } from './siteLogins'
import { launchSignInBrowser, siteStateOf } from './signInBrowser'
import { fillLoginForm } from './signInForm'

export interface AutoSignInDeps {
  logins: Pick<SiteLogins, 'credentials' | 'save' | 'get'>
  /** The Chromium to launch (throws `chromium_not_found` when none). */
  chromiumPath: () => string
  /** Milliseconds since the Unix epoch: the TOTP time step is read from it. */
  clock: () => number
  /** How long the sign-in page may take to load, ms; default 30,000 (interface.md "Limits"). */
  loadMs?: number
  /**
   * The guard proxy settings for a browser signing in to `siteHost` (the
   * unattended browser types saved credentials, so its redirects and requests meet the tool's
   * address rule, checked where it connects); `release` when it is closed. Absent: none.
   */
  guardFor?: (
    siteHost: string,
  ) => Promise<{ proxy: { server: string; username: string; password: string }; release(): void }>
}

/** The current TOTP code of a Base32 seed (RFC 6238: SHA-1, 6 digits, 30-second steps). */
export const totpCode = (seed: string, nowMs: number): Promise<string> =>
  generate({ secret: seed, epoch: Math.floor(nowMs / 1000) })

/** Where an automatic sign-in starts: the page the person typed the password on, else the site. */
function startUrl(loginUrl: string | null, tool: ToolSpec): string {
  if (loginUrl) return loginUrl
  return `${new URL(tool.steps[0]!.request.url).origin}/`
}

/**
 * Creates the engine's `relogin` hook: with
 * a saved username and password it signs in again by itself in a headless browser — fills the
 * login form, and the one-time-code form with the TOTP code of a saved seed — saves the new
 * storage state, and resolves true so the run is retried once. Resolves false when no
 * credentials are saved, the page shows no login form or the site refuses them. Rejects with 401
 * `mfa_required` when a second factor is asked and no seed is saved. Sign-ins of one site share
 * one attempt, so runs that expire together do not sign in many times.
 */
export function createAutoSignIn(
  deps: AutoSignInDeps,
): (tenant: string, tool: ToolSpec) => Promise<boolean> {
  const running = new Map<string, Promise<boolean>>()

  async function signIn(tenant: string, tool: ToolSpec): Promise<boolean> {
    const credentials = await deps.logins.credentials(tenant, tool.siteHost)
    if (!credentials) return false
    const guarded = await deps.guardFor?.(tool.siteHost)
    const browser = await launchSignInBrowser(deps.chromiumPath(), true, guarded?.proxy).catch(
      (error: unknown) => {
        guarded?.release()
        throw error
      },
    )
    try {
      const page = await browser.context.newPage()
      const url = startUrl(deps.logins.get(tenant, tool.siteHost)?.loginUrl ?? null, tool)
      await page.goto(url, { waitUntil: 'load', timeout: deps.loadMs ?? 30_000 })
      const seed = credentials.totpSeed
      const outcome = await fillLoginForm(page, {
        username: credentials.username,
        password: credentials.password,
        totp: seed ? () => totpCode(seed, deps.clock()) : null,
      })
      if (outcome === 'mfa_required')
        throw new ServiceError(
          'mfa_required',
          `${tool.siteHost} asked a one-time code after the saved password and no TOTP seed is saved: sign in again and save the seed for unattended use.`,
        )
      if (outcome !== 'signed_in') return false
      const state = await siteStateOf(browser.context, tool.siteHost)
      if (!state) return false
      await deps.logins.save(tenant, tool.siteHost, state)
      return true
    } finally {
      await browser.close()
      guarded?.release()
    }
  }

  return (tenant, tool) => {
    const key = `${tenant}\u0000${tool.siteHost}`
    const current = running.get(key)
    if (current) return current
    const attempt = signIn(tenant, tool).finally(() => running.delete(key))
    running.set(key, attempt)
    return attempt
  }
}
