import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { executeHttp, sendWithUndici, type RunContext } from '../../../src/main/engine/httpExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { NOTES, startNotesSite, type NotesSite } from '../../fixtures/sites/notes'
import { traceBuilder } from '../../unit/compiler/traceBuilder'

/** The person's recording of a search on the notes site, the browser answering its challenge. */
function recordedTool(site: NotesSite, authorization: string): ToolSpec {
  const trace = traceBuilder(site.url)
    .exchange('GET', '/', { status: 401, type: 'document', mime: 'text/plain' })
    .fill('basil', { name: 'q', label: 'Search notes' })
    .exchange('GET', '/api/notes?q=basil', {
      response: { query: 'basil', notes: NOTES.slice(0, 2) },
    })
    .build('search my notes')
  trace.exchanges[0]!.responseHeaders['www-authenticate'] = `Basic realm="${site.realm}"`
  trace.exchanges[1]!.requestHeaders.authorization = authorization
  delete trace.exchanges[1]!.requestHeaders.cookie
  const compiled = compileTrace(trace, { toolId: '00000000-0000-4000-8000-0000000000cd', now: 0 })
  if (!compiled.ok) throw new Error(compiled.explanation.reason)
  return compiled.candidate
}

const run = (tool: ToolSpec, context: Partial<RunContext>) => {
  const slot = Object.values(tool.inputs.properties)[0]!['x-slot']
  return executeHttp(
    tool,
    { [`input.${slot}`]: 'lyon' },
    sendWithUndici,
    AbortSignal.timeout(10_000),
    {
      login: { cookies: [], origins: [] },
      ...context,
    },
  )
}

describe.each(['basic', 'digest'] as const)('a site behind HTTP %s authentication', (scheme) => {
  let site: NotesSite
  beforeAll(async () => {
    site = await startNotesSite({ scheme })
  })
  afterAll(() => site.close())

  it('compiles to a tool bound to the saved login that carries no credential', () => {
    const secret = `Basic ${Buffer.from(`${site.username}:${site.password}`).toString('base64')}`
    const tool = recordedTool(
      site,
      scheme === 'basic' ? secret : `Digest username="${site.username}"`,
    )
    expect(tool.login?.httpAuth).toEqual({ scheme })
    const text = JSON.stringify(tool)
    expect(text).not.toContain(site.password)
    expect(text).not.toContain(secret.slice(6))
    expect(text.toLowerCase()).not.toContain('"authorization"')
  })

  it('answers the challenge with the saved username and password and verifies the answer', async () => {
    const tool = recordedTool(site, 'Basic x')
    const sent: Array<{ status: number | null }> = []
    const outcome = await run(tool, {
      httpCredentials: async () => ({ username: site.username, password: site.password }),
      onSent: (s) => sent.push(s),
    })
    expect(outcome).toMatchObject({ ok: true, result: { notes: [NOTES[2]] } })
    // Basic, as recorded, goes up front (RFC 7617 §2.2); a Digest first meets the challenge,
    // whose nonce its answer needs, then carries the answer.
    expect(sent.map((s) => s.status)).toEqual(scheme === 'basic' ? [200] : [401, 200])
    expect(site.requests.at(-1)).toMatchObject({ path: '/api/notes?q=lyon', accepted: true })
  })

  it('fails session_or_permission, asking a sign-in, without saved credentials', async () => {
    const outcome = await run(recordedTool(site, 'Basic x'), {})
    expect(outcome).toMatchObject({ ok: false, code: 'session_or_permission', signIn: true })
  })

  it('fails session_or_permission when the site refuses the saved credentials', async () => {
    const outcome = await run(recordedTool(site, 'Basic x'), {
      httpCredentials: async () => ({ username: site.username, password: 'wrong' }),
    })
    expect(outcome).toMatchObject({ ok: false, code: 'session_or_permission' })
    expect(site.requests.at(-1)).toMatchObject({ accepted: false })
  })
})
