import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, type Page } from '@playwright/test'
import { createCore, type Core } from '../../src/main/core'
import { startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The built web UI the core serves at `/app/`. */
export const rendererDir = join(root, 'out/renderer')

/** A headless core with the built UI beside the directory fixture site, in a fresh home. */
export interface DirectoryApp {
  home: string
  site: DirectorySite
  core: Core
  /** The core's base URL, `http://127.0.0.1:<port>`. */
  base: string
}

/** Starts a {@link DirectoryApp}; `label` names its temp home (`sitecall-<label>-e2e-`). */
export async function startDirectoryApp(label: string): Promise<DirectoryApp> {
  expect(existsSync(join(rendererDir, 'index.html')), 'run `npm run build:renderer` first').toBe(
    true,
  )
  const home = mkdtempSync(join(tmpdir(), `sitecall-${label}-e2e-`))
  const site = await startDirectorySite()
  const core = createCore({ home, port: 0, headless: true, rendererDir, keychain: null })
  return { home, site, core, base: await core.listen() }
}

/**
 * Stops it: the page first (the UI's event stream holds a connection open, and the server's
 * close waits for it), then the core and the site; the home is removed.
 */
export async function stopDirectoryApp(app: DirectoryApp, page: Page): Promise<void> {
  await page.close()
  await app.core.close()
  await app.site.close()
  rmSync(app.home, { recursive: true, force: true })
}
