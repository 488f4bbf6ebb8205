// How the router orders tools of equal score (issue 10; router.ts `byRank`).
import { describe, expect, it } from 'vitest'
import { createToolRouter } from '../../../src/main/router/router'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { fileTool } from './fileTool'

/** A Filebox tool moved to its own host, so two tools are of two sites. */
function onHost(id: string, intent: string, host: string): ToolSpec {
  return { ...fileTool(id, intent, true), siteHost: host, capabilityId: `${host}/${id}` }
}

describe('router ranking', () => {
  it('puts first, at equal scores, the tool whose own head noun is the intent’s head', () => {
    const page = onHost('page46', 'change the status page a.txt', 'a.example')
    const status = onHost('status46', 'change the status of a.txt', 'b.example')
    const ranked = createToolRouter().rank('change status of #6 to Feedback', [page, status])
    expect(ranked.map((m) => [m.id, m.score])).toEqual([
      ['status46', 1],
      ['page46', 1],
    ])
  })
})
