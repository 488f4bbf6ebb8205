// Issue 9 items 4 and 5 end to end: a write's answer is recorded from a real HTTP server on
// 127.0.0.1 (fetch, redirects not followed, as the recorder sees them), its verify rule derived
// by the compiler's deriveVerifyRule, and the tool run through a real core's engine (SQLite in a
// temp dir) with another input. Writes answering 204, text/plain "OK" and a 303 succeed; a 303
// to the sign-in page, a form shown again with a token error, and action APIs answering their
// errors with HTTP 200 (MediaWiki api.php, WordPress admin-ajax) fail with the right code and
// the site's message.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BrowserContext } from 'playwright-core'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createBrowserPool, type BrowserPool } from '../../../src/main/engine/browserPool'
import { createRenderedExecutor } from '../../../src/main/engine/renderedExecutor'
import { compileTrace } from '../../../src/main/compiler'
import { parseJsonBody } from '../../../src/main/compiler/classify'
import { inferSchema } from '../../../src/main/compiler/inferSchema'
import {
  deriveDocumentRule,
  deriveVerifyRule,
  outputForRule,
} from '../../../src/main/compiler/verifyRule'
import type { Run } from '../../../src/shared/run'
import type { SlotSchema, TemplateBody, ToolSpec } from '../../../src/shared/toolSpec'
import type { Exchange } from '../../../src/shared/trace'

/** The small wiki the tests write to: what its routes answer depends on these switches. */
interface WikiState {
  notes: Set<string>
  pages: Map<string, string>
  signedIn: boolean
  /** The CSRF token the site accepts now (a new session has a new one). */
  token: string
  /** Form posts are answered with the form again and DokuWiki's token error. */
  formTokenError: boolean
  /** Form posts are acknowledged (303 to the page) but their text is not kept. */
  dropText: boolean
  /** `METHOD /path` of every request, in arrival order. */
  requests: string[]
  /** The page filter a form post stored in the session (a filter answered by a redirect). */
  filter: string
}

let server: Server
let origin: string
let host: string
let core: Core
let home: string
let state: WikiState

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/**
 * The site's routes: a JSON API that deletes with 204, a text/plain "OK" write, a form post
 * answered 303 (Post/Redirect/Get), MediaWiki's api.php and WordPress's admin-ajax.php.
 */
async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', origin)
  const path = url.pathname
  state.requests.push(`${req.method} ${path}`)
  const form = await readForm(req)
  const deleteNote = /^\/api\/notes\/([^/]+)$/.exec(path)
  if (req.method === 'DELETE' && deleteNote) {
    if (!state.notes.delete(deleteNote[1]!)) return json(res, { message: 'No such note' }, 404)
    res.writeHead(204)
    return void res.end()
  }
  const pin = /^\/notes\/([^/]+)\/pin$/.exec(path)
  if (req.method === 'POST' && pin) {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
    return void res.end('OK')
  }
  if (req.method === 'POST' && path === '/page/new') {
    if (!state.signedIn) {
      res.writeHead(303, { location: `/login?returnto=${encodeURIComponent('/page/new')}` })
      return void res.end()
    }
    if (state.formTokenError) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return void res.end(
        '<!DOCTYPE html><html><head><title>New page - Wiki</title></head><body>' +
          '<div class="error">Security Token did not match. Possible CSRF attack.</div>' +
          '<form method="post" action="/page/new"><textarea name="text"></textarea></form></body></html>',
      )
    }
    const title = form.get('title') ?? ''
    state.pages.set(title, state.dropText ? '' : (form.get('text') ?? ''))
    res.writeHead(303, { location: `/page/${encodeURIComponent(title.replace(/ /g, '_'))}` })
    return void res.end()
  }
  if (req.method === 'POST' && path === '/page/rename') {
    if (!state.signedIn) {
      res.writeHead(303, { location: '/login' })
      return void res.end()
    }
    // Renamed from the editor, the editor comes back; posted from anywhere else, the new page.
    const to = form.get('new_name') ?? ''
    state.pages.set(to, state.pages.get(form.get('page') ?? '') ?? '')
    state.pages.delete(form.get('page') ?? '')
    if (form.get('from') === 'editor') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return void res.end(
        `<!DOCTYPE html><html><head><title>editing ${to} - Wiki</title></head><body>` +
          `<p>Successfully renamed.</p><form><textarea name="text"></textarea></form></body></html>`,
      )
    }
    res.writeHead(302, { location: `/page/${encodeURIComponent(to.replace(/ /g, '_'))}` })
    return void res.end()
  }
  if (req.method === 'POST' && path === '/w/api.php') {
    // MediaWiki answers every error with HTTP 200 and an error object.
    if (form.get('token') !== state.token)
      return json(res, {
        error: { code: 'badtoken', info: 'Invalid CSRF token.', '*': 'See api help' },
      })
    const title = form.get('title') ?? ''
    if (form.get('action') === 'delete') {
      if (!state.pages.delete(title))
        return json(res, {
          error: { code: 'missingtitle', info: "The page you specified doesn't exist." },
        })
      return json(res, { delete: { title, reason: '', logid: 7 } })
    }
    state.pages.set(title, form.get('text') ?? '')
    return json(res, {
      edit: { result: 'Success', pageid: 3, title, contentmodel: 'wikitext', newrevid: 12 },
    })
  }
  if (req.method === 'POST' && path === '/wp-admin/admin-ajax.php') {
    // admin-ajax: 0 when no handler runs for the caller, -1 when the nonce check fails (wp_die
    // answers them as HTML); wp_send_json_* answers JSON.
    const bare = (text: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' })
      res.end(text)
    }
    if (!state.signedIn) return bare('0')
    if (form.get('_ajax_nonce') !== state.token) return bare('-1')
    const title = form.get('post_title') ?? ''
    if (!title) return json(res, { success: false, data: 'The title may not be empty.' })
    state.pages.set(title, '')
    return json(res, { success: true, data: { id: 5, title } })
  }
  if (req.method === 'POST' && path === '/pages/filter') {
    state.filter = form.get('q') ?? ''
    res.writeHead(302, { location: '/pages' })
    return void res.end()
  }
  if (req.method === 'GET' && path === '/pages') {
    const titles = [...state.pages.keys()].filter((t) =>
      t.toLowerCase().includes(state.filter.toLowerCase()),
    )
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    return void res.end(
      `<!DOCTYPE html><html><head><title>Pages - Wiki</title></head><body><ul>` +
        titles.map((t) => `<li><a href="/page/${encodeURIComponent(t)}">${t}</a></li>`).join('') +
        `</ul></body></html>`,
    )
  }
  const page = /^\/page\/([^/]+)$/.exec(path)
  if (req.method === 'GET' && page && page[1] !== 'new') {
    const title = decodeURIComponent(page[1]!).replace(/_/g, ' ')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    return void res.end(
      `<!DOCTYPE html><html><head><title>${title} - Wiki</title></head><body><h1>${title}</h1>` +
        `<div id="content"><p>${state.pages.get(title) ?? 'This page does not exist yet.'}</p></div></body></html>`,
    )
  }
  if (req.method === 'GET' && (path === '/' || path === '/page/new' || path === '/login')) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    return void res.end(`<!DOCTYPE html><html><head><title>${path} - Wiki</title></head></html>`)
  }
  res.writeHead(404, { 'content-type': 'text/plain' })
  res.end('not found')
}

beforeAll(async () => {
  server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      res.writeHead(500)
      res.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  host = `127.0.0.1:${port}`
  origin = `http://${host}`
  home = mkdtempSync(join(tmpdir(), 'sitecall-writes-'))
  core = createCore({ home, port: 0, rendererDir: null, keychain: null })
})

afterAll(async () => {
  await core.close()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(home, { recursive: true, force: true })
})

beforeEach(() => {
  state = {
    notes: new Set(['n1', 'n2']),
    pages: new Map([['Main Page', 'Welcome']]),
    signedIn: true,
    token: 'tok-1',
    formTokenError: false,
    dropText: false,
    requests: [],
    filter: '',
  }
})

/** One write as the person made it while recording: sent for real, redirects not followed. */
async function record(
  method: string,
  path: string,
  form: Record<string, string> | null = null,
  seq = 1,
): Promise<Exchange> {
  const body = form ? new URLSearchParams(form).toString() : null
  const requestHeaders: Record<string, string> = form
    ? { 'content-type': 'application/x-www-form-urlencoded' }
    : {}
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: requestHeaders,
    ...(body === null ? {} : { body }),
    redirect: 'manual',
  })
  const text = await res.text()
  return {
    id: `exc_${seq}`,
    seq,
    method,
    url: `${origin}${path}`,
    requestHeaders,
    requestBody: body === null ? null : { text: body, encoding: 'utf8' },
    status: res.status,
    responseHeaders: Object.fromEntries(res.headers),
    responseBody: text ? { text, encoding: 'utf8' } : null,
    resourceType: form ? 'document' : 'fetch',
    startedAt: Date.now(),
    durationMs: 1,
    pageUrl: `${origin}/page/new`,
  }
}

/** Form fields that became slots: `{{input.pN}}` in the template, a string input each. */
type Slots = Record<string, { field: string; in: 'body' | 'path'; path?: string }>

/**
 * The tool the compiler makes of a recorded write: the request with its slots, `verify` derived
 * from the recorded exchange (shapeTarget's call) and the output of its rule.
 */
function toolOf(
  ex: Exchange,
  name: string,
  urlTemplate: string,
  slots: Slots,
  trace?: Exchange[],
): ToolSpec {
  const answer = parseJsonBody(ex)
  const verify = deriveVerifyRule(inferSchema(answer), answer, { exchange: ex, trace })
  const properties: Record<string, SlotSchema> = {}
  const form: Record<string, string> = {}
  if (ex.requestBody) new URLSearchParams(ex.requestBody.text).forEach((v, k) => (form[k] = v))
  Object.entries(slots).forEach(([input, slot], i) => {
    properties[input] = {
      type: 'string',
      'x-slot': `p${i}`,
      'x-in': slot.in,
      'x-path': slot.path ?? slot.field,
    }
    if (slot.in === 'body') form[slot.field] = `{{input.p${i}}}`
  })
  const body: TemplateBody | null = ex.requestBody ? { kind: 'form', template: form } : null
  const now = Date.now()
  return {
    id: randomUUID(),
    siteHost: host,
    name: `wiki__${name}`,
    capabilityId: `${host}/${name}`,
    intent: name,
    description: name,
    version: '2026.1.1',
    mutating: true,
    status: 'verified',
    inputs: { type: 'object', properties, required: Object.keys(properties) },
    steps: [
      {
        id: 'target',
        request: { method: ex.method, url: urlTemplate, headers: { ...ex.requestHeaders }, body },
        extract: [],
        exchangeId: ex.id,
      },
    ],
    output: outputForRule(verify, inferSchema(answer)),
    verify,
    via: 'http',
    evidence: {
      traceId: 'trc_writes',
      targetExchangeId: ex.id,
      exchangeIds: [ex.id],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: now,
    updatedAt: now,
  }
}

async function run(tool: ToolSpec, inputs: Record<string, unknown>): Promise<Run> {
  if (!core.store.tools.get(tool.id)) core.store.tools.save(tool)
  return core.engine.start(tool, inputs, { tenant: LOCAL_TENANT, allowMutation: true }).done
}

describe('writes that answer no JSON succeed on their declared outcome', () => {
  it('a DELETE answering 204 No Content succeeds, its empty body never parsed', async () => {
    const ex = await record('DELETE', '/api/notes/n1')
    expect(ex.status).toBe(204)
    const tool = toolOf(ex, 'delete_note', `${origin}/api/notes/{{input.p0}}`, {
      note: { field: 'note', in: 'path', path: '2' },
    })
    expect(tool.verify).toEqual({ status: [200, 299], mimeType: '*', required: [] })
    expect(await run(tool, { note: 'n2' })).toMatchObject({
      status: 'succeeded',
      result: { status: 204 },
    })
    expect(state.notes.has('n2')).toBe(false)
    // The note is gone now: the site's 404 is not_found, never a success.
    expect(await run(tool, { note: 'n2' })).toMatchObject({
      status: 'failed',
      error: { code: 'not_found' },
    })
  })

  it('a write answering text/plain "OK" succeeds with the text as its result', async () => {
    const ex = await record('POST', '/notes/n1/pin', { pinned: 'yes' })
    const tool = toolOf(ex, 'pin_note', `${origin}/notes/{{input.p0}}/pin`, {
      note: { field: 'note', in: 'path', path: '1' },
    })
    expect(tool.verify).toMatchObject({ status: [200, 299], mimeType: 'text/plain' })
    expect(await run(tool, { note: 'n2' })).toMatchObject({
      status: 'succeeded',
      result: { status: 200, text: 'OK' },
    })
  })

  it('a form post answering 303 to the new page succeeds; to /login it fails session_or_permission', async () => {
    const ex = await record('POST', '/page/new', { title: 'Release notes', text: 'v1' })
    expect(ex.status).toBe(303)
    const tool = toolOf(ex, 'create_page', `${origin}/page/new`, {
      title: { field: 'title', in: 'body' },
    })
    expect(tool.verify).toEqual({
      status: [300, 399],
      mimeType: '*',
      required: [],
      redirect: { path: '/page/*' },
    })
    expect(await run(tool, { title: 'Roadmap' })).toMatchObject({
      status: 'succeeded',
      result: { status: 303, location: `${origin}/page/Roadmap` },
    })
    expect(state.pages.has('Roadmap')).toBe(true)

    state.signedIn = false
    const signedOut = await run(tool, { title: 'Later' })
    expect(signedOut).toMatchObject({
      status: 'failed',
      error: { code: 'session_or_permission', message: expect.stringContaining('/login') },
    })
    expect(state.pages.has('Later')).toBe(false)
  })

  it("reads the redirect's page back: it must show the text the run wrote", async () => {
    const post = await record('POST', '/page/new', { title: 'Release notes', text: 'First cut' }, 2)
    const page = await record(
      'GET',
      new URL(post.responseHeaders.location!, origin).pathname,
      null,
      3,
    )
    expect(page.responseBody?.text).toContain('First cut')
    const tool = toolOf(
      post,
      'create_page_read_back',
      `${origin}/page/new`,
      { title: { field: 'title', in: 'body' }, text: { field: 'text', in: 'body' } },
      [post, page],
    )
    expect(tool.verify.redirect).toEqual({
      path: '/page/*',
      shows: [
        { in: 'body', path: 'title' },
        { in: 'body', path: 'text' },
      ],
    })
    state.requests = []
    expect(await run(tool, { title: 'Roadmap', text: 'Ship the second cut in May' })).toMatchObject(
      {
        status: 'succeeded',
        result: { status: 303, location: `${origin}/page/Roadmap`, title: 'Roadmap - Wiki' },
      },
    )
    expect(state.requests).toEqual(['POST /page/new', 'GET /page/Roadmap'])
    // Acknowledged, but the text did not land: the page says so, the run is not verified.
    state.dropText = true
    expect(await run(tool, { title: 'Budget', text: 'Spend less on coffee' })).toMatchObject({
      status: 'failed',
      error: {
        code: 'outcome_not_verified',
        message: expect.stringContaining('does not show "Spend less on coffee"'),
      },
    })
  })

  it('a write recorded answering its page that redirects this time is judged on the page it lands on', async () => {
    state.pages.set('Budget draft', 'Numbers')
    const ex = await record('POST', '/page/rename', {
      page: 'Budget draft',
      new_name: 'Budget 2027',
      from: 'editor',
    })
    expect(ex.status).toBe(200)
    const slots = {
      page: { field: 'page', in: 'body' as const },
      new_name: { field: 'new_name', in: 'body' as const },
    }
    const document = deriveDocumentRule(undefined, { exchange: ex })
    const tool: ToolSpec = {
      ...toolOf(ex, 'rename_page', `${origin}/page/rename`, slots),
      verify: document.verify,
      output: document.output,
      result: { kind: 'document', page: true },
    }
    // The tool posts without the editor's context: the site redirects to the renamed page.
    delete (tool.steps[0]!.request.body as { template: Record<string, string> }).template.from
    state.pages.set('Roadmap', 'Plans')
    state.requests = []
    expect(await run(tool, { page: 'Roadmap', new_name: 'Roadmap 2028' })).toMatchObject({
      status: 'succeeded',
      result: { title: 'Roadmap 2028 - Wiki', text: expect.stringContaining('Plans') },
    })
    expect(state.requests).toEqual(['POST /page/rename', 'GET /page/Roadmap_2028'])
    // A redirect to the sign-in page is no landing page.
    state.signedIn = false
    expect(await run(tool, { page: 'Roadmap 2028', new_name: 'Later' })).toMatchObject({
      status: 'failed',
      error: { code: 'session_or_permission' },
    })
  })

  it('a form shown again with a token error instead of the redirect fails session_or_permission', async () => {
    const ex = await record('POST', '/page/new', { title: 'Release notes', text: 'v1' })
    const tool = toolOf(ex, 'create_page_again', `${origin}/page/new`, {
      title: { field: 'title', in: 'body' },
    })
    state.formTokenError = true
    expect(await run(tool, { title: 'Roadmap' })).toMatchObject({
      status: 'failed',
      error: {
        code: 'session_or_permission',
        message: expect.stringContaining('Security Token did not match'),
      },
    })
  })
})

describe('a read answered by a redirect', () => {
  it('is compiled to read the page the redirect led to, and the run reads it there', async () => {
    state.pages.set('Budget 2027', 'Numbers')
    state.pages.set('Roadmap', 'Plans')
    const post = await record('POST', '/pages/filter', { q: 'Budget' }, 2)
    expect(post.status).toBe(302)
    const landing = await record('GET', '/pages', null, 3)
    const compiled = compileTrace(
      {
        id: 'trc_filter',
        intent: 'find the wiki pages whose title contains Budget',
        startUrl: `${origin}/pages`,
        createdAt: Date.now(),
        exchanges: [post, { ...landing, resourceType: 'document' }],
        actions: [
          {
            seq: 1,
            kind: 'fill',
            at: post.startedAt - 10,
            pageUrl: `${origin}/pages`,
            selector: '[name=q]',
            role: 'textbox',
            name: 'Title contains',
            value: 'Budget',
            fieldName: 'q',
            inputType: 'text',
          },
        ],
        storageState: null,
      },
      { toolId: randomUUID(), now: Date.now(), targetModel: null },
    )
    if (!compiled.ok) throw new Error(compiled.explanation.reason)
    const tool = compiled.candidate
    expect(tool.mutating).toBe(false)
    expect(tool.result).toEqual({ kind: 'document', page: true })
    const slot = Object.keys(tool.inputs.properties).find(
      (k) => tool.inputs.properties[k]!['x-path'] === 'q',
    )!
    state.requests = []
    const result = await run(tool, { [slot]: 'Road' })
    expect(result).toMatchObject({
      status: 'succeeded',
      result: { title: 'Pages - Wiki', text: expect.stringContaining('Roadmap') },
    })
    expect(JSON.stringify(result.result)).not.toContain('Budget')
    expect(state.requests).toEqual(['POST /pages/filter', 'GET /pages'])
  })
})

describe('action APIs that answer errors with HTTP 200', () => {
  it('MediaWiki api.php: an edit succeeds; badtoken fails session_or_permission with the site message', async () => {
    const ex = await record('POST', '/w/api.php', {
      action: 'edit',
      format: 'json',
      title: 'Sandbox',
      text: 'Hello',
      token: 'tok-1',
    })
    const tool = toolOf(ex, 'edit_page', `${origin}/w/api.php`, {
      title: { field: 'title', in: 'body' },
    })
    expect(tool.verify.errorShapes).toContainEqual({ path: 'error' })
    expect(await run(tool, { title: 'Other' })).toMatchObject({
      status: 'succeeded',
      result: { edit: { result: 'Success', title: 'Other' } },
    })
    // The session changed: the recorded token is stale, and the site still answers 200.
    state.token = 'tok-2'
    const stale = await run(tool, { title: 'Other' })
    expect(stale).toMatchObject({
      status: 'failed',
      error: {
        code: 'session_or_permission',
        message: 'The site answered HTTP 200 with an error (badtoken): Invalid CSRF token.',
      },
    })
  })

  it('MediaWiki api.php: deleting a missing page (missingtitle) fails not_found', async () => {
    const ex = await record('POST', '/w/api.php', {
      action: 'delete',
      format: 'json',
      title: 'Main Page',
      token: 'tok-1',
    })
    expect(JSON.parse(ex.responseBody!.text)).toMatchObject({ delete: { title: 'Main Page' } })
    const tool = toolOf(ex, 'delete_page', `${origin}/w/api.php`, {
      title: { field: 'title', in: 'body' },
    })
    expect(await run(tool, { title: 'No such page' })).toMatchObject({
      status: 'failed',
      error: {
        code: 'not_found',
        message: expect.stringContaining("(missingtitle): The page you specified doesn't exist."),
      },
    })
  })

  it('WordPress admin-ajax: 0 and -1 fail session_or_permission, success:false fails with its data', async () => {
    const ex = await record('POST', '/wp-admin/admin-ajax.php', {
      action: 'quick-draft',
      _ajax_nonce: 'tok-1',
      post_title: 'Hello',
    })
    const tool = toolOf(ex, 'save_draft', `${origin}/wp-admin/admin-ajax.php`, {
      title: { field: 'post_title', in: 'body' },
    })
    expect(await run(tool, { title: 'Second' })).toMatchObject({
      status: 'succeeded',
      result: { success: true, data: { title: 'Second' } },
    })

    state.token = 'tok-2'
    expect(await run(tool, { title: 'Third' })).toMatchObject({
      status: 'failed',
      error: { code: 'session_or_permission', message: expect.stringContaining('-1') },
    })
    state.signedIn = false
    expect(await run(tool, { title: 'Third' })).toMatchObject({
      status: 'failed',
      error: { code: 'session_or_permission', message: expect.stringContaining('signed out') },
    })
    state.signedIn = true
    state.token = 'tok-1'
    expect(await run(tool, { title: '' })).toMatchObject({
      status: 'failed',
      error: {
        code: 'upstream_error',
        message: expect.stringContaining('The title may not be empty.'),
      },
    })
    expect(state.pages.has('Third')).toBe(false)
  })
})

describe('a redirect rule in a real Chromium (the page follows redirects itself)', () => {
  let pool: BrowserPool<BrowserContext>
  beforeAll(() => {
    pool = createBrowserPool({ chromiumPath: () => '/usr/bin/chromium' })
  })
  afterAll(async () => {
    await pool.close()
  })

  it('judges the redirect a page fetch followed: to the new page succeeds, to /login fails', async () => {
    const ex = await record('POST', '/page/new', { title: 'Release notes', text: 'v1' })
    const tool: ToolSpec = {
      ...toolOf(ex, 'create_page_rendered', `${origin}/page/new`, {
        title: { field: 'title', in: 'body' },
      }),
      via: 'rendered',
    }
    const execute = createRenderedExecutor({ pool })
    const signal = new AbortController().signal
    expect(await execute(tool, { 'input.p0': 'Rendered' }, { login: null }, signal)).toEqual({
      ok: true,
      result: { status: 302, location: `${origin}/page/Rendered` },
    })
    expect(state.pages.has('Rendered')).toBe(true)
    state.signedIn = false
    expect(await execute(tool, { 'input.p0': 'Later' }, { login: null }, signal)).toMatchObject({
      ok: false,
      code: 'session_or_permission',
    })
  })

  it('reads back the page the fetch followed: it must show the text the run wrote', async () => {
    const post = await record('POST', '/page/new', { title: 'Release notes', text: 'First cut' }, 2)
    const page = await record('GET', '/page/Release_notes', null, 3)
    const tool: ToolSpec = {
      ...toolOf(
        post,
        'create_page_rendered_read_back',
        `${origin}/page/new`,
        { title: { field: 'title', in: 'body' }, text: { field: 'text', in: 'body' } },
        [post, page],
      ),
      via: 'rendered',
    }
    const execute = createRenderedExecutor({ pool })
    const signal = new AbortController().signal
    const inputs = { 'input.p0': 'Shown', 'input.p1': 'Written in Chromium' }
    expect(await execute(tool, inputs, { login: null }, signal)).toEqual({
      ok: true,
      result: { status: 302, location: `${origin}/page/Shown`, title: 'Shown - Wiki' },
    })
    state.dropText = true
    expect(await execute(tool, inputs, { login: null }, signal)).toMatchObject({
      ok: false,
      code: 'outcome_not_verified',
    })
  })
})
