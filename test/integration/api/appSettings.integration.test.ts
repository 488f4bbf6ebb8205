// Issue 14 item 6: settings edited in the app are checked, written to settings.json and applied
// without a restart (a real core, a real SQLite file, a clock the test moves).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { isServiceError } from '../../../src/shared/errors'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { callTool } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

const DAY = 24 * 60 * 60_000
let home: string
let site: DirectorySite
let core: Core
let base: string
let tool: ToolSpec
let now: number

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-settings-'))
  now = Date.parse('2026-01-01T00:00:00Z')
  site = await startDirectorySite()
  core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    clock: () => now,
    resultSweepMs: DAY,
    env: { SITECALL_KEYCHAIN: 'off' },
  })
  base = await core.listen()
  tool = (await makeSearchTool(core, site)).tool
})

afterEach(async () => {
  await site.close()
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

const settingsFile = () => JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as unknown
const refusal = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => (isServiceError(error) ? `${error.code}: ${error.message}` : String(error)),
  )

describe('settings.update', () => {
  it('applies a shorter result retention at once: a 10-day-old result is dropped', async () => {
    const key = core.store.keys.create({ id: 'key_t', tenant: LOCAL_TENANT, label: 't' }, now).key
    const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
    const old = (await callTool(base, key, tool, { [query]: 'image' })).body as { runId: string }
    now += 10 * DAY
    const result = () =>
      core.store.db.prepare('SELECT result_codec AS codec FROM runs WHERE id = ?').get(old.runId)
    expect(result()).not.toEqual({ codec: null })
    const saved = await core.handlers['settings.update']({
      resultRetention: { days: 7, maxMB: 64 },
    })
    expect(saved.resultRetention).toEqual({ days: 7, maxMB: 64 })
    expect(settingsFile()).toEqual({ resultRetention: { days: 7, maxMB: 64 } })
    expect(result()).toEqual({ codec: null })
  })

  it('refuses bad values with invalid_input naming the field, and saves nothing', async () => {
    for (const resultRetention of [
      { days: 0, maxMB: 10 },
      { days: 2.5, maxMB: 10 },
      { days: 7, maxMB: 2_000_000 },
    ])
      expect(await refusal(core.handlers['settings.update']({ resultRetention }))).toMatch(
        /^invalid_input: Result retention (days|size \(MB\)) must be a whole number/,
      )
    expect(await refusal(core.handlers['settings.update']({ chromiumPath: 'chromium' }))).toMatch(
      /invalid_input: .*full path/,
    )
    expect(
      await refusal(core.handlers['settings.update']({ chromiumPath: join(home, 'none') })),
    ).toMatch(/no file exists there/)
    expect(await refusal(core.handlers['settings.update']({ chromiumPath: home }))).toMatch(
      /a folder/,
    )
    expect(
      await refusal(core.handlers['settings.update']({ chromiumPath: join(home, 'sitecall.db') })),
    ).toMatch(/not executable/)
    expect(() => readFileSync(join(home, 'settings.json'))).toThrow()
  })

  it('saves a Chromium path the next browser start uses, and clears it with null', async () => {
    const saved = await core.handlers['settings.update']({ chromiumPath: '/usr/bin/chromium' })
    expect(saved.chromiumPath).toBe('/usr/bin/chromium')
    expect(saved.chromium).toMatchObject({ path: '/usr/bin/chromium', source: 'setting' })
    expect(settingsFile()).toEqual({ chromiumPath: '/usr/bin/chromium' })
    expect((await core.handlers['settings.get']({})).chromiumPath).toBe('/usr/bin/chromium')
    const cleared = await core.handlers['settings.update']({ chromiumPath: null })
    expect(cleared.chromiumPath).toBeNull()
    expect(settingsFile()).toEqual({})
  })
})
