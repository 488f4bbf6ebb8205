/**
 * Records picked by click and addressed by a key made of their name and more (failure kind 3):
 * `/lists/announce.lists.example.org/` after a click on "Announce" is the list the tool takes as
 * an input; a tab clicked after it (`Members` for `/members/`) is the route, not a value; beside a
 * typed value the picked record keeps the recorded one as its default. The site's own name said
 * in the intent is where, not a value to send.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const page = (title: string, body = '') =>
  `<!doctype html><html><head><title>${title} | Lists</title></head><body>${body}</body></html>`

const html = { type: 'document', mime: 'text/html' }

/** The list index, then a list opened by its display name. */
function openedList(name: string, id: string) {
  return traceBuilder()
    .exchange('GET', '/lists/', {
      responseText: page('Lists', `<a href="/lists/${id}/">${name}</a>`),
      ...html,
    })
    .click(name)
    .exchange('GET', `/lists/${id}/`, {
      responseText: page(name, `<a href="/lists/${id}/members/">Members</a>`),
      ...html,
    })
}

const pathInputs = (tool: ToolSpec) =>
  Object.entries(tool.inputs.properties).filter(([, p]) => p['x-in'] === 'path')

describe('records picked by a key made of their name', () => {
  it('makes the list id an input and leaves the tab clicked after it in the route', () => {
    const trace = openedList('Announce', 'announce.lists.example.org')
      .click('Members')
      .exchange('GET', '/lists/announce.lists.example.org/members/', {
        responseText: page('Members', '<table><tr><td>ines@example.com</td></tr></table>'),
        ...html,
      })
      .build('show me who is subscribed to the Announce mailing list')
    const tool = compiled(trace)
    expect(tool.steps.at(-1)!.request.url).toMatch(/\/lists\/\{\{input\.p\d+\}\}\/members\/$/)
    const inputs = pathInputs(tool)
    expect(inputs.map(([, p]) => p.default)).toEqual(['announce.lists.example.org'])
    expect(tool.inputs.required).toEqual([inputs[0]![0]])
  })

  it('keeps the picked list optional, with the recorded one as default, beside what was typed', () => {
    const trace = openedList('Team', 'team.lists.example.org')
      .fill('hugo@example.com', { name: 'emails', label: 'Emails to subscribe' })
      .submit()
      .exchange('POST', '/lists/team.lists.example.org/mass_subscribe/', {
        form: 'emails=hugo%40example.com&csrf=abc',
        status: 302,
        headers: { location: '/lists/team.lists.example.org/mass_subscribe/' },
        ...html,
      })
      .build('subscribe hugo@example.com to the Team mailing list')
    const tool = compiled(trace)
    const [list] = pathInputs(tool)
    expect(list?.[1].default).toBe('team.lists.example.org')
    expect(tool.inputs.required).toEqual(['emails'])
  })

  it('does not take a kind the person clicked ("New → Folder") for the name of what it made', () => {
    const trace = traceBuilder()
      .exchange('GET', '/tree/', { responseText: page('Files'), ...html })
      .click('Folder')
      .exchange('POST', '/api/contents/', {
        body: { type: 'directory' },
        response: { name: 'Untitled Folder', path: 'Untitled Folder' },
      })
      .fill('projects', { name: 'path', label: 'New name' })
      .submit()
      .exchange('PATCH', '/api/contents/Untitled%20Folder', {
        body: { path: 'projects' },
        response: { name: 'projects', path: 'projects' },
      })
      .build('create a folder called projects')
    const tool = compiled(trace)
    const picked = pathInputs(tool).filter(([, p]) => /picked/.test(String(p.description)))
    expect(picked).toEqual([])
  })
})

describe("the site's own name in the intent", () => {
  it('is not sent as a value where an option happens to carry it', () => {
    const trace = traceBuilder()
      .exchange('GET', '/dashboard', { responseText: page('Dashboard - Acme Monitor'), ...html })
      .exchange('GET', '/account', {
        responseText:
          '<!doctype html><html><head><title>Account - Acme Monitor</title></head><body><form method="post"><select name="theme"><option value="Acme" selected>Acme (default)</option><option value="dark">Dark</option></select><input name="timezone" value="UTC"></form></body></html>',
        ...html,
      })
      .fill('Europe/Berlin', { name: 'timezone', label: 'Time zone' })
      .submit()
      .exchange('POST', '/account', {
        form: 'theme=Acme&timezone=Europe%2FBerlin',
        status: 302,
        headers: { location: '/account' },
        ...html,
      })
      .build('sign in to Acme Monitor and set my time zone to Europe/Berlin')
    const tool = compiled(trace)
    expect(tool.inputs.required).toEqual(['timezone'])
  })
})
