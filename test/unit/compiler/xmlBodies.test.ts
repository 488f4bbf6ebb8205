/**
 * XML request bodies (WebDAV's MKCOL and PROPPATCH, as a CalDAV web client sends them): what the
 * person typed into element text becomes an input written XML-escaped in its place, the rest of
 * the body is sent as recorded. And a user name typed to sign in is the login's account, not an
 * input of a tool that does something else.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { requestValues } from '../../../src/main/compiler/requestValues'
import { signInAccounts } from '../../../src/main/compiler/typedValues'
import { placeXml, xmlFields } from '../../../src/main/compiler/xmlBody'
import { renderRequest } from '../../../src/main/engine/template'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c7', now: Date.UTC(2026, 10, 29) }

const MKCOL = (name: string, description: string) =>
  '<?xml version="1.0" encoding="UTF-8" ?><mkcol xmlns="DAV:" ' +
  'xmlns:C="urn:ietf:params:xml:ns:caldav"><set><prop><resourcetype><collection />' +
  `<C:calendar /></resourcetype><displayname>${name}</displayname>` +
  `<C:calendar-description>${description}</C:calendar-description></prop></set></mkcol>`

/** A calendar web client's trace: sign in, then create a calendar (an MKCOL of XML). */
function createCalendar(contentType: string, intent: string): Trace {
  const trace = traceBuilder('http://127.0.0.1:5232')
    .fill('alice', { name: 'user', label: 'Username' })
    .fill(null, { name: 'password', label: 'Password', secret: true })
    .submit()
    .exchange('PROPFIND', '/alice/', { responseText: '<multistatus xmlns="DAV:"/>' })
    .fill('Piano lessons', { name: 'displayname', label: 'Title' })
    .fill('Tuesdays &amp; Fridays', { name: 'description', label: 'Description' })
    .click('Create')
    .exchange('MKCOL', '/alice/30f66dcb-5e0c-ebda-6e85-68497cd920f4/', {
      form: MKCOL('Piano lessons', 'Tuesdays &amp;amp; Fridays'),
      status: 201,
      responseText: '',
    })
    .build(intent)
  const mkcol = trace.exchanges.at(-1)!
  mkcol.requestHeaders['content-type'] = contentType
  return trace
}

describe('values of an XML request body', () => {
  it('finds each text-only element, entities decoded, with where its text sits', () => {
    const body = MKCOL('Gym &amp; pool', 'Mon')
    const fields = xmlFields(body)
    expect(fields.map((f) => [f.path, f.key, f.value])).toEqual([
      ['mkcol.set.prop.displayname', 'displayname', 'Gym & pool'],
      ['mkcol.set.prop.C:calendar-description', 'calendar-description', 'Mon'],
    ])
    expect(body.slice(fields[0]!.start, fields[0]!.end)).toBe('Gym &amp; pool')
  })

  it('reads CDATA, numbers a repeated element, and gives nothing for a text that is no XML', () => {
    const fields = xmlFields('<a><b><![CDATA[x < y]]></b><b>two</b></a>')
    expect(fields.map((f) => [f.path, f.value])).toEqual([
      ['a.b', 'x < y'],
      ['a.b#2', 'two'],
    ])
    expect(xmlFields('plain words')).toEqual([])
  })

  it('puts placeholders in place and leaves the rest as sent', () => {
    const body = MKCOL('Piano lessons', 'Tue')
    const placed = placeXml(body, new Map([['mkcol.set.prop.displayname', '{{input.p0}}']]))
    expect(placed).toBe(MKCOL('{{xml:input.p0}}', 'Tue'))
  })

  it('reads an XML body sent as text/plain when it opens with a declaration', () => {
    const trace = createCalendar('text/plain;charset=UTF-8', 'create a calendar')
    expect(requestValues(trace.exchanges.at(-1)!).map((v) => v.value)).toEqual([
      'Piano lessons',
      'Tuesdays &amp; Fridays',
    ])
  })

  for (const type of ['application/xml', 'text/plain;charset=UTF-8']) {
    it(`makes the typed element texts inputs and escapes what a run writes (${type})`, () => {
      const trace = createCalendar(
        type,
        'create a calendar called Piano lessons described as "Tuesdays &amp; Fridays"',
      )
      const result = compileTrace(trace, options)
      if (!result.ok) throw new Error(result.explanation.reason)
      const target = result.candidate.steps.at(-1)!
      expect(target.request.method).toBe('MKCOL')
      const inputs = result.candidate.inputs.properties
      expect(inputs.displayname?.default).toBe('Piano lessons')
      expect(inputs.calendar_description?.default).toBe('Tuesdays &amp; Fridays')
      const slot = (name: string) => `input.${inputs[name]!['x-slot']}`
      const body = renderRequest(target.request, {
        [slot('displayname')]: 'Rock & <Roll>',
        [slot('calendar_description')]: 'Sat',
      }).body
      expect(body).toBe(MKCOL('Rock &amp; &lt;Roll&gt;', 'Sat'))
    })
  }
})

describe('the account a person signed in as', () => {
  it('is no input: the path keeps the account the saved login stands for', () => {
    const trace = createCalendar('application/xml', 'create a calendar called Piano lessons')
    expect([...signInAccounts(trace.actions, trace.intent)]).toEqual(['alice'])
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const target = result.candidate.steps.at(-1)!
    expect(target.request.url).toContain('/alice/')
    expect(Object.values(result.candidate.inputs.properties).map((p) => p.default)).not.toContain(
      'alice',
    )
    expect(result.candidate.evidence.caution).toBeUndefined()
  })

  it('stays a value when the intent names it or is about users or signing in', () => {
    const trace = createCalendar('application/xml', 'x')
    for (const intent of [
      'create a calendar for alice',
      'add a user with a password',
      'sign in to the calendar',
    ])
      expect(signInAccounts(trace.actions, intent).size).toBe(0)
  })

  it('is every field of a sign-in form, and no field of a form without who signs in', () => {
    const trace = traceBuilder()
      .fill('Weekly', { name: 'title', label: 'Title' })
      .fill(null, { name: 'pin', label: 'PIN', secret: true })
      .submit()
      .fill('127.0.0.1', { name: 'auth[server]', label: 'Server' })
      .fill('bob@example.com', { name: 'contact', label: 'Contact' })
      .fill(null, { name: 'password', label: 'Password', secret: true })
      .fill('shop', { name: 'auth[db]', label: 'Database' })
      .submit()
      .fill('Desk', { name: 'name', label: 'Name' })
      .build('post it')
    expect([...signInAccounts(trace.actions, trace.intent)]).toEqual([
      '127.0.0.1',
      'bob@example.com',
      'shop',
    ])
  })
})
