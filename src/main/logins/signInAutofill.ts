import type { Page } from 'playwright-core'
import { ServiceError } from '../../shared/errors'
import type { SiteLogins } from './siteLogins'
import { totpCode } from './signInAuto'
import { fillLoginForm, findLoginFields } from './signInForm'

export interface LoginAutofillDeps {
  logins: Pick<SiteLogins, 'credentials'>
  /** A one-time sign-in link for the site (interface.md "Logins": carried by `credential_required`). */
  mintSignInLink: (tenant: string, siteHost: string, startUrl: string) => string
  /** Milliseconds since the Unix epoch (the TOTP time step). */
  clock: () => number
}

/**
 * Creates the browse-session autofill (interface.md "Logins"): fills and submits the login form
 * of the session's page with the site's saved username and password, and the one-time code of a
 * saved TOTP seed when the site asks one (without a seed the code field is left to the caller).
 * Errors: 422 `no_login_form` when no password or one-time-code field is visible; 412
 * `credential_required` with a one-time `url` when no username and password are saved; 503
 * `unavailable` when the vault is locked.
 */
export function createLoginAutofill(
  deps: LoginAutofillDeps,
): (tenant: string, page: Page) => Promise<void> {
  return async (tenant, page) => {
    const fields = await findLoginFields(page)
    if (!fields.password && !fields.otp)
      throw new ServiceError(
        'no_login_form',
        'No login fields are visible: go to the sign-in page first.',
      )
    const pageUrl = page.url()
    const host = new URL(pageUrl).host
    const credentials = await deps.logins.credentials(tenant, host)
    if (!credentials)
      throw new ServiceError(
        'credential_required',
        `No login with a password is saved for ${host}: open the url to sign in and save it, then call again.`,
        { url: deps.mintSignInLink(tenant, host, pageUrl) },
      )
    const seed = credentials.totpSeed
    await fillLoginForm(page, {
      username: credentials.username,
      password: credentials.password,
      totp: seed ? () => totpCode(seed, deps.clock()) : null,
    })
  }
}
