// Issue 9 items 4 and 5: the declared outcome of writes that answer no JSON (204, text/plain
// "OK", an HTML page, a redirect after a form post) and of action APIs whose errors come back as
// HTTP 200. Each rule is derived from a recorded exchange the way shapeTarget does it, then
// checked against the answers the engine would judge.
import { describe, expect, it } from 'vitest'
import { parseJsonBody } from '../../../src/main/compiler/classify'
import { inferSchema } from '../../../src/main/compiler/inferSchema'
import {
  ACKNOWLEDGEMENT_SCHEMA,
  deriveDocumentRule,
  deriveVerifyRule,
  outputForRule,
  redirectPattern,
  redirectShows,
  titleFreeOf,
  titlePattern,
} from '../../../src/main/compiler/verifyRule'
import {
  locationMatches,
  pageShowsValue,
  titleMatches,
} from '../../../src/main/verify/answerChecks'
import { matchErrorShape } from '../../../src/main/verify/errorShapes'
import type { VerifyRule } from '../../../src/shared/toolSpec'
import type { Exchange } from '../../../src/shared/trace'

const ORIGIN = 'http://127.0.0.1:8080'

interface Recorded {
  status?: number
  headers?: Record<string, string>
  body?: string
  form?: string
  json?: unknown
}

/** One recorded exchange of a write: the request's body and the site's answer. */
function exchange(method: string, path: string, r: Recorded = {}): Exchange {
  const requestBody =
    r.form !== undefined
      ? { text: r.form, encoding: 'utf8' as const }
      : r.json !== undefined
        ? { text: JSON.stringify(r.json), encoding: 'utf8' as const }
        : null
  return {
    id: 'exc_1',
    seq: 1,
    method,
    url: `${ORIGIN}${path}`,
    requestHeaders: requestBody
      ? {
          'content-type':
            r.form !== undefined ? 'application/x-www-form-urlencoded' : 'application/json',
        }
      : {},
    requestBody,
    status: r.status ?? 200,
    responseHeaders: r.headers ?? {},
    responseBody: r.body === undefined ? null : { text: r.body, encoding: 'utf8' },
    resourceType: 'fetch',
    startedAt: 0,
    durationMs: 1,
    pageUrl: `${ORIGIN}/`,
  }
}

/** The rule shapeTarget derives for this exchange (its answer parsed as the compiler does). */
function ruleOf(ex: Exchange): VerifyRule {
  const answer = parseJsonBody(ex)
  return deriveVerifyRule(inferSchema(answer), answer, { exchange: ex })
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

describe('writes that answer no JSON', () => {
  it('takes a page whose body the recording did not keep (a form posted into a frame) for a page', () => {
    const html = { 'content-type': 'text/html; charset=UTF-8' }
    // No body kept: a run's HTML page is the acknowledgement, not drift.
    expect(ruleOf(exchange('POST', '/?_task=addressbook', { headers: html }))).toEqual({
      status: [200, 299],
      mimeType: 'text/html',
      required: [],
    })
    // Said to be empty: no page.
    expect(
      ruleOf(
        exchange('POST', '/?_task=addressbook', { headers: { ...html, 'content-length': '0' } }),
      ),
    ).toEqual({ status: [200, 299], mimeType: '*', required: [] })
  })

  it('verifies a 204 No Content (or an empty body) by its status alone', () => {
    const rule = ruleOf(exchange('DELETE', '/api/contents/old-draft.txt', { status: 204 }))
    expect(rule).toEqual({ status: [200, 299], mimeType: '*', required: [] })
    // An empty 200 with a JSON type is no JSON either: nothing to parse.
    expect(
      ruleOf(exchange('POST', '/api/items/7/archive', { headers: JSON_TYPE, body: '' })),
    ).toEqual({ status: [200, 299], mimeType: '*', required: [] })
    expect(outputForRule(rule, {})).toBe(ACKNOWLEDGEMENT_SCHEMA)
  })

  it('verifies text/plain "OK" and an HTML page by status and media type', () => {
    const text = ruleOf(
      exchange('POST', '/settings/save', {
        form: 'theme=dark',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'OK',
      }),
    )
    expect(text).toMatchObject({ status: [200, 299], mimeType: 'text/plain', required: [] })
    // A text answer that starts with "Error" is a failure even at 200.
    expect(matchErrorShape('Error: title is empty', text.errorShapes ?? [])).not.toBeNull()
    expect(matchErrorShape('OK', text.errorShapes ?? [])).toBeNull()

    const page = ruleOf(
      exchange('POST', '/doku.php', {
        form: 'id=start&do=save&wikitext=Hello',
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<!DOCTYPE html><html><head><title>start</title></head><body>Hello</body></html>',
      }),
    )
    expect(page).toMatchObject({ status: [200, 299], mimeType: 'text/html', required: [] })
  })

  it('verifies a redirect by 3xx and the Location path, ids and typed values generalised', () => {
    const created = exchange('POST', '/page/new', {
      status: 303,
      form: 'title=Release+notes&text=Hello',
      headers: { location: '/page/Release_notes' },
    })
    expect(ruleOf(created)).toEqual({
      status: [300, 399],
      mimeType: '*',
      required: [],
      redirect: { path: '/page/*' },
    })
    // An id the site made (Redmine `/issues/42`), an absolute Location; a version stays.
    expect(
      redirectPattern(
        exchange('POST', '/projects/demo/issues', {
          status: 302,
          form: 'issue[subject]=Broken',
          headers: { location: `${ORIGIN}/v2/issues/42` },
        }),
      ),
    ).toBe('/v2/issues/*')
    // Constant parts stay: DokuWiki's redirect after saving names the script, the id is a query.
    expect(
      redirectPattern(
        exchange('POST', '/doku.php', {
          status: 302,
          form: 'id=start&do=save',
          headers: { location: '/doku.php?id=start' },
        }),
      ),
    ).toBe('/doku.php')
    // An upload's page keeps its namespace: the file name varies (multipart body not kept).
    const upload = exchange('POST', '/index.php/Special:Upload', {
      status: 302,
      headers: { location: `${ORIGIN}/index.php/File:Sunset.png` },
    })
    upload.requestHeaders['content-type'] = 'multipart/form-data; boundary=----b'
    expect(redirectPattern(upload)).toBe('/index.php/File:*')
    // …and when the body was kept, the file name the person sent is the part that varies.
    upload.responseHeaders.location = `${ORIGIN}/index.php/Media_Sunset.png_page`
    upload.requestBody = {
      text: '------b\r\nContent-Disposition: form-data; name="wpDestFile"\r\n\r\nSunset.png\r\n------b--\r\n',
      encoding: 'utf8',
    }
    expect(redirectPattern(upload)).toBe('/index.php/Media_*_page')
    expect(locationMatches('/index.php/File:*', '/index.php/File:Moon%20rise.jpg')).toBe(true)
    expect(locationMatches('/index.php/File:*', '/index.php/Special:Upload')).toBe(false)
    // A typed value inside a segment that also holds an id: the segment varies as a whole.
    expect(
      redirectPattern(
        exchange('POST', '/posts', {
          status: 302,
          form: 'title=Hello',
          headers: { location: '/posts/hello-42' },
        }),
      ),
    ).toBe('/posts/*')
    // The record a write acts on, named in its own path, is named again by the redirect: another
    // run acts on another record, so that segment varies too.
    const acted = exchange('POST', '/queue-worker', {
      status: 302,
      form: 'action=stop',
      headers: { location: '/queue-worker' },
    })
    expect(redirectPattern(acted)).toBe('/queue-worker')
    expect(redirectPattern(acted, ['queue-worker'])).toBe('/*')
    expect(locationMatches('/page/*', '/page/Another%20page')).toBe(true)
    expect(locationMatches('/page/*', '/page')).toBe(false)
    expect(locationMatches('/page/*', '/login')).toBe(false)
    expect(locationMatches('/doku.php', '/doku.php/')).toBe(true)
  })

  it('reads back what the page behind the redirect showed and the page before did not', () => {
    const before = exchange('GET', '/page/new?title=Release+notes')
    before.seq = 1
    before.responseBody = {
      text: '<html><title>Create Release notes</title><body><form></form></body></html>',
      encoding: 'utf8',
    }
    const post = exchange('POST', '/page/new?title=Release+notes', {
      status: 303,
      form: 'title=Release+notes&text=**Quarterly** plan for v2&do=save&commit=Save+page',
      headers: { location: '/page/Release_notes' },
    })
    post.seq = 2
    post.pageUrl = before.url
    const after = exchange('GET', '/page/Release_notes', {
      body: '<html><title>Release notes</title><body><p><b>Quarterly</b> plan for v2</p><button>Save page</button></body></html>',
    })
    after.seq = 3
    // The title was on the page before: no change shown; the button and the operation never count.
    expect(redirectShows(post, [before, post, after])).toEqual([{ in: 'body', path: 'text' }])
    expect(
      deriveVerifyRule({}, undefined, { exchange: post, trace: [before, post, after] }),
    ).toEqual({
      status: [300, 399],
      mimeType: '*',
      required: [],
      redirect: { path: '/page/*', shows: [{ in: 'body', path: 'text' }] },
    })
    // No page after the write in the trace: the redirect alone.
    expect(redirectShows(post, [before, post])).toEqual([])
    // Markup, case and spacing aside; scripts are not shown.
    expect(pageShowsValue('<p>Quarterly  PLAN</p>', '**quarterly** plan')).toBe(true)
    expect(pageShowsValue('<script>var t="secret plan"</script>', 'secret plan')).toBe(false)
    expect(pageShowsValue('<p>anything</p>', '---')).toBe(false)
  })

  it('reads nothing back after a removal: the page may still list what went', () => {
    const before = exchange('GET', '/wiki.cgi?do=edit&page=archive/old_plan')
    before.seq = 1
    before.responseBody = {
      text: '<html><title>edit</title><body></body></html>',
      encoding: 'utf8',
    }
    const post = exchange('POST', '/wiki.cgi', {
      status: 302,
      form: 'do=remove&page=archive/old_plan&_submit=Remove',
      headers: { location: '/' },
    })
    post.seq = 2
    post.pageUrl = before.url
    const after = exchange('GET', '/', {
      body: '<html><title>Home</title><body><p>Recent: removed archive/old_plan</p></body></html>',
    })
    after.seq = 3
    expect(redirectShows(post, [before, post, after])).toEqual([])
    const deleted = exchange('DELETE', '/notes/Old plan', {
      status: 303,
      headers: { location: '/' },
    })
    deleted.seq = 2
    expect(redirectShows(deleted, [before, deleted, after])).toEqual([])
  })

  it('leaves JSON answers and calls without the exchange as they always were', () => {
    const answer = { id: 7, title: 'x' }
    const ex = exchange('POST', '/api/notes', {
      json: { title: 'x' },
      headers: JSON_TYPE,
      body: JSON.stringify(answer),
      status: 201,
    })
    const before = deriveVerifyRule(inferSchema(answer), answer)
    expect(before).toEqual({
      status: [200, 299],
      mimeType: 'application/json',
      required: [
        { path: 'id', type: 'integer' },
        { path: 'title', type: 'string' },
      ],
    })
    expect(ruleOf(ex)).toEqual(before)
    expect(outputForRule(before, inferSchema(answer))).toEqual(inferSchema(answer))
  })
})

describe('action APIs: errors answered as HTTP 200', () => {
  it('declares MediaWiki api.php errors next to the success shape', () => {
    const success = { edit: { result: 'Success', pageid: 3, title: 'Sandbox', newrevid: 12 } }
    const rule = ruleOf(
      exchange('POST', '/api.php', {
        form: 'action=edit&format=json&title=Sandbox&text=Hi&token=abc%2B%5C',
        headers: JSON_TYPE,
        body: JSON.stringify(success),
      }),
    )
    expect(rule.required).toEqual([{ path: 'edit', type: 'object' }])
    expect(rule.errorShapes).toEqual([
      { path: 'edit.result', pattern: '^(failure|error)$' },
      { path: 'error' },
      { path: 'errors' },
    ])
    const badToken = { error: { code: 'badtoken', info: 'Invalid CSRF token.', '*': 'See docs' } }
    expect(matchErrorShape(JSON.stringify(badToken), rule.errorShapes!)).toMatchObject({
      siteCode: 'badtoken',
      siteMessage: 'Invalid CSRF token.',
    })
    expect(matchErrorShape(JSON.stringify(success), rule.errorShapes!)).toBeNull()
    expect(
      matchErrorShape('{"edit":{"result":"Failure","captcha":{}}}', rule.errorShapes!),
    ).not.toBeNull()
  })

  it('declares admin-ajax 0 / -1 and the success flag of WordPress', () => {
    const rule = ruleOf(
      exchange('POST', '/wp-admin/admin-ajax.php', {
        form: 'action=inline-save&post_ID=5&_inline_edit=n0nce',
        headers: JSON_TYPE,
        body: JSON.stringify({ success: true, data: { id: 5 } }),
      }),
    )
    const shapes = rule.errorShapes!
    expect(matchErrorShape('-1', shapes)).toMatchObject({
      siteCode: '-1',
      shape: { failure: 'session_or_permission' },
    })
    expect(matchErrorShape('0', shapes)?.siteMessage).toContain('signed out')
    expect(
      matchErrorShape('{"success":false,"data":"Sorry, you are not allowed."}', shapes),
    ).toMatchObject({ siteMessage: 'Sorry, you are not allowed.' })
    expect(matchErrorShape('{"success":true,"data":{"id":6}}', shapes)).toBeNull()
  })

  it('names the result field of the MediaWiki operation when the answer was not kept', () => {
    const ex = exchange('POST', '/api.php', {
      form: 'action=edit&title=Sandbox&text=Hi&format=json&token=abc',
      headers: JSON_TYPE,
    })
    const rule = ruleOf(ex)
    expect(rule).toMatchObject({ status: [200, 299], mimeType: '*', required: [] })
    expect(rule.errorShapes).toEqual([
      { path: 'error' },
      { path: 'errors' },
      { path: 'edit.result', pattern: '^(failure|error)$' },
    ])
  })

  it("keeps the title of the page a write answered, the person's values and numbers as *", () => {
    const deleted = exchange('POST', '/index.php?title=Old_Draft&action=delete', {
      form: 'wpReason=cleanup&wpConfirmB=Delete+page',
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      body: '<html><head><title>Action complete - Sitecall Wiki</title></head><body>Deleted</body></html>',
    })
    expect(titlePattern(deleted)).toBe('Action complete - Sitecall Wiki')
    expect(deriveDocumentRule(undefined, { exchange: deleted }).verify.title).toBe(
      'Action complete - Sitecall Wiki',
    )
    const moved = exchange('POST', '/index.php?title=Special:MovePage&action=submit', {
      form: 'wpOldTitle=Meeting+Notes&wpNewTitleMain=Team+Meeting+Notes',
      headers: { 'content-type': 'text/html' },
      body: '<title>Team Meeting Notes moved (rev 42) - Wiki</title>',
    })
    expect(titlePattern(moved)).toBe('* moved (rev *) - Wiki')
    expect(titleMatches('* moved (rev *) - Wiki', 'Roadmap  moved (rev 7) - Wiki')).toBe(true)
    expect(
      titleMatches('Action complete - Sitecall Wiki', 'Delete Unused Draft - Sitecall Wiki'),
    ).toBe(false)
    // A read's page title is its content: no title rule.
    expect(titlePattern({ ...deleted, method: 'GET' })).toBeNull()
    expect(ruleOf(moved)).toMatchObject({ mimeType: 'text/html', title: '* moved (rev *) - Wiki' })
  })

  it('gives an admin-ajax page answer (a document) its bare 0 / -1 errors', () => {
    const ex = exchange('POST', '/wp-admin/admin-ajax.php', {
      form: 'action=inline-save&post_ID=17&post_title=Weekly',
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      body: '<tr id="post-17"><td>Weekly</td></tr>',
    })
    const { verify } = deriveDocumentRule(undefined, { exchange: ex })
    expect(verify.errorShapes?.map((s) => s.equals)).toEqual([['-1'], ['0']])
    expect(deriveDocumentRule(undefined).verify.errorShapes).toBeUndefined()
  })

  it('reads the success flags of JSON-RPC-ish answers: ok, status', () => {
    const ok = ruleOf(
      exchange('POST', '/rpc', {
        json: { method: 'notes.rename', params: { id: 1, name: 'b' } },
        headers: JSON_TYPE,
        body: '{"ok":true}',
      }),
    )
    expect(ok.errorShapes).toContainEqual({ path: 'ok', equals: [false] })
    expect(matchErrorShape('{"ok":false,"error":"not_authed"}', ok.errorShapes!)).toMatchObject({
      siteMessage: 'not_authed',
    })
    const status = ruleOf(
      exchange('POST', '/api/tasks/run', {
        json: { task: 'x' },
        headers: JSON_TYPE,
        body: '{"status":"ok","id":"t1"}',
      }),
    )
    expect(
      matchErrorShape('{"status":"error","message":"No such task"}', status.errorShapes!),
    ).toMatchObject({ siteCode: 'error', siteMessage: 'No such task' })
  })

  it('adds no error shape a plain REST answer does not show, and none the success matches', () => {
    const rest = ruleOf(
      exchange('PATCH', '/api/notes/7', {
        json: { title: 'y' },
        headers: JSON_TYPE,
        body: '{"id":7,"title":"y"}',
      }),
    )
    expect(rest.errorShapes).toBeUndefined()
    // An action API whose success carries an `error` field (empty here) keeps the error check;
    // one whose success carries a real `error` value cannot use it.
    const empty = ruleOf(
      exchange('GET', '/api.php?action=query&list=search&srsearch=x', {
        headers: JSON_TYPE,
        body: '{"error":null,"query":{"search":[]}}',
      }),
    )
    expect(empty.errorShapes).toContainEqual({ path: 'error' })
    const busy = ruleOf(
      exchange('GET', '/api.php?action=query&list=search&srsearch=x', {
        headers: JSON_TYPE,
        body: '{"error":"warning: slow","query":{"search":[]}}',
      }),
    )
    expect(busy.errorShapes).not.toContainEqual({ path: 'error' })
  })
})

describe('titleFreeOf', () => {
  const rule: VerifyRule = {
    status: [200, 299],
    mimeType: 'text/html',
    required: [],
    title: 'Principal: Sales Team',
  }

  it('makes the recorded values of inputs a wildcard of the page title', () => {
    expect(titleFreeOf(rule, ['Sales Team', 12, 'ab']).title).toBe('Principal: *')
  })

  it('leaves a title that names none of them, and a rule without a title, as they were', () => {
    expect(titleFreeOf(rule, ['Engineering'])).toBe(rule)
    const bare: VerifyRule = { status: [200, 299], mimeType: 'text/html', required: [] }
    expect(titleFreeOf(bare, ['Sales Team'])).toBe(bare)
  })
})
