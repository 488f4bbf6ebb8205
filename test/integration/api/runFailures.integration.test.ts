import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchRecords, startDirectorySite, type Fault } from '../../fixtures/sites/directory'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, searchRequests } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { signInLinkHost } from '../logins/loginHelpers'

let h: Harness
let tool: ToolSpec

beforeEach(async () => {
  h = await startHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
})

afterEach(async () => {
  await h.close()
})

/** A finished run answered 200 with status `failed` and exactly the interface's Run fields. */
function failedRun(code: string, signIn: { url: unknown } | null, message: unknown) {
  return {
    runId: expect.stringMatching(/^lrun_/),
    status: 'failed',
    capabilityId: tool.capabilityId,
    error: { code, message },
    requirements: [],
    via: 'http',
    signIn,
    toolId: tool.id,
    stateRevision: expect.any(Number),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  }
}

const cases: Array<{
  fault: Fault
  code: string
  signIn: boolean
  message?: unknown
}> = [
  { fault: 'unauthorized', code: 'session_or_permission', signIn: true },
  { fault: 'forbidden', code: 'session_or_permission', signIn: true },
  {
    fault: 'rate_limited',
    code: 'rate_limited',
    signIn: false,
    message: expect.stringContaining('7 s'),
  },
  { fault: 'html', code: 'session_or_permission', signIn: true },
  { fault: 'drift', code: 'schema_or_auth_drift', signIn: false },
  { fault: 'empty', code: 'outcome_not_verified', signIn: false },
  { fault: 'not_found', code: 'not_found', signIn: false },
  { fault: 'server_error', code: 'upstream_error', signIn: false },
  { fault: 'reset', code: 'network_error', signIn: false },
]

describe('run failures over surface A', () => {
  it.each(cases)(
    'answers 200 with a failed run $code when the site gives the $fault fault, unbilled',
    async ({ fault, code, signIn, message }) => {
      h.site.setFault(fault)
      const answer = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual(
        failedRun(
          code,
          signIn ? { url: expect.stringContaining(`${h.base}/signin/`) } : null,
          message ?? expect.any(String),
        ),
      )
      // The sign-in link is a one-time link of this service, minted for the tool's site.
      if (signIn) expect(signInLinkHost(h.core, h.base, answer.body.signIn!.url)).toBe(h.site.host)
      expect(answer.body).not.toHaveProperty('result')
      const stored = h.core.store.runs.get(answer.body.runId)!
      expect(stored.status).toBe('failed')
      expect(stored.billed).toBe(false)
    },
  )

  it('retries a read once after the site resets the connection, then fails network_error', async () => {
    h.site.setFault('reset')
    const answer = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    expect(answer.body.error?.code).toBe('network_error')
    // The recording's request, then the first try and its one retry.
    expect(searchRequests(h.site)).toHaveLength(3)
  })

  it('fails network_error, unbilled, when nothing listens on the tool site any more', async () => {
    const gone = await startDirectorySite()
    const { tool: orphan } = await makeSearchTool(h.core, gone)
    await gone.close()
    const answer = await callTool<Run>(h.base, h.key, orphan, { query: 'image' })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'failed',
      error: { code: 'network_error', message: expect.any(String) },
      signIn: null,
      toolId: orphan.id,
    })
    expect(h.core.store.runs.get(answer.body.runId)!.billed).toBe(false)
  })

  it('bills a succeeded run and never a failed one of the same tool', async () => {
    const ok = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    h.site.setFault('server_error')
    const failed = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    expect(ok.body.status).toBe('succeeded')
    expect(ok.body.result).toEqual(
      searchRecords(h.site.records, { query: 'image', verified: false, page: 1, perPage: 12 }),
    )
    expect(failed.body.status).toBe('failed')
    expect(h.core.store.runs.get(ok.body.runId)!.billed).toBe(true)
    expect(h.core.store.runs.get(failed.body.runId)!.billed).toBe(false)
  })
})
