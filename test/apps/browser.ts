/** The browsers of the corpus scripts: Debian's Chromium driven by playwright-core. */
import { chromium, type Browser } from 'playwright-core'
import { chromiumArgs, requireChromium } from '../../src/main/recorder/chromium'

/** Launches a headless Chromium with the flags this closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: requireChromium(),
    args: chromiumArgs(),
    headless: true,
  })
}
