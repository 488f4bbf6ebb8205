import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import {
  startDirectorySite,
  type DirectorySite,
  type RecordedRequest,
} from '../../fixtures/sites/directory'

export type ApiHook = (req: RecordedRequest) => void | Promise<void>

export interface Harness {
  /** The core's data dir (a fresh temp dir holding `sitecall.db`). */
  home: string
  core: Core
  /** `http://127.0.0.1:PORT` of the core's local service. */
  base: string
  site: DirectorySite
  /** A personal `svc_live_…` key of the local workspace. */
  key: string
  keyId: string
  /** Sets (or with null clears) what the site awaits before answering each /api/* request. */
  setApiHook(hook: ApiHook | null): void
  /** Closes the site, then the core, then removes the data dir. */
  close(): Promise<void>
}

/**
 * Starts a real core (real SQLite file in a temp dir, port 0, a vault that never asks the OS
 * keychain: `saveTestLogin` unlocks it with a passphrase) and the directory fixture site.
 */
export async function startHarness(): Promise<Harness> {
  let hook: ApiHook | null = null
  const home = mkdtempSync(join(tmpdir(), 'sitecall-api-'))
  const site = await startDirectorySite({ onApiRequest: (req) => hook?.(req) })
  const core = createCore({ home, port: 0, rendererDir: null, keychain: null })
  const base = await core.listen()
  const { key, record } = core.store.keys.create(
    { id: 'key_harness', tenant: LOCAL_TENANT, label: 'harness' },
    Date.now(),
  )
  // The fixture sites are the owner's local apps: allowed for API URLs, as a person would in the
  // app's settings (issue 13 item 3; the private-network tests take it back).
  core.store.localSites.add(LOCAL_TENANT, '127.0.0.1', Date.now())
  return {
    home,
    core,
    base,
    site,
    key,
    keyId: record.id,
    setApiHook: (next) => {
      hook = next
    },
    async close() {
      hook = null
      await site.close()
      await core.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/** A promise the test settles by hand: holds a site request until the test says so. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}
