import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'
import { ServiceError } from '../../shared/errors'
import type { StorageState } from '../../shared/trace'
import { chromiumArgs, storedCookies } from '../recorder'
import { siteStorageState } from './siteLogin'

/** A browser of one sign-in: a fresh profile, removed when it closes. */
export interface SignInBrowser {
  context: BrowserContext
  /** Closes the browser and deletes its profile; safe to call twice. */
  close(): Promise<void>
}

/** Headless on Linux without a display (servers, CI), headed elsewhere, like the recorder. */
export const defaultSignInHeadless = () =>
  process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']

/**
 * Launches Chromium for a sign-in with the recorder's flags and a fresh user-data dir, so no
 * other profile's cookies mix into the login. `proxy`: the guard proxy every request connects
 * through (the engine's `GuardProxy.settingsFor`). Errors: 500
 * `recording_failed` when it cannot start.
 */
export async function launchSignInBrowser(
  chromiumPath: string,
  headless: boolean,
  proxy?: { server: string; username: string; password: string },
): Promise<SignInBrowser> {
  const dir = await mkdtemp(join(tmpdir(), 'sitecall-signin-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(dir, {
      executablePath: chromiumPath,
      headless,
      args: chromiumArgs(),
      ...(headless ? {} : { viewport: null }),
      ...(proxy ? { proxy } : {}),
    })
  } catch (error) {
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(
      () => undefined,
    )
    throw new ServiceError(
      'recording_failed',
      `Could not launch Chromium at ${chromiumPath} for the sign-in: ${(error as Error).message}`,
    )
  }
  let closing: Promise<void> | null = null
  return {
    context,
    close: () =>
      (closing ??= context
        .close()
        .catch(() => undefined)
        .then(() =>
          rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(
            () => undefined,
          ),
        )),
  }
}

/**
 * The site's part of the browser's storage state: its cookies and the localStorage of its open
 * pages (read in the pages rather than by `context.storageState()`, which opens a hidden page
 * per origin). Null when the site kept nothing or the browser is gone.
 */
export async function siteStateOf(
  context: BrowserContext,
  siteHost: string,
): Promise<StorageState | null> {
  try {
    const cookies = storedCookies(await context.cookies())
    const origins: StorageState['origins'] = []
    for (const page of context.pages()) {
      const store = (await page
        .evaluate(
          `(() => { try { return { origin: location.origin, items: Object.keys(localStorage).map((k) => ({ name: k, value: String(localStorage.getItem(k)) })) } } catch (e) { return null } })()`,
        )
        .catch(() => null)) as {
        origin: string
        items: StorageState['origins'][0]['localStorage']
      } | null
      if (store?.items.length && !origins.some((o) => o.origin === store.origin))
        origins.push({ origin: store.origin, localStorage: store.items })
    }
    return siteStorageState({ cookies, origins }, siteHost)
  } catch {
    // The browser was closed meanwhile: it kept nothing this flow can still read.
    return null
  }
}
