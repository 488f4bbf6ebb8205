/**
 * Values a request sends inside a longer value or that a clicked link names with more than its
 * key: a queue inside a query language, text typed into a rich-text editor and sent as HTML, an
 * account picked by a link that reads `name@host` while the path carries `name`, and (a plain
 * HAR, no clicks recorded) the same link read back from the page it was on.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { intentValues } from '../../../src/main/compiler/intentValues'
import { linkFollows } from '../../../src/main/compiler/linkFollows'
import { renderRequest } from '../../../src/main/engine/template'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = {
  toolId: '00000000-0000-4000-8000-0000000000e5',
  now: Date.UTC(2026, 10, 30),
  targetModel: null,
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const page = (title: string, body = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

/** The input whose default is `value`, with its placeholder id. */
function inputOf(tool: ToolSpec, value: string): { name: string; slot: string } {
  const found = Object.entries(tool.inputs.properties).find(([, p]) => p.default === value)
  if (!found) throw new Error(`no input defaults to ${value}: ${JSON.stringify(tool.inputs)}`)
  return { name: found[0], slot: found[1]['x-slot'] }
}

/** The target as the engine sends it: each input given, else its default (as the engine fills it). */
function rendered(tool: ToolSpec, inputs: Record<string, string>) {
  const scope: Record<string, unknown> = {}
  for (const [name, p] of Object.entries(tool.inputs.properties))
    scope[`input.${p['x-slot']}`] = inputs[name] ?? p.default
  return renderRequest(tool.steps.at(-1)!.request, scope)
}

describe('a value sent inside a query language', () => {
  const query = "Queue = 'Facilities' AND Status = '__Active__'"
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/', { mime: 'text/html', responseText: page('Home'), type: 'document' })
    .click('Facilities')
    .exchange('GET', `/Search/Results.html?Query=${encodeURIComponent(query)}`, {
      mime: 'text/html',
      responseText: page('Found 3 tickets', '<table><tr><td>Broken chair</td></tr></table>'),
      type: 'document',
    })
    .build("show me the open tickets in the 'Facilities' queue")

  it('is an input named by the field it is compared with; the rest of the query is kept', () => {
    const tool = compiled(trace)
    const { name } = inputOf(tool, 'Facilities')
    expect(name).toBe('Queue')
    expect(tool.inputs.required).toContain('Queue')
    expect(Object.values(tool.inputs.properties).some((p) => p.default === query)).toBe(false)
    const url = new URL(rendered(tool, { Queue: 'Sales & Billing' }).url)
    expect(url.pathname).toBe('/Search/Results.html')
    expect(url.searchParams.get('Query')).toBe(
      "Queue = 'Sales & Billing' AND Status = '__Active__'",
    )
  })
})

describe('text typed into a rich-text editor and sent as HTML', () => {
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/Ticket/Create.html', {
      mime: 'text/html',
      responseText: page(
        'Create a ticket',
        '<form method="post"><textarea name="Content"></textarea></form>',
      ),
      type: 'document',
    })
    .fill('Keyboard missing keys', { name: 'Subject', label: 'Subject' })
    .fill('Three keys & a cap came off.', { name: 'Content', label: 'Message' })
    .submit()
    .exchange('POST', '/Ticket/Create.html', {
      form: new URLSearchParams({
        Subject: 'Keyboard missing keys',
        Content: '<p>Three keys &amp; a cap came off.</p>\r\n\r\n<p>&nbsp;</p>\r\n',
      }).toString(),
      mime: 'text/html',
      responseText: page('Ticket 12 created'),
      type: 'document',
    })
    .build('open a ticket titled Keyboard missing keys')

  it('is an input for the text alone, escaped into the recorded HTML at run time', () => {
    const tool = compiled(trace)
    const { name } = inputOf(tool, 'Three keys & a cap came off.')
    const body = new URLSearchParams(
      rendered(tool, { [name]: 'Screen <flickers> & dims', Subject: 'Screen' }).body ?? '',
    )
    expect(body.get('Content')).toBe(
      '<p>Screen &lt;flickers&gt; &amp; dims</p>\r\n\r\n<p>&nbsp;</p>\r\n',
    )
    expect(body.get('Subject')).toBe('Screen')
  })
})

describe('a form posted back to reload it before the save', () => {
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('POST', '/Ticket/Create.html', {
      form: 'Queue=3&QueueChanged=1&Priority=',
      mime: 'text/html',
      responseText: page('Create a ticket'),
      type: 'document',
    })
    .fill('Keyboard missing keys', { name: 'Subject', label: 'Subject' })
    .submit()
    .exchange('POST', '/Ticket/Create.html', {
      form: 'Queue=3&QueueChanged=0&Priority=20&Subject=Keyboard+missing+keys',
      mime: 'text/html',
      responseText: page('Ticket 12 created'),
      type: 'document',
    })
    .build('open a ticket titled Keyboard missing keys')

  it('sends by default what the save sent, not what the reload did', () => {
    const tool = compiled(trace)
    const body = new URLSearchParams(rendered(tool, { Subject: 'Mouse' }).body ?? '')
    expect(body.get('QueueChanged')).toBe('0')
    expect(body.get('Priority')).toBe('20')
  })
})

const users = page(
  'Users',
  '<ul><li><a href="/server/chat.example.test/user/alice/">alice@chat.example.test</a></li>' +
    '<li><a href="/server/chat.example.test/user/mallory/">mallory@chat.example.test</a></li></ul>',
)
const account = (name: string) =>
  page(
    `User ${name}`,
    '<form method="post"><input type="submit" name="removeuser" value="Remove User"></form>',
  )

describe('an account picked by a link that names more than the path carries', () => {
  const steps = (b: ReturnType<typeof traceBuilder>, clicks: boolean) => {
    b.exchange('GET', '/server/chat.example.test/users/', {
      mime: 'text/html',
      responseText: users,
      type: 'document',
    })
    if (clicks) b.click('mallory@chat.example.test')
    b.exchange('GET', '/server/chat.example.test/user/mallory/', {
      mime: 'text/html',
      responseText: account('mallory'),
      type: 'document',
    })
    if (clicks) b.submit()
    return b
      .exchange('POST', '/server/chat.example.test/user/mallory/', {
        form: 'removeuser=Remove+User',
        mime: 'text/html',
        responseText: page('Users'),
        type: 'document',
      })
      .build('delete the XMPP account mallory')
  }

  it('makes the part the path carries an input, from a recorded click', () => {
    const tool = compiled(steps(traceBuilder('http://127.0.0.1:8080'), true))
    const { slot } = inputOf(tool, 'mallory')
    expect(tool.steps.at(-1)!.request.url).toContain(`/user/{{input.${slot}}}/`)
    expect(tool.steps.at(-1)!.request.url).toContain('/server/chat.example.test/')
  })

  it('and from a plain HAR, where the link is read back from the list page', () => {
    const trace = steps(traceBuilder('http://127.0.0.1:8080'), false)
    expect(trace.actions).toHaveLength(0)
    expect(linkFollows(trace.exchanges)).toEqual([
      expect.objectContaining({
        value: 'mallory@chat.example.test',
        pageUrl: 'http://127.0.0.1:8080/server/chat.example.test/users/',
      }),
    ])
    const tool = compiled(trace)
    const { name } = inputOf(tool, 'mallory')
    const url = rendered(tool, { [name]: 'olaf' }).url
    expect(url).toBe('http://127.0.0.1:8080/server/chat.example.test/user/olaf/')
  })

  it('but not when the intent does not name that part', () => {
    const trace = steps(traceBuilder('http://127.0.0.1:8080'), true)
    const tool = compiled({ ...trace, intent: 'delete the XMPP account I opened' })
    expect(Object.values(tool.inputs.properties).some((p) => p.default === 'mallory')).toBe(false)
  })
})

describe('a quoted value in the intent', () => {
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('POST', '/Prefs/AboutMe.html', {
      form: 'Name=root&RealName=Enoch+Root&Signature=Enoch+Root%2C+IT+helpdesk',
      mime: 'text/html',
      responseText: page('About me'),
      type: 'document',
    })
    .build("set my signature to 'Enoch Root, IT helpdesk'")

  it('is one value: its inner words name no other field', () => {
    const values = intentValues(trace.intent, trace.exchanges).map((v) => v.value)
    expect(values).toContain('Enoch Root, IT helpdesk')
    expect(values).not.toContain('Enoch Root')
    expect(values).not.toContain('root')
  })
})

describe('a password typed into a form that signs nobody in', () => {
  const trace = (typed: boolean) => {
    const b = traceBuilder('http://127.0.0.1:8080').exchange('GET', '/server/users/', {
      mime: 'text/html',
      responseText: page('Users', '<form method="post"><input name="newusername"></form>'),
      type: 'document',
    })
    b.fill('zoe', { name: 'newusername', label: 'Username' })
    if (typed) b.fill(null, { name: 'newuserpassword', label: 'Password', secret: true })
    return b
      .submit()
      .exchange('POST', '/server/users/', {
        form: `newusername=zoe&newuserpassword=${encodeURIComponent('[sitecall:secret]')}&addnewuser=Add+User`,
        mime: 'text/html',
        responseText: page('Users', '<p>zoe@chat.example.test</p>'),
        type: 'document',
      })
      .build('register a new XMPP account zoe with the password Blue-Harbor-58')
  }

  it('is a required write-only input with no default; the sealed placeholder is never sent', () => {
    const tool = compiled(trace(true))
    const [name, slot] = Object.entries(tool.inputs.properties).find(
      ([, p]) => p['x-path'] === 'newuserpassword',
    )!
    expect(slot.writeOnly).toBe(true)
    expect(slot.default).toBeUndefined()
    expect(slot.examples).toBeUndefined()
    expect(tool.inputs.required).toContain(name)
    const body = rendered(tool, { [name]: 'Green-Field-31' }).body ?? ''
    expect(new URLSearchParams(body).get('newuserpassword')).toBe('Green-Field-31')
    expect(JSON.stringify(tool.steps)).not.toContain('sitecall:secret')
  })

  it('while a sealed value the page sent on its own, with no secret typed, stays as recorded', () => {
    const tool = compiled(trace(false))
    expect(
      Object.values(tool.inputs.properties).some((p) => p['x-path'] === 'newuserpassword'),
    ).toBe(false)
  })
})

describe('a secret typed twice, into the field and its confirmation', () => {
  it('is one input sent in both fields, also from a plain HAR of a form', () => {
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('POST', '/users/new', {
        form: `username=nina&password=${encodeURIComponent('[sitecall:secret]')}&password_confirm=${encodeURIComponent('[sitecall:secret]')}`,
        mime: 'text/html',
        responseText: page('Users', '<p>nina</p>'),
        type: 'document',
      })
      .build('create a user nina')
    expect(trace.actions).toHaveLength(0)
    const tool = compiled(trace)
    const secrets = Object.entries(tool.inputs.properties).filter(([, p]) => p.writeOnly === true)
    expect(secrets.map(([, p]) => p['x-path'])).toEqual(['password'])
    const body = new URLSearchParams(
      rendered(tool, { [secrets[0]![0]]: 'Omar-Pass-51' }).body ?? '',
    )
    expect(body.get('password')).toBe('Omar-Pass-51')
    expect(body.get('password_confirm')).toBe('Omar-Pass-51')
  })
})

describe('a menu link whose words name a page', () => {
  it('does not make its path segment a value, though the intent says the word', () => {
    const menu = page('Manager', '<a href="/manager/status">Server Status</a>')
    const trace = traceBuilder('http://127.0.0.1:8080')
      .exchange('GET', '/manager/html', { mime: 'text/html', responseText: menu, type: 'document' })
      .click('Server Status')
      .exchange('GET', '/manager/status', {
        mime: 'text/html',
        responseText: page('Server Status', '<table><tr><td>JVM free memory</td></tr></table>'),
        type: 'document',
      })
      .build("show my Tomcat server's status")
    const tool = compiled(trace)
    expect(tool.steps.at(-1)!.request.url).toBe('http://127.0.0.1:8080/manager/status')
    expect(tool.inputs.required ?? []).toEqual([])
  })
})
