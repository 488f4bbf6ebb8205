/**
 * Finds the apps of the real-app corpus: every folder of `test/apps/` with an `index.ts` that
 * exports `app` (the contract in `./types.ts`).
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { AppDefinition } from './types'

/** `test/apps/` */
export const APPS_DIR = fileURLToPath(new URL('.', import.meta.url))
/** `test/fixtures/apps/`: the recorded traces and HARs, one folder per app. */
export const APP_FIXTURES_DIR = fileURLToPath(new URL('../fixtures/apps/', import.meta.url))

/** Names of the app folders, sorted. */
export function appNames(): string[] {
  return readdirSync(APPS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(APPS_DIR, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort()
}

/**
 * Loads the apps named (all when `names` is empty). Throws naming the folder when one has no
 * `app` export or names itself differently from its folder.
 */
export async function loadApps(names: string[] = []): Promise<AppDefinition[]> {
  const wanted = names.length ? names : appNames()
  const apps: AppDefinition[] = []
  for (const name of wanted) {
    const file = join(APPS_DIR, name, 'index.ts')
    if (!existsSync(file)) throw new Error(`test/apps/${name}/index.ts does not exist`)
    const mod = (await import(pathToFileURL(file).href)) as { app?: AppDefinition }
    if (!mod.app) throw new Error(`test/apps/${name}/index.ts exports no "app"`)
    if (mod.app.name !== name)
      throw new Error(`test/apps/${name} names itself "${mod.app.name}" (must match its folder)`)
    apps.push(mod.app)
  }
  return apps
}
