import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Action, Exchange, StorageState, Trace } from '../../../src/shared/trace'

const ORIGIN = 'https://shop.example.com'
const T0 = 1_700_000_000_000

/** A trace written exchange by exchange, with the headers and storage the dependency rules read. */
function build() {
  const exchanges: Exchange[] = []
  const actions: Action[] = []
  let clock = T0
  const tick = () => (clock += 100)
  const b = {
    now: () => clock,
    exchange(
      method: string,
      path: string,
      o: {
        headers?: Record<string, string>
        body?: unknown
        response?: unknown
        html?: string
        setCookie?: string[]
        type?: string
      } = {},
    ) {
      const responseText = o.html ?? (o.response === undefined ? '' : JSON.stringify(o.response))
      exchanges.push({
        id: `exc_${exchanges.length + 1}`,
        seq: exchanges.length + 1,
        method,
        url: `${ORIGIN}${path}`,
        requestHeaders: {
          accept: '*/*',
          cookie: 'sid=s3ss10n-cookie',
          ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...o.headers,
        },
        requestBody:
          o.body === undefined ? null : { text: JSON.stringify(o.body), encoding: 'utf8' },
        status: method === 'POST' ? 201 : 200,
        responseHeaders: {
          'content-type': o.html ? 'text/html; charset=utf-8' : 'application/json',
          ...(o.setCookie ? { 'set-cookie': o.setCookie.join('\n') } : {}),
        },
        responseBody: responseText ? { text: responseText, encoding: 'utf8' } : null,
        resourceType: o.type ?? (o.html ? 'document' : 'fetch'),
        startedAt: tick(),
        durationMs: 10,
        pageUrl: `${ORIGIN}/orders`,
      })
      return b
    },
    noise() {
      b.exchange('GET', '/static/app.css', { type: 'stylesheet' })
      b.exchange('POST', '/collect', { type: 'ping', body: { ev: 'view' } })
      b.exchange('GET', '/locales/en.json', {
        response: {
          'nav.home': 'Home',
          'nav.orders': 'Orders',
          'a.b': 'c',
          'd.e': 'f',
          'g.h': 'i',
        },
      })
      return b
    },
    fill(name: string, value: string, options?: string[]) {
      actions.push({
        seq: actions.length + 1,
        kind: options ? 'select' : 'fill',
        at: tick(),
        pageUrl: `${ORIGIN}/orders`,
        selector: `[name=${name}]`,
        role: options ? 'combobox' : 'textbox',
        name,
        value,
        fieldName: name,
        ...(options ? { options } : {}),
      })
      return b
    },
    click(name: string) {
      actions.push({
        seq: actions.length + 1,
        kind: 'click',
        at: tick(),
        pageUrl: `${ORIGIN}/orders`,
        selector: 'button',
        role: 'button',
        name,
        value: null,
      })
      return b
    },
    build(intent: string, storageState: StorageState | null = SESSION): Trace {
      return {
        id: 'trc_DEPS',
        intent,
        startUrl: `${ORIGIN}/orders`,
        createdAt: T0,
        exchanges,
        actions,
        storageState,
      }
    },
  }
  return b
}

const SESSION: StorageState = {
  cookies: [
    { name: 'sid', value: 's3ss10n-cookie', domain: 'shop.example.com', path: '/', expires: -1 },
  ],
  origins: [],
}

function compile(trace: Trace): ToolSpec {
  const result = compileTrace(trace, { toolId: '00000000-0000-4000-8000-000000000001', now: T0 })
  if (!result.ok) throw new Error(JSON.stringify(result.explanation))
  return result.candidate
}

const ORDERS_PAGE = (token: string) =>
  `<!doctype html><html><head><meta name="csrf-token" content="${token}"><title>Orders</title></head><body><form><input name="item"></form></body></html>`

describe('dependencies', () => {
  it('fetches the CSRF token of a <meta> anew, binds the session cookie to the login and generates per-request values', () => {
    const b = build()
    b.exchange('GET', '/orders', { html: ORDERS_PAGE('csrf-Tok3n-0001') }).noise()
    b.fill('item', 'teapot')
      .fill('quantity', '2')
      .fill('shipping', 'express', ['standard', 'express'])
    b.click('Create order')
    const requestId = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
    b.exchange('POST', `/api/orders?ts=${b.now() + 100}`, {
      headers: { 'x-csrf-token': 'csrf-Tok3n-0001', 'x-request-id': requestId },
      body: { item: 'teapot', quantity: 2, shipping: 'express' },
      response: { order: { id: 'ord_1', item: 'teapot', quantity: 2, shipping: 'express' } },
    })
    const tool = compile(b.build('create an order'))

    expect(tool.steps.map((s) => `${s.request.method} ${new URL(s.request.url).pathname}`)).toEqual(
      ['GET /orders', 'POST /api/orders'],
    )
    const [page, target] = tool.steps
    expect(page!.extract).toEqual([{ name: 'csrf_token', from: 'meta', path: 'csrf-token' }])
    expect(target!.request.headers['x-csrf-token']).toBe(`{{step.${page!.id}.csrf_token}}`)
    expect(target!.request.headers['x-request-id']).toBe('{{gen.uuid}}')
    expect(target!.request.url).toContain('ts={{gen.now_ms}}')
    expect(target!.request.headers.cookie).toBeUndefined()
    expect(tool.login).toEqual({ cookies: ['sid'], values: [] })
    expect(Object.keys(tool.inputs.properties).sort()).toEqual(['item', 'quantity', 'shipping'])
    expect(Object.values(tool.inputs.properties).map((p) => p['x-slot'])).toEqual([
      'p0',
      'p1',
      'p2',
    ])
    expect(tool.evidence.exchangeIds).toEqual(['exc_1', 'exc_5'])
    expect(tool.mutating).toBe(true)
  })

  it('follows a chain of three steps: config ► session token ► search', () => {
    const b = build()
    b.exchange('GET', '/api/bootstrap', { response: { apiKey: 'pk_live_7788aa' } }).noise()
    b.exchange('GET', '/api/session?key=pk_live_7788aa', {
      response: { session: { token: 'st_99xx11zz' } },
    })
    b.exchange('GET', '/api/grant', {
      headers: { 'x-session-token': 'st_99xx11zz' },
      response: { grant: 'gr_abcdef12' },
    })
    b.fill('q', 'teapots').click('Search')
    b.exchange('POST', '/api/search', {
      headers: { 'x-grant': 'gr_abcdef12' },
      body: { q: 'teapots', limit: 20 },
      response: { hits: [{ id: 1, name: 'teapots deluxe' }], total: 1 },
    })
    const tool = compile(b.build('search the shop'))
    const paths = tool.steps.map((s) => new URL(s.request.url).pathname)
    expect(paths).toEqual(['/api/bootstrap', '/api/session', '/api/grant', '/api/search'])
    expect(tool.steps[1]!.request.url).toBe(`${ORIGIN}/api/session?key={{step.d1.api_key}}`)
    expect(tool.steps[2]!.request.headers['x-session-token']).toBe('{{step.d5.token}}')
    expect(tool.steps[2]!.request.headers['x-session-token']).toBe(
      `{{step.${tool.steps[1]!.id}.${tool.steps[1]!.extract[0]!.name}}}`,
    )
    expect(tool.steps[1]!.extract[0]).toMatchObject({ from: 'json', path: 'session.token' })
    expect(tool.steps[3]!.request.headers['x-grant']).toMatch(/^\{\{step\.d6\./)
    expect(tool.mutating).toBe(false)
  })

  it('binds a bearer token kept in localStorage to the login instead of the sign-in request', () => {
    const b = build()
    b.exchange('POST', '/api/token', {
      body: { username: 'alice', password: '[sitecall:secret]' },
      response: { token: 'eyJhbGciOi.jwt-payload.sig' },
    })
    b.noise().fill('status', 'open').click('Filter')
    b.exchange('GET', '/api/spa/orders?status=open', {
      headers: { authorization: 'Bearer eyJhbGciOi.jwt-payload.sig' },
      response: { orders: [{ id: 'o1', status: 'open' }], count: 1 },
    })
    const trace = b.build('list my open orders', {
      cookies: [],
      origins: [
        {
          origin: ORIGIN,
          localStorage: [{ name: 'auth', value: '{"token":"eyJhbGciOi.jwt-payload.sig"}' }],
        },
      ],
    })
    const tool = compile(trace)
    expect(tool.steps).toHaveLength(1)
    expect(tool.steps[0]!.request.headers.authorization).toBe('Bearer {{login.token}}')
    expect(tool.login?.values).toEqual([
      { name: 'token', from: 'localStorage', origin: ORIGIN, key: 'auth', path: 'token' },
    ])
  })

  it('rebuilds an Authorization credential the page composed from stored fields (Session base64(login:id:session))', () => {
    const session = '84991c24b6e01d4addf4956fad5389565860de8e'
    const credential = Buffer.from(`alice:7:${session}`).toString('base64')
    const b = build()
    b.noise().fill('status', 'open').click('Filter')
    b.exchange('POST', '/rpc', {
      headers: { authorization: `Session ${credential}` },
      body: { method: 'orders.search', params: [['status', '=', 'open']] },
      response: { result: [1, 2] },
    })
    const trace = b.build('list my open orders', {
      cookies: [],
      origins: [
        {
          origin: ORIGIN,
          localStorage: [
            { name: 'theme', value: '{"dark":true}' },
            { name: 'app_session', value: JSON.stringify({ login: 'alice', user_id: 7, session }) },
          ],
        },
      ],
    })
    const tool = compile(trace)
    expect(tool.steps.at(-1)!.request.headers.authorization).toBe('Session {{login.app_session}}')
    expect(tool.login?.values).toEqual([
      {
        name: 'app_session',
        from: 'localStorage',
        origin: ORIGIN,
        key: 'app_session',
        path: '',
        compose: { paths: ['login', 'user_id', 'session'], separator: ':', encoding: 'base64' },
      },
    ])
  })

  it("reads a write's lock timestamp from the read of the record it writes, at a key with dots in positional params", () => {
    const stamp = '1796096474'
    const read = (model: string, id: number, name: string) => ({
      body: { method: `model.${model}.read`, params: [[id], ['name', '_timestamp'], {}] },
      response: { result: [{ id, name, _timestamp: stamp }] },
    })
    const b = build()
    b.noise()
    b.exchange('POST', '/rpc', read('party', 3, 'Globex Industries'))
    // Read later, and holding the same timestamp (all records were seeded at once).
    b.exchange('POST', '/rpc', read('category', 4, 'Supplier'))
    b.fill('name', 'Globex Corporation').click('Save')
    b.exchange('POST', '/rpc', {
      body: {
        method: 'model.party.write',
        params: [[3], { name: 'Globex Corporation' }, { _timestamp: { 'party.party,3': stamp } }],
      },
      response: { result: null },
    })
    const tool = compile(b.build('rename the party Globex Industries to Globex Corporation'))
    const target = tool.steps.at(-1)!.request.body as { template: { params: unknown[] } }
    const lock = (target.template.params[2] as { _timestamp: Record<string, string> })._timestamp
    const placeholder = /^\{\{step\.(d\d+)\.(\w+)\}\}$/.exec(lock['party.party,3']!)
    expect(placeholder, JSON.stringify(lock)).not.toBeNull()
    const step = tool.steps.find((s) => s.id === placeholder![1])!
    expect(JSON.stringify(step.request.body)).toContain('model.party.read')
    expect(step.extract.find((e) => e.name === placeholder![2])?.path).toMatch(/\._timestamp$/)
  })

  it('binds a multipart field that repeats the session cookie to the login and keeps the button pressed', () => {
    const b = build()
    b.fill('text', 'Status: amber').click('Save Page')
    // A CGI::Session id: hex, so no input (it looks made per request), a constant to bind.
    const session = 'e259d195014a4bbe958053839caf6225'
    const trace = b.build('change the page team_status to say Status: amber', {
      cookies: [
        {
          name: 'wiki_session',
          value: session,
          domain: 'shop.example.com',
          path: '/',
          expires: -1,
        },
      ],
      origins: [],
    })
    const boundary = '----WebKitFormBoundaryX1'
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    trace.exchanges.push({
      ...structuredClone(trace.exchanges[0] ?? ({} as Exchange)),
      id: 'exc_1',
      seq: 1,
      method: 'POST',
      url: `${ORIGIN}/wiki.cgi`,
      startedAt: b.now() + 50,
      requestHeaders: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: `wiki_session=${session}`,
      },
      requestBody: {
        text: `${part('do', 'edit')}${part('sid', session)}${part('page', 'team_status')}${part('text', 'Status: amber')}${part('_submit', 'Save Page')}--${boundary}--\r\n`,
        encoding: 'utf8',
      },
      status: 302,
      responseHeaders: { location: '/team_status/' },
      responseBody: { text: '', encoding: 'utf8' },
    } as Exchange)
    const tool = compile(trace)
    const body = tool.steps.at(-1)!.request.body
    expect(body?.kind).toBe('text')
    const text = (body as { template: string }).template
    expect(text).toContain('name="sid"\r\n\r\n{{login.')
    expect(text).not.toContain(session)
    // The button pressed (Save, not Preview) is part of what the request does: never an input.
    expect(text).toContain('name="_submit"\r\n\r\nSave Page\r\n')
    expect(text).toContain(`--${boundary}--`)
  })

  it('reads a form token from the page a sign-in interposed itself before, not from the sign-in', () => {
    const b = build()
    // Asked for the editor signed out: the site answered its sign-in form instead.
    b.exchange('GET', '/wiki.cgi?do=edit&page=team_status', {
      html: '<form method="post"><input name="name"><input type="password" name="password"></form>',
    })
    // The sign-in's answer is the editor the person asked for, with the page's revision in it.
    b.exchange('POST', '/wiki.cgi', {
      body: { do: 'signin', name: 'alice', password: '[sitecall:secret]' },
      html: '<form method="post"><input type="hidden" name="rcsinfo" value="dbd597d8a8904edd46aac3b3d61a0dac136eea0f"><textarea name="editcontent"></textarea></form>',
    })
    b.fill('editcontent', 'Status: amber').click('Save Page')
    b.exchange('POST', '/wiki.cgi', {
      body: {
        do: 'edit',
        page: 'team_status',
        rcsinfo: 'dbd597d8a8904edd46aac3b3d61a0dac136eea0f',
        editcontent: 'Status: amber',
      },
      response: { saved: true },
    })
    const tool = compile(b.build("change the wiki page team_status to say 'Status: amber'"))
    expect(tool.steps).toHaveLength(2)
    expect(tool.steps[0]!.request.method).toBe('GET')
    expect(tool.steps[0]!.request.url).toContain('do=edit')
    const body = tool.steps[1]!.request.body as { template: Record<string, unknown> }
    expect(body.template.rcsinfo).toBe(`{{step.${tool.steps[0]!.id}.rcsinfo}}`)
    expect(tool.evidence.signals.map((x) => x.name)).toContain('page_behind_sign_in')
  })

  it('keeps a cookie that a dependency step sets out of the login (the run jar receives it)', () => {
    const b = build()
    b.exchange('GET', '/form', {
      html: '<html><body><form><input type="hidden" name="authenticity_token" value="at-5566778899"></form></body></html>',
      setCookie: ['_csrf=c00kie-csrf-1; Path=/; HttpOnly'],
    })
    b.fill('item', 'kettle').click('Save')
    const trace = b.build('save an item')
    trace.exchanges.push({
      ...trace.exchanges[0]!,
      id: 'exc_2',
      seq: 2,
      method: 'POST',
      url: `${ORIGIN}/items`,
      requestHeaders: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'sid=s3ss10n-cookie; _csrf=c00kie-csrf-1',
      },
      requestBody: { text: 'authenticity_token=at-5566778899&item=kettle', encoding: 'utf8' },
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: { text: '{"item":{"id":7,"name":"kettle"}}', encoding: 'utf8' },
      resourceType: 'fetch',
      startedAt: T0 + 10_000,
    })
    const tool = compile(trace)
    expect(tool.steps[0]!.extract).toEqual([
      { name: 'authenticity_token', from: 'input', path: 'authenticity_token' },
    ])
    expect(tool.steps[1]!.request.body).toEqual({
      kind: 'form',
      template: { authenticity_token: '{{step.d1.authenticity_token}}', item: '{{input.p0}}' },
    })
    expect(tool.login).toEqual({ cookies: ['sid'], values: [] })
  })

  it('reads a token masked anew for every form at the place of the form submitted, never a row list', () => {
    const b = build()
    b.exchange('GET', '/edit', {
      headers: { referer: `${ORIGIN}/orders?page=2` },
      html:
        '<html><body><form action="/logout" method="post"><input type="hidden" name="token" value="4711:90210"></form>' +
        '<form action="/edit" method="post"><input name="item"><input type="hidden" name="token" value="1234:56789">' +
        '<input type="checkbox" name="check[]" value="row-000001"><input type="checkbox" name="check[]" value="row-000002"></form></body></html>',
    })
    b.fill('item', 'kettle').click('Save')
    const trace = b.build('save an item')
    trace.exchanges.push({
      ...trace.exchanges[0]!,
      id: 'exc_2',
      seq: 2,
      method: 'POST',
      url: `${ORIGIN}/edit`,
      requestHeaders: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'sid=s3ss10n-cookie',
      },
      requestBody: {
        text: 'item=kettle&token=1234%3A56789&check%5B%5D=row-000002',
        encoding: 'utf8',
      },
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: { text: '{"item":{"id":7,"name":"kettle"}}', encoding: 'utf8' },
      resourceType: 'fetch',
      startedAt: T0 + 10_000,
    })
    const tool = compile(trace)
    expect(tool.steps[0]!.extract).toContainEqual({
      name: 'token',
      from: 'input',
      path: 'token',
      index: 1,
    })
    const body = tool.steps[1]!.request.body as { kind: 'form'; template: Record<string, string> }
    expect(body.template.token).toBe('{{step.d1.token}}')
    // The row the person ticked is theirs, not the page's to hand out again.
    expect(body.template['check[]']).not.toMatch(/step\./)
  })

  it('sends the page read before the target with the Referer cut to the origin, a read target without', () => {
    const headers = { referer: `${ORIGIN}/orders?page=2` }
    const b = build()
    b.exchange('GET', '/orders', { headers, html: ORDERS_PAGE('csrf-7788990011') })
    b.fill('item', 'kettle').click('Trash')
    const trace = b.build('trash the kettle')
    trace.exchanges.push({
      ...trace.exchanges[0]!,
      id: 'exc_2',
      seq: 2,
      url: `${ORIGIN}/trash?item=kettle`,
      requestHeaders: {
        ...headers,
        'x-csrf-token': 'csrf-7788990011',
        cookie: 'sid=s3ss10n-cookie',
      },
      startedAt: T0 + 10_000,
    })
    const tool = compile(trace)
    // Pages build forms and return links from the Referer (Shaarli's `returnurl`).
    expect(tool.steps[0]!.request.headers.referer).toBe(`${ORIGIN}/`)
    // A GET that writes redirects to it: the recorded page, never the origin.
    expect(tool.steps[1]!.request.headers.referer).toBeUndefined()
  })

  it("keeps a write's Referer path when the form posted to its own page (Xymon's admin CGIs check it), never its query", () => {
    const b = build()
    b.fill('cause', 'patching').click('Apply')
    b.exchange('POST', '/xymon-seccgi/enadis.sh', {
      headers: { referer: `${ORIGIN}/xymon-seccgi/enadis.sh?host=web01` },
      body: { hostname: 'web01', cause: 'patching' },
      response: { ok: true },
    })
    const own = compile(b.build('disable web01 because patching')).steps.at(-1)!
    expect(own.request.headers.referer).toBe(`${ORIGIN}/xymon-seccgi/enadis.sh`)
    const other = build()
    other.fill('cause', 'patching').click('Apply')
    other.exchange('POST', '/api/disable', {
      headers: { referer: `${ORIGIN}/hosts/web01?tab=tests` },
      body: { hostname: 'web01', cause: 'patching' },
      response: { ok: true },
    })
    const elsewhere = compile(other.build('disable web01 because patching')).steps.at(-1)!
    expect(elsewhere.request.headers.referer).toBe(`${ORIGIN}/`)
  })

  it('traces ids in the URL path to the answers that handed them out, as a chain of steps', () => {
    const b = build()
    b.exchange('GET', '/api/me', { response: { id: 'usr_81f2', accountId: 'acc_7Hq2Lm' } }).noise()
    b.exchange('GET', '/api/accounts/acc_7Hq2Lm/workspaces', {
      response: { workspaces: [{ id: 'ws_93Kd0aPq', name: 'Main' }] },
    })
    b.fill('q', 'roadmap').click('Search')
    b.exchange('GET', '/api/workspaces/ws_93Kd0aPq/documents?q=roadmap', {
      response: { documents: [{ id: 'p_1', title: 'roadmap 2026' }] },
    })
    const tool = compile(b.build('search my notes'))
    expect(tool.steps.map((s) => s.request.url)).toEqual([
      `${ORIGIN}/api/me`,
      `${ORIGIN}/api/accounts/{{step.d1.account_id}}/workspaces`,
      `${ORIGIN}/api/workspaces/{{step.d5.workspace_id}}/documents?q={{input.p0}}`,
    ])
    expect(tool.steps[1]!.extract).toEqual([
      { name: 'workspace_id', from: 'json', path: 'workspaces[0].id' },
    ])
    expect(Object.keys(tool.inputs.properties)).toEqual(['q'])
    expect(tool.evidence.signals.map((s) => s.detail)).toContain(
      'path segment 2 ("ws_93Kd0aPq") comes from json workspaces[0].id of GET /api/accounts/acc_7Hq2Lm/workspaces',
    )
  })

  it('leaves a path slot, a word and an id no answer gave as they are (never generated)', () => {
    const b = build()
    const uuid = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
    b.exchange('GET', '/api/catalog', {
      response: { catalogs: [{ id: 'cat_2024x' }], hint: 'kettle99' },
    }).noise()
    b.fill('term', 'kettle99').click('Search')
    b.exchange('GET', `/api/catalogs/${uuid}/search/kettle99`, {
      response: { items: [{ id: 1, name: 'kettle99 steel' }] },
    })
    const tool = compile(b.build('search the catalog'))
    expect(tool.steps).toHaveLength(1)
    expect(tool.steps[0]!.request.url).toBe(`${ORIGIN}/api/catalogs/${uuid}/search/{{input.p0}}`)
    expect(tool.inputs.properties['term']).toMatchObject({ 'x-in': 'path', 'x-path': '4' })
  })

  it('never revalidates a read with the ETag an earlier answer gave (a run would get an empty 304)', () => {
    const conId = 'U:15874114cfbb95e3:0'
    const b = build().exchange('GET', '/connections', { response: { connections: [{ conId }] } })
    b.build('x').exchanges[0]!.responseHeaders['etag'] = 'W/"8f-Yc2eQx"'
    b.exchange('GET', '/connections', {
      headers: { 'if-none-match': 'W/"8f-Yc2eQx"' },
      response: { connections: [{ conId }] },
    })
      .click('Server info')
      .exchange('GET', `/apiv2/server/${encodeURIComponent(conId)}/info`, {
        response: { redis_version: '7.0.15', uptime_in_seconds: 3600 },
      })
    const steps = compile(b.build('show the server info')).steps
    expect(steps.flatMap((s) => s.extract).some((x) => x.from === 'header')).toBe(false)
    expect(steps.some((s) => 'if-none-match' in s.request.headers)).toBe(false)
    expect(steps.at(-1)!.request.url).toMatch(/\/apiv2\/server\/\{\{step\.d\d+\.con_id\}\}\/info$/)
  })
})
