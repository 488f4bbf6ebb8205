/**
 * Writes a site answers with a redirect (failure kinds 2 and 6): a form saved on its own page
 * (Post/Redirect/Get back to it), a GET form that acts and sends the browser back to the list, and
 * a confirmation page whose "Yes" posts to its own address. A search that redirects to itself with
 * its terms in the address stays a read.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { mutationVerdict } from '../../../src/main/compiler/naming'
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
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

const html = { type: 'document', mime: 'text/html' }

describe('writes answered by a redirect', () => {
  it('takes a form posted back to its own page and sent back to it as a save where a write was asked, whatever its path says', () => {
    const save = traceBuilder()
      .exchange('POST', '/lists/team/settings/list_identity', {
        form: 'description=Weekly+updates&csrf=abc',
        status: 302,
        headers: { location: '/lists/team/settings/list_identity' },
        ...html,
      })
      .build().exchanges[0]!
    expect(mutationVerdict(save, null, true)).toEqual({
      mutating: true,
      detail: 'a POST answered by a redirect back to its own page (Post/Redirect/Get): it saved',
    })
    // Asked for a read, the same answer may be a filter the site keeps in the session.
    expect(mutationVerdict(save, null, false).mutating).toBe(false)
  })

  it('keeps a search that redirects to itself with its term in the address a read', () => {
    const search = traceBuilder()
      .exchange('POST', '/user/list', {
        form: 'name=Rinaldi',
        status: 302,
        headers: { location: '/user/list?name=Rinaldi' },
        ...html,
      })
      .build().exchanges[0]!
    expect(mutationVerdict(search, null, true)).toEqual({
      mutating: false,
      detail: 'a POST whose path says "list": it reads',
    })
  })

  it('takes a GET answered by a redirect as a write only when a write was asked', () => {
    const edit = traceBuilder()
      .exchange('GET', '/edit-url?f=2&p=3&u=wiki.example', {
        status: 302,
        headers: { location: '/edit-list?f=2' },
        ...html,
      })
      .build().exchanges[0]!
    expect(mutationVerdict(edit, null, true).mutating).toBe(true)
    expect(mutationVerdict(edit, null, false).mutating).toBe(false)
  })

  it('compiles a GET form that sends the named value and redirects as the write, not the list it returns to', () => {
    const trace = traceBuilder()
      .exchange('GET', '/edit-list?f=2', { responseText: page('Edit user.action'), ...html })
      .fill('wiki.example', { name: 'u', label: 'URL pattern' })
      .submit()
      .exchange('GET', '/edit-url?f=2&p=3&u=wiki.example', {
        status: 302,
        headers: { location: '/edit-list?f=2' },
        ...html,
      })
      .exchange('GET', '/edit-list?f=2', {
        responseText: page('Edit user.action', '<p>wiki.example</p>'),
        ...html,
      })
      .build('change the pattern wiki.old to wiki.example in the user file')
    const tool = compiled(trace)
    const target = tool.steps.at(-1)!.request
    expect(target.url).toMatch(/\/edit-url\?/)
    expect(tool.mutating).toBe(true)
    const u = Object.values(tool.inputs.properties).find((p) => p['x-path'] === 'u')
    expect(u?.default).toBe('wiki.example')
  })

  it("sends a GET that writes with its page's origin as Referer, unless it redirected back to that page", () => {
    const acting = (location: string) => {
      const trace = traceBuilder()
        .exchange('GET', '/edit-list?f=2', { responseText: page('Edit user.action'), ...html })
        .click('Remove')
        .exchange('GET', '/edit-remove-url?f=2&p=3', {
          status: 302,
          headers: { location },
          ...html,
        })
        .build('remove the pattern on line 3 from the user file')
      trace.exchanges[1]!.requestHeaders.referer = `${trace.startUrl}edit-list?f=2`
      return compiled(trace).steps.at(-1)!.request.headers
    }
    // Privoxy checks the Referer of an edit (`trusted-cgi-referer`); the origin is enough.
    expect(acting('http://config.example/edit-list?f=2').referer).toBe('https://tools.example.com/')
    // WordPress' trash link sends the browser back to its Referer: the list page stays unsaid.
    expect(acting('/edit-list?f=2&removed=1').referer).toBeUndefined()
  })

  it('takes the POST a confirmation page sends to its own address over the page that asked', () => {
    const trace = traceBuilder()
      .exchange('GET', '/user/list', {
        responseText: page('Users', '<a href="/user/remove?user=frank">Remove user frank</a>'),
        ...html,
      })
      .click('Remove user frank')
      .exchange('GET', '/user/remove?user=frank', {
        responseText: page(
          'Remove user',
          '<form method="post"><input type="hidden" name="token" value="t1"><button name="confirm" value="Yes">Yes</button></form>',
        ),
        ...html,
      })
      .exchange('POST', '/user/remove?user=frank', {
        form: 'token=t1&confirm=Yes',
        status: 302,
        headers: { location: '/user/list' },
        ...html,
      })
      .exchange('GET', '/user/list', { responseText: page('Users'), ...html })
      .build("delete the user 'frank'")
    const tool = compiled(trace)
    const target = tool.steps.at(-1)!.request
    expect(target.method).toBe('POST')
    expect(target.url).toMatch(/\/user\/remove\?user=\{\{input\.p\d+\}\}/)
    expect(tool.mutating).toBe(true)
  })
})
