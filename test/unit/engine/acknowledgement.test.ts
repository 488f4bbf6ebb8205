// Issue 9 items 4 and 5 on the engine side: judging writes that answer no JSON (status only,
// text, HTML page, redirect) and in-band errors of action APIs, without a server (the
// integration test writeAnswers.integration.test.ts runs the same through a real core).
import { describe, expect, it } from 'vitest'
import { signInRedirect } from '../../../src/main/engine/httpExecutor'
import { classifyInBand, inBandError, pageErrorText } from '../../../src/main/engine/inBand'
import { judgeResponse, judgeShown, type SiteResponse } from '../../../src/main/engine/outcome'
import { renderRequest, shownValues } from '../../../src/main/engine/template'
import type { RequestTemplate, VerifyRule } from '../../../src/shared/toolSpec'

const PAGE_URL = 'http://127.0.0.1:8080/page/new'
const statusOnly: VerifyRule = { status: [200, 299], mimeType: '*', required: [] }
const text: VerifyRule = { status: [200, 299], mimeType: 'text/plain', required: [] }
const html: VerifyRule = { status: [200, 299], mimeType: 'text/html', required: [] }
const redirect: VerifyRule = {
  status: [300, 399],
  mimeType: '*',
  required: [],
  redirect: { path: '/page/*' },
}
const answer = (status: number, body = '', headers: Record<string, string> = {}): SiteResponse => ({
  status,
  headers,
  body,
})
const judge = (r: SiteResponse, v: VerifyRule) => judgeResponse(r, v, undefined, PAGE_URL)
const codeOf = (o: ReturnType<typeof judgeResponse>) => (o.ok ? 'ok' : o.code)

describe('acknowledgement rules', () => {
  it('status only: a 204 with no body and no type succeeds; a 2xx JSON body is kept as data', () => {
    expect(judge(answer(204), statusOnly)).toEqual({ ok: true, result: { status: 204 } })
    expect(
      judge(answer(200, '{"id":3}', { 'content-type': 'application/json' }), statusOnly),
    ).toEqual({ ok: true, result: { status: 200, data: { id: 3 } } })
    expect(codeOf(judge(answer(302, '', { location: '/elsewhere' }), statusOnly))).toBe(
      'upstream_error',
    )
    // A page where nothing used to come back is no acknowledgement.
    const maintenance = '<html><title>Down for maintenance</title><p>Back soon</p></html>'
    expect(
      judge(answer(200, maintenance, { 'content-type': 'text/html' }), statusOnly),
    ).toMatchObject({
      ok: false,
      code: 'schema_or_auth_drift',
      message: expect.stringContaining('no page'),
    })
  })

  it('a JSON rule written before still fails an empty answer (rules keep their meaning)', () => {
    const old: VerifyRule = { status: [200, 299], mimeType: 'application/json', required: [] }
    expect(codeOf(judge(answer(204), old))).toBe('outcome_not_verified')
  })

  it('text: the recorded type is required, the text is the result', () => {
    expect(judge(answer(200, 'OK\n', { 'content-type': 'text/plain' }), text)).toEqual({
      ok: true,
      result: { status: 200, text: 'OK' },
    })
    expect(
      codeOf(judge(answer(200, '{"a":1}', { 'content-type': 'application/json' }), text)),
    ).toBe('schema_or_auth_drift')
    // A sign-in page where the acknowledgement used to be.
    const signIn = '<html><title>Log in</title><form action="/login"><input type="password"></form>'
    expect(codeOf(judge(answer(200, signIn, { 'content-type': 'text/html' }), text))).toBe(
      'session_or_permission',
    )
  })

  it('html: any page but a barrier succeeds with its title', () => {
    const page = '<!DOCTYPE html><html><head><title>Saved - Wiki</title></head><body>ok</body>'
    expect(judge(answer(200, page, { 'content-type': 'text/html' }), html)).toEqual({
      ok: true,
      result: { status: 200, title: 'Saved - Wiki' },
    })
    const check = '<html><title>Just a moment...</title><div id="challenge-form"></div></html>'
    expect(codeOf(judge(answer(200, check, { 'content-type': 'text/html' }), html))).toBe(
      'challenge',
    )
  })

  it('html and documents of writes: the recorded title, else the form again or an error', () => {
    const done = { ...html, title: 'Action complete - Wiki' }
    const page = (title: string, body = '') =>
      answer(200, `<html><title>${title}</title><body>${body}</body></html>`, {
        'content-type': 'text/html',
      })
    expect(judge(page('Action complete - Wiki'), done)).toMatchObject({ ok: true })
    expect(judge(page('Delete Unused Draft - Wiki'), done)).toMatchObject({
      ok: false,
      code: 'outcome_not_verified',
      message: expect.stringContaining('"Delete Unused Draft - Wiki"'),
    })
    const tokenError = page('Delete - Wiki', '<div class="error">Invalid CSRF token.</div>')
    expect(judge(tokenError, done)).toMatchObject({ ok: false, code: 'session_or_permission' })
    const document: VerifyRule = {
      status: [200, 299],
      mimeType: 'text/html',
      required: [{ path: 'title', type: 'string' }],
      title: 'Action complete - Wiki',
    }
    const shape = { kind: 'document' as const, page: true }
    expect(judgeResponse(page('Action complete - Wiki'), document, shape, PAGE_URL)).toMatchObject({
      ok: true,
      result: { title: 'Action complete - Wiki' },
    })
    expect(codeOf(judgeResponse(page('Error - Wiki'), document, shape, PAGE_URL))).toBe(
      'outcome_not_verified',
    )
  })

  it('redirect: the Location path must match the recorded pattern', () => {
    expect(judge(answer(303, '', { location: '/page/Roadmap' }), redirect)).toEqual({
      ok: true,
      result: { status: 303, location: 'http://127.0.0.1:8080/page/Roadmap' },
    })
    const elsewhere = judge(answer(302, '', { location: '/oops?e=1' }), redirect)
    expect(elsewhere).toMatchObject({
      ok: false,
      code: 'outcome_not_verified',
      message: expect.stringContaining('/oops'),
    })
    expect(codeOf(judge(answer(302), redirect))).toBe('outcome_not_verified')
    // The form again instead of the redirect: its error decides, else not verified.
    const again = (error: string) =>
      `<html><title>New page</title><body><div class="error">${error}</div><form></form></body></html>`
    expect(
      judge(
        answer(200, again('Security Token did not match. Possible CSRF attack.'), {
          'content-type': 'text/html',
        }),
        redirect,
      ),
    ).toMatchObject({ ok: false, code: 'session_or_permission', signIn: true })
    expect(
      codeOf(
        judge(answer(200, again('Title is too long'), { 'content-type': 'text/html' }), redirect),
      ),
    ).toBe('outcome_not_verified')
    expect(codeOf(judge(answer(200, '<html><title>x</title></html>'), redirect))).toBe(
      'outcome_not_verified',
    )
  })

  it('a redirect to the sign-in page fails, unless the rule expects that very page', () => {
    const toLogin = answer(303, '', { location: '/login?returnto=%2Fpage%2Fnew' })
    expect(signInRedirect(toLogin)).toMatchObject({ code: 'session_or_permission' })
    expect(signInRedirect(toLogin, { path: '/page/*' })).toMatchObject({
      code: 'session_or_permission',
    })
    // A generalised pattern does not swallow the sign-in page: `/*` names no sign-in.
    expect(signInRedirect(toLogin, { path: '/*' })).toMatchObject({
      code: 'session_or_permission',
    })
    // A sign-out's recorded redirect goes to /login: that is its success.
    expect(signInRedirect(toLogin, { path: '/login' })).toBeNull()
    // An author's page is no sign-in page.
    expect(signInRedirect(answer(302, '', { location: '/author/alice' }))).toBeNull()
    expect(signInRedirect(answer(302, '', { location: '/users/sign_in' }))).not.toBeNull()
    expect(signInRedirect(answer(302, '', { location: '/auth/realms/x' }))).not.toBeNull()
  })
})

describe('read-back of a redirect', () => {
  const ack = { status: 303, location: 'http://127.0.0.1:8080/page/Roadmap' }
  const page = (body: string, status = 200) => answer(status, body, { 'content-type': 'text/html' })
  const at = 'http://127.0.0.1:8080/page/Roadmap'

  it('succeeds when the page shows every value, with its title', () => {
    const shown = '<html><title>Roadmap</title><body><p>Ship in <i>May</i></p></body></html>'
    expect(judgeShown(ack, page(shown), ['Ship in May'], at)).toEqual({
      ok: true,
      result: { ...ack, title: 'Roadmap' },
    })
  })

  it('fails when the page lacks a value, answers no page, or asks to sign in', () => {
    expect(
      judgeShown(ack, page('<p>This page does not exist yet.</p>'), ['Ship in May'], at),
    ).toMatchObject({
      ok: false,
      code: 'outcome_not_verified',
      message: expect.stringContaining('"Ship in May"'),
    })
    expect(codeOf(judgeShown(ack, page('gone', 404), ['x'], at))).toBe('outcome_not_verified')
    expect(codeOf(judgeShown(ack, page('no', 403), ['x'], at))).toBe('session_or_permission')
    const signIn = '<html><title>Log in</title><form action="/login"><input type="password"></form>'
    expect(codeOf(judgeShown(ack, page(signIn), ['x'], at))).toBe('session_or_permission')
  })

  it('reads the values the run sent in those fields, never a secret', () => {
    const template: RequestTemplate = {
      method: 'POST',
      url: 'http://127.0.0.1:8080/page/new?title={{input.p0}}',
      headers: {},
      body: {
        kind: 'form',
        template: { text: '{{input.p1}}', user: '{{secret:login.site.username}}', empty: '' },
      },
    }
    const rendered = renderRequest(template, {
      'input.p0': 'Road map',
      'input.p1': 'Ship in May',
      'secret:login.site.username': 'alice',
    })
    const fields = [
      { in: 'query' as const, path: 'title' },
      { in: 'body' as const, path: 'text' },
      { in: 'body' as const, path: 'user' },
      { in: 'body' as const, path: 'empty' },
    ]
    expect(shownValues(template, rendered, fields)).toEqual(['Road map', 'Ship in May'])
    const json: RequestTemplate = {
      ...template,
      body: { kind: 'json', template: { page: { text: '{{input.p1}}' } } },
    }
    expect(
      shownValues(json, renderRequest(json, { 'input.p1': 'Nested' }), [
        { in: 'body', path: 'page.text' },
      ]),
    ).toEqual(['Nested'])
  })
})

describe('in-band errors', () => {
  const action: VerifyRule = {
    status: [200, 299],
    mimeType: 'application/json',
    required: [{ path: 'edit', type: 'object' }],
    errorShapes: [{ path: 'edit.result', pattern: '^(failure|error)$' }, { path: 'error' }],
  }
  const api = (body: unknown, status = 200) =>
    answer(status, JSON.stringify(body), { 'content-type': 'application/json' })

  it('fail a 200 with the code the site means and its message', () => {
    expect(
      judge(api({ error: { code: 'badtoken', info: 'Invalid CSRF token.' } }), action),
    ).toEqual({
      ok: false,
      code: 'session_or_permission',
      message: 'The site answered HTTP 200 with an error (badtoken): Invalid CSRF token.',
      signIn: true,
    })
    expect(codeOf(judge(api({ error: { code: 'missingtitle', info: 'x' } }), action))).toBe(
      'not_found',
    )
    expect(codeOf(judge(api({ error: { code: 'ratelimited', info: 'x' } }), action))).toBe(
      'rate_limited',
    )
    expect(codeOf(judge(api({ error: { code: 'maxlag', info: 'Waiting' } }), action))).toBe(
      'upstream_error',
    )
    expect(codeOf(judge(api({ edit: { result: 'Failure', spamblacklist: 'x' } }), action))).toBe(
      'upstream_error',
    )
    // A 400 carrying the same object is told by it too, not by its status.
    expect(codeOf(judge(api({ error: { code: 'notloggedin', info: 'x' } }, 400), action))).toBe(
      'session_or_permission',
    )
    expect(judge(api({ edit: { result: 'Success' }, error: null }), action)).toMatchObject({
      ok: true,
    })
  })

  it('read bare and flagged answers; an empty body matches nothing', () => {
    const shapes = [
      { path: '', equals: ['-1' as const], failure: 'session_or_permission' as const },
      { path: 'success', equals: [false] },
      { path: 'status', pattern: '^(error|fail|failed|failure)$' },
    ]
    expect(inBandError('-1', shapes)).toMatchObject({
      code: 'session_or_permission',
      siteCode: '-1',
    })
    expect(inBandError(' -1\n', shapes)?.siteCode).toBe('-1')
    expect(
      inBandError('{"success":false,"data":[{"code":"x","message":"Not allowed"}]}', shapes),
    ).toMatchObject({ code: 'session_or_permission', siteMessage: 'Not allowed' })
    expect(inBandError('{"status":"error","message":"Item does not exist"}', shapes)).toMatchObject(
      { code: 'not_found', siteCode: 'error' },
    )
    expect(inBandError('', shapes)).toBeNull()
    expect(inBandError('{"success":true}', shapes)).toBeNull()
  })

  it('classifies by the code first, the message only when the code says nothing', () => {
    expect(classifyInBand('nosuchpageid', 'There is no page with ID 9')).toBe('not_found')
    expect(classifyInBand('permissiondenied', null)).toBe('session_or_permission')
    expect(classifyInBand('E42', 'You must be logged in')).toBe('session_or_permission')
    expect(classifyInBand(null, 'Something broke')).toBe('upstream_error')
    expect(pageErrorText('<div class="alert alert-danger"> Name  taken </div>')).toBe('Name taken')
    expect(pageErrorText('<p>fine</p>')).toBeNull()
  })
})
