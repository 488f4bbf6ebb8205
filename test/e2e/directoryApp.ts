import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { createCore, type Core } from '../../src/main/core'
import { startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The built web UI the core serves at `/app/`. */
const rendererDir = join(root, 'out/renderer')
/** Where e2e specs save their screenshots (`test-results/`, looked at by hand). */
export const SHOTS = join(root, 'test-results')

/** A headless core with the built UI, in a fresh home (no keychain: the vault starts locked). */
export interface CoreApp {
  home: string
  core: Core
  /** The core's base URL, `http://127.0.0.1:<port>`. */
  base: string
}

/** A {@link CoreApp} beside the directory fixture site. */
export interface DirectoryApp extends CoreApp {
  site: DirectorySite
}

/** Starts a {@link CoreApp}; `label` names its temp home (`sitecall-<label>-e2e-`). */
export async function startCoreApp(label: string): Promise<CoreApp> {
  expect(existsSync(join(rendererDir, 'index.html')), 'run `npm run build:renderer` first').toBe(
    true,
  )
  const home = mkdtempSync(join(tmpdir(), `sitecall-${label}-e2e-`))
  const core = createCore({ home, port: 0, headless: true, rendererDir, keychain: null })
  return { home, core, base: await core.listen() }
}

/** Starts a {@link DirectoryApp}: the directory site, then the core. */
export async function startDirectoryApp(label: string): Promise<DirectoryApp> {
  const site = await startDirectorySite()
  return { ...(await startCoreApp(label)), site }
}

/**
 * Stops it: the page first (the UI's event stream holds a connection open, and the server's
 * close waits for it), then the core and the site if there is one; the home is removed.
 */
export async function stopApp(app: CoreApp & { site?: DirectorySite }, page: Page): Promise<void> {
  await page.close()
  await app.core.close()
  await app.site?.close()
  rmSync(app.home, { recursive: true, force: true })
}

/**
 * Gives each test of the calling spec file a fresh {@link CoreApp}: started before the test and
 * handed to `take` (which keeps its parts in the interface's variables, and may set up more), stopped
 * after it with {@link stopApp}. Call at the interface's top level.
 */
export function coreAppEachTest(label: string, take: (app: CoreApp) => unknown): void {
  eachTest(() => startCoreApp(label), take)
}

/** {@link coreAppEachTest} with the directory fixture site beside the core. */
export function directoryAppEachTest(label: string, take: (app: DirectoryApp) => unknown): void {
  eachTest(() => startDirectoryApp(label), take)
}

function eachTest<A extends CoreApp>(start: () => Promise<A>, take: (app: A) => unknown): void {
  let app: A | null = null
  test.beforeEach(async () => {
    app = await start()
    await take(app)
  })
  test.afterEach(async ({ page }) => {
    if (app) await stopApp(app, page)
    app = null
  })
}

/** The page of the core's current recording, once one has started. */
export async function recordedPage(core: Core): Promise<Page> {
  await expect.poll(() => core.recordings.current()?.sessionId ?? null).not.toBeNull()
  return core.recordings.recording(core.recordings.current()!.sessionId)!.page
}
