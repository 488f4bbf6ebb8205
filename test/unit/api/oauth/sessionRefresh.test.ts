import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createCore, type Core } from '../../../../src/main/core'
import { keepSessionFresh } from '../../../../src/renderer/api'

let core: Core | null = null
let home = ''

afterEach(async () => {
  await core?.close()
  rmSync(home, { recursive: true, force: true })
})

it("trades the web UI's owner token for a fresh, working one at once", async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-session-'))
  core = createCore({ home, port: 0, rendererDir: null, keychain: null })
  const base = await core.listen()
  const session = { token: core.ownerToken as string | null }
  const saved: string[] = []
  const stop = keepSessionFresh(fetch, session, { baseUrl: base, save: (t) => saved.push(t) })
  // The trade is one HTTP round trip; poll's 1 s default is too short on a loaded 2-core runner.
  await expect.poll(() => saved.length, { timeout: 20_000 }).toBe(1)
  stop()
  expect(session.token).toBe(saved[0])
  expect(session.token).not.toBe(core.ownerToken)
  expect(core.ownerTokens.isValid(session.token!)).toBe(true)
})
