/**
 * What belongs to the page is no record the person picked: the path segment the app is mounted at
 * (`/cgi-bin/nagios4/cmd.cgi`, its stylesheets and images under `/nagios4/`) is a constant of the
 * route, not an id read from a link; an anti-forgery nonce every link of a page carries is read
 * from any link, never looked up by a name the person clicked or typed.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c7', now: Date.UTC(2026, 10, 29) }
const HTML = { mime: 'text/html', type: 'document' }

function compiled(trace: ReturnType<ReturnType<typeof traceBuilder>['build']>) {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('the segment an app is mounted at', () => {
  it('stays a constant of the path, not an input found by a link', () => {
    const b = traceBuilder('http://127.0.0.1:8080').exchange('GET', '/', {
      ...HTML,
      responseText: '<a href="/nagios4/">Nagios Core</a>',
    })
    for (const asset of ['stylesheets/common.css', 'js/funcs.js', 'images/logo.png'])
      b.exchange('GET', `/nagios4/${asset}`, {
        mime: 'text/css',
        type: 'stylesheet',
        responseText: 'x',
      })
    const trace = b
      .click('Nagios Core')
      .fill('Cleaning up old WAL files', { name: 'com_data', label: 'Comment' })
      .submit()
      .exchange('POST', '/cgi-bin/nagios4/cmd.cgi', {
        form: 'cmd_typ=34&host=db01&com_data=Cleaning+up+old+WAL+files',
        ...HTML,
        responseText: '<p>Your command request was successfully submitted.</p>',
      })
      .build('acknowledge the problem of db01 with the comment "Cleaning up old WAL files"')
    const tool = compiled(trace)
    expect(tool.steps.at(-1)!.request.url).toBe('http://127.0.0.1:8080/cgi-bin/nagios4/cmd.cgi')
    expect(Object.values(tool.inputs.properties).map((p) => p['x-in'])).not.toContain('answer')
  })
})

describe('a nonce in the links of a page', () => {
  it('is read from its link, not looked up by a name the person gave', () => {
    const nonce = 'C3CE2696AE99EAA1BE1BC99FD2583F4E'
    const trace = traceBuilder('http://127.0.0.1:8080')
      .click('Host Manager')
      .exchange('GET', '/host-manager/html', {
        ...HTML,
        responseText: `<table><tr><td>Host Manager</td><td><a href="/host-manager/html/list?CSRF_NONCE=${nonce}">List Virtual Hosts</a></td></tr></table>`,
      })
      .fill('shop.example.test', { name: 'name', label: 'Name' })
      .submit()
      .exchange('POST', `/host-manager/html/add?CSRF_NONCE=${nonce}`, {
        form: 'name=shop.example.test',
        ...HTML,
        responseText: '<p>OK - Host shop.example.test added</p>',
      })
      .build('add the virtual host shop.example.test')
    const tool = compiled(trace)
    const target = tool.steps.at(-1)!
    expect(target.request.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/host-manager\/html\/add\?/)
    const read = tool.steps[0]!
    expect(read.extract.map((x) => x.path)).toEqual([
      JSON.stringify({ text: 'List Virtual Hosts', param: 'CSRF_NONCE' }),
    ])
    expect(tool.inputs.required).toEqual(['name'])
  })
})
