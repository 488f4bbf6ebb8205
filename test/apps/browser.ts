/** The browsers of the corpus scripts: Debian's Chromium driven by playwright-core. */
import { chromium, type Browser } from 'playwright-core'
import type { StorageState } from '../../src/shared/trace'
import { chromiumArgs, requireChromium } from '../../src/main/recorder/chromium'

/** Launches a headless Chromium with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: requireChromium(),
    args: chromiumArgs(),
    headless: true,
  })
}

/**
 * A saved storage state as Playwright's `storageState` option wants it: every cookie flag present
 * (a saved login may leave `httpOnly`, `secure` or `sameSite` out).
 */
export function playwrightState(state: StorageState) {
  return {
    origins: state.origins,
    cookies: state.cookies.map((c) => ({
      ...c,
      httpOnly: c.httpOnly ?? false,
      secure: c.secure ?? false,
      sameSite: c.sameSite ?? ('Lax' as const),
    })),
  }
}
