// Issue 12 "Results that do not grow forever" and "store the result once as the bytes received":
// a real core (real SQLite file, real HTTP) with a clock the test moves.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { retentionFrom } from '../../../src/main/engine/resultRetention'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { callTool, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

const DAY = 24 * 60 * 60_000
let home: string
let site: DirectorySite
let core: Core
let base: string
let key: string
let tool: ToolSpec
let now: number

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-retention-'))
  now = Date.parse('2026-01-01T00:00:00Z')
  site = await startDirectorySite()
  core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    clock: () => now,
    // The test applies the rule itself; the background sweep only runs at listen.
    resultSweepMs: 24 * 60 * 60_000,
  })
  base = await core.listen()
  key = core.store.keys.create({ id: 'key_t', tenant: LOCAL_TENANT, label: 't' }, now).key
  tool = (await makeSearchTool(core, site)).tool
})

afterEach(async () => {
  await site.close()
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

const query = () => Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!

async function run(words: string): Promise<Run> {
  const answer = await callTool<Run>(base, key, tool, { [query()]: words })
  expect(answer.body.status).toBe('succeeded')
  return answer.body
}

const stored = (runId: string) =>
  core.store.db
    .prepare('SELECT result_codec AS codec, result_bytes AS bytes FROM runs WHERE id = ?')
    .get(runId) as { codec: string | null; bytes: number | null }

describe('run results', () => {
  it('stores a large answer once, compressed, and answers the same result from it later', async () => {
    const first = await run('writing')
    const text = JSON.stringify(first.result)
    expect(text.length).toBeGreaterThan(60_000)
    const row = stored(first.runId)
    expect(row.codec).toBe('br')
    expect(row.bytes).toBeLessThan(text.length / 4)
    const polled = await send<Run>(base, 'GET', `/api/v1/runs/${first.runId}`, { key })
    expect(polled.status).toBe(200)
    expect(polled.body).toEqual(first)
  })

  it('drops results past their age: the run stays and its poll answers 410 result_expired', async () => {
    const old = await run('image')
    now += 31 * DAY
    const fresh = await run('video')
    const dropped = core.store.runs.expireResults(retentionFrom(undefined), now)
    expect(dropped.runs).toBe(1)
    expect(stored(old.runId)).toEqual({ codec: null, bytes: null })
    const polled = await send<ErrorAnswerBody>(base, 'GET', `/api/v1/runs/${old.runId}`, { key })
    expect(polled.status).toBe(410)
    expect(polled.body.error).toMatchObject({
      code: 'result_expired',
      runId: old.runId,
      status: 'succeeded',
      resultExpiredAt: new Date(now).toISOString(),
    })
    expect(core.store.runs.get(old.runId)).toMatchObject({ status: 'succeeded', billed: true })
    const kept = await send<Run>(base, 'GET', `/api/v1/runs/${fresh.runId}`, { key })
    expect(kept.status).toBe(200)
    expect(kept.body.result).toEqual(fresh.result)
  })

  it('keeps the newest results within the size limit, dropping the oldest first', async () => {
    const runs: Run[] = []
    for (const words of ['writing', 'image', 'code']) {
      runs.push(await run(words))
      now += 1000
    }
    const newest = stored(runs[2]!.runId).bytes!
    const before = core.store.runs.storedResults()
    expect(before.runs).toBe(3)
    core.store.runs.expireResults({ maxAgeMs: 365 * DAY, maxBytes: newest }, now)
    expect(runs.map((r) => stored(r.runId).bytes !== null)).toEqual([false, false, true])
    expect(core.store.runs.storedResults()).toEqual({ runs: 1, bytes: newest })
  })

  it('reads the retention setting in days and MB, refusing values that are not positive', () => {
    expect(retentionFrom(undefined)).toEqual({ maxAgeMs: 30 * DAY, maxBytes: 1024 ** 3 })
    expect(retentionFrom({ days: 7, maxMB: 10 })).toEqual({
      maxAgeMs: 7 * DAY,
      maxBytes: 10 * 1024 ** 2,
    })
    expect(() => retentionFrom({ days: 0 })).toThrow('resultRetention.days')
    expect(() => retentionFrom({ maxMB: Number.NaN })).toThrow('resultRetention.maxMB')
  })
})
