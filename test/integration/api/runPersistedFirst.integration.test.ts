import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT } from '../../../src/main/core'
import { sendWithUndici } from '../../../src/main/engine/httpExecutor'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, searchRequests } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

let h: Harness
let tool: ToolSpec

beforeEach(async () => {
  h = await startHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
})

afterEach(async () => {
  await h.close()
})

type RunRow = { id: string; status: string; billed: number; inputs?: string }

/** What another process would read from the data dir's SQLite file at this moment. */
function readRunsFromDisk(home: string): RunRow[] {
  const db = new Database(join(home, 'sitecall.db'), { readonly: true, fileMustExist: true })
  try {
    return db.prepare('SELECT id, status, billed, inputs FROM runs').all() as RunRow[]
  } finally {
    db.close()
  }
}

describe('run persistence', () => {
  it('has the run committed, working and unbilled, before the site sees its request', async () => {
    const seenBySite: RunRow[][] = []
    h.setApiHook(() => {
      seenBySite.push(readRunsFromDisk(h.home))
    })
    const answer = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    expect(answer.status).toBe(200)
    expect(answer.body.status).toBe('succeeded')
    expect(searchRequests(h.site)).toHaveLength(2)
    expect(seenBySite).toEqual([
      [
        {
          id: answer.body.runId,
          status: expect.stringMatching(/^(working|accepted)$/),
          billed: 0,
          inputs: expect.any(String),
        },
      ],
    ])
    // And the final state reached the file as well.
    expect(readRunsFromDisk(h.home)).toEqual([
      { id: answer.body.runId, status: 'succeeded', billed: 1, inputs: expect.any(String) },
    ])
  })

  it('has each of 16 runs started together on disk before its request is sent', async () => {
    // The check sits where the engine sends (the executor's `send`), not at the site: a request
    // handed to the network before its run's commit must fail here even when the commit would
    // still reach the disk before the site read the request.
    const home = mkdtempSync(join(tmpdir(), 'sitecall-persisted-'))
    const unsent: string[] = []
    const core = createCore({
      home,
      port: 0,
      rendererDir: null,
      keychain: null,
      send: (req, signal) => {
        const query = (JSON.parse(req.body ?? '{}') as { query?: string }).query ?? ''
        const onDisk = readRunsFromDisk(home).some(
          (r) => (JSON.parse(r.inputs!) as { query?: string }).query === query,
        )
        if (!onDisk) unsent.push(query)
        return sendWithUndici(req, signal)
      },
    })
    try {
      const base = await core.listen()
      core.store.localSites.add(LOCAL_TENANT, '127.0.0.1', Date.now())
      const { key } = core.store.keys.create(
        { id: 'key_persisted', tenant: LOCAL_TENANT, label: 'persisted' },
        Date.now(),
      )
      const { tool: own } = await makeSearchTool(core, h.site)
      const queries = Array.from({ length: 16 }, (_, i) => `term${i}`)
      const answers = await Promise.all(
        queries.map((query) => callTool<Run>(base, key, own, { query })),
      )
      expect(answers.map((a) => a.body.status)).toEqual(queries.map(() => 'succeeded'))
      expect(unsent).toEqual([])
    } finally {
      await core.close()
      rmSync(home, { recursive: true, force: true })
    }
  })
})
