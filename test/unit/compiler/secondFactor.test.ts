import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { SECRET_PLACEHOLDER, type Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-00000000000e', now: Date.UTC(2026, 10, 25) }
const ORIGIN = 'http://127.0.0.1:3000'
const HOST_SECRET = 'login.127.0.0.1_3000'
const page = (token: string, body = '') =>
  `<html><head><meta name="csrf-token" content="${token}"></head><body>${body}</body></html>`

/**
 * A Rails-style sign-in with a TOTP second factor: the password form posts and is redirected to
 * the code page, whose form posts the six digits from the person's authenticator app.
 */
function twoFactorTrace(intent = 'log in as rlee with the code from my authenticator app'): Trace {
  const trace = traceBuilder(ORIGIN)
    .exchange('GET', '/login', {
      mime: 'text/html',
      type: 'document',
      responseText: page('tok-login-0001'),
    })
    .fill('rlee', { name: 'username', label: 'Login' })
    .fill(null, { name: 'password', label: 'Password', secret: true })
    .submit()
    .exchange('POST', '/login', {
      form: `authenticity_token=tok-login-0001&username=rlee&password=${encodeURIComponent(SECRET_PLACEHOLDER)}`,
      status: 302,
      type: 'document',
      mime: 'text/html',
    })
    .exchange('GET', '/account/twofa/confirm', {
      mime: 'text/html',
      type: 'document',
      responseText: page('tok-code-0002', '<input name="twofa_code" autocomplete="off">'),
    })
    .fill('530064', { name: 'twofa_code', label: 'Code' })
    .submit()
    .exchange('POST', '/account/twofa', {
      form: 'authenticity_token=tok-code-0002&twofa_code=530064',
      status: 302,
      type: 'document',
      mime: 'text/html',
    })
    .build(intent)
  trace.exchanges[1]!.responseHeaders.location = `${ORIGIN}/account/twofa/confirm`
  trace.exchanges[3]!.responseHeaders.location = `${ORIGIN}/`
  return trace
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const bodyOf = (tool: ToolSpec, index: number): Record<string, string> => {
  const body = tool.steps[index]!.request.body
  return body?.kind === 'form' ? body.template : {}
}

describe('a sign-in with a second factor', () => {
  it('targets the post that sends the one-time code, after the password post', () => {
    const tool = compiled(twoFactorTrace())
    expect(tool.steps.map((s) => `${s.request.method} ${new URL(s.request.url).pathname}`)).toEqual(
      ['GET /login', 'POST /login', 'GET /account/twofa/confirm', 'POST /account/twofa'],
    )
    expect(tool.mutating).toBe(false)
    const names = tool.evidence.signals.map((s) => s.name)
    expect(names).toEqual(expect.arrayContaining(['sends_second_factor', 'one_time_code']))
    expect(tool.evidence.alternatives[0]?.signals).toContain('asks_second_factor')
  })

  it('sends a fresh TOTP code from the saved seed, the saved password, and the user as input', () => {
    const tool = compiled(twoFactorTrace())
    expect(bodyOf(tool, 3).twofa_code).toBe(`{{totp:${HOST_SECRET}.totp}}`)
    expect(bodyOf(tool, 3).authenticity_token).toBe('{{step.d3.csrf_token}}')
    const first = bodyOf(tool, 1)
    expect(first.password).toBe(`{{secret:${HOST_SECRET}.password}}`)
    expect(first.authenticity_token).toBe('{{step.d1.csrf_token}}')
    const user = Object.entries(tool.inputs.properties).find(([, p]) => p.default === 'rlee')
    expect(user).toBeDefined()
    expect(first.username).toBe(`{{input.${user![1]['x-slot']}}}`)
    expect(tool.inputs.required).toEqual([user![0]])
    // The recorded code is never an input nor sent again.
    expect(JSON.stringify(tool)).not.toContain('530064"')
    const slots = Object.values(tool.inputs.properties).map((p) => p['x-slot'])
    expect(slots).toEqual(slots.map((_, i) => `p${i}`))
  })

  it('signs in as the saved user when neither the person nor the intent gave a user name', () => {
    const trace = twoFactorTrace('log in with the code from my authenticator app')
    trace.actions = []
    const tool = compiled(trace)
    expect(tool.steps).toHaveLength(4)
    expect(bodyOf(tool, 1).username).toBe(`{{secret:${HOST_SECRET}.username}}`)
    expect(Object.values(tool.inputs.properties).map((p) => p.default)).not.toContain('rlee')
  })

  it('keeps a single-factor sign-in as it was: the password post is the target', () => {
    const trace = twoFactorTrace('log in as rlee')
    trace.exchanges = trace.exchanges.slice(0, 2)
    trace.exchanges[1]!.responseHeaders.location = `${ORIGIN}/my/page`
    trace.actions = trace.actions.slice(0, 3)
    const tool = compiled(trace)
    expect(tool.steps.map((s) => s.request.method)).toEqual(['GET', 'POST'])
    expect(JSON.stringify(tool)).not.toContain('totp:')
  })

  it('keeps a code the intent does not sign in with as the input it is', () => {
    const trace = traceBuilder(ORIGIN)
      .fill('482913', { name: 'verification_code', label: 'Code' })
      .submit()
      .exchange('POST', '/account/email/confirm', {
        form: 'verification_code=482913',
        response: { confirmed: true },
      })
      .build('confirm my new e-mail address with the code 482913')
    const tool = compiled(trace)
    expect(JSON.stringify(tool)).not.toContain('totp:')
    expect(tool.inputs.properties.verification_code).toMatchObject({ default: '482913' })
  })
})
