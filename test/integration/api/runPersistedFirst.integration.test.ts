import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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

type RunRow = { id: string; status: string; billed: number }

/** What another process would read from the data dir's SQLite file at this moment. */
function readRunsFromDisk(home: string): RunRow[] {
  const db = new Database(join(home, 'sitecall.db'), { readonly: true, fileMustExist: true })
  try {
    return db.prepare('SELECT id, status, billed FROM runs').all() as RunRow[]
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
      [{ id: answer.body.runId, status: expect.stringMatching(/^(working|accepted)$/), billed: 0 }],
    ])
    // And the final state reached the file as well.
    expect(readRunsFromDisk(h.home)).toEqual([
      { id: answer.body.runId, status: 'succeeded', billed: 1 },
    ])
  })
})
