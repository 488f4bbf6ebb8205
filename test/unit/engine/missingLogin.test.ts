import { describe, expect, it } from 'vitest'
import type { EngineState, ViaOutcome } from '../../../src/main/engine/engineState'
import { missingLogin } from '../../../src/main/engine/runExecute'
import type { RunEffect } from '../../../src/main/store/runRepository'
import type { ToolSpec } from '../../../src/shared/toolSpec'

const tool = (login?: ToolSpec['login']) =>
  ({ siteHost: 'app.test', ...(login ? { login } : {}) }) as ToolSpec
const stateWith = (recordedWithLogin: boolean) =>
  ({ deps: { recordedWithLogin: () => recordedWithLogin } }) as unknown as EngineState
const sent = (status: number | null): RunEffect[] => [
  { method: 'GET', url: 'http://app.test/api', status, at: '2026-01-01T00:00:00.000Z' },
]
const drift: ViaOutcome = {
  ok: false,
  code: 'schema_or_auth_drift',
  message: 'The site answered an HTML page where data used to be: record the flow again.',
}

describe('missingLogin', () => {
  it('turns drift into session_or_permission with a sign-in when the tool was recorded with a login', () => {
    const failed = missingLogin(stateWith(true), tool(), drift, sent(200))
    expect(failed).toMatchObject({ ok: false, code: 'session_or_permission', signIn: true })
    expect(failed.ok ? '' : failed.message).toContain('app.test needs a login and none is saved')
    expect(failed.ok ? '' : failed.message).toContain(drift.message)
    // Bound to a login (HTTP Basic here) is the same.
    const bound = tool({ cookies: [], values: [], httpAuth: { scheme: 'basic' } })
    expect(missingLogin(stateWith(false), bound, drift, sent(200)).ok).toBe(false)
    expect(missingLogin(stateWith(false), bound, drift, sent(200))).toMatchObject({
      code: 'session_or_permission',
    })
  })

  it('reads a redirect where data used to be as the missing login, not a server fault', () => {
    const redirected: ViaOutcome = {
      ok: false,
      code: 'upstream_error',
      message: 'The site answered HTTP 302, outside 200–299.',
    }
    expect(missingLogin(stateWith(true), tool(), redirected, sent(302))).toMatchObject({
      code: 'session_or_permission',
    })
    // A 500 is the site's fault, whatever the login.
    expect(missingLogin(stateWith(true), tool(), redirected, sent(500))).toBe(redirected)
  })

  it('leaves other failures, and tools that never used a login, as they were', () => {
    const notFound: ViaOutcome = { ok: false, code: 'not_found', message: 'HTTP 404.' }
    expect(missingLogin(stateWith(true), tool(), notFound, sent(404))).toBe(notFound)
    expect(missingLogin(stateWith(false), tool(), drift, sent(200))).toBe(drift)
    const ok: ViaOutcome = { ok: true, result: [] }
    expect(missingLogin(stateWith(true), tool(), ok, sent(200))).toBe(ok)
  })
})
