/**
 * A body a person pasted, sent as plain text (a mail message a spam filter's page posts, under
 * `text/plain` or jQuery's default form label): the whole body is one input, the tool posts what
 * the caller gives; a real urlencoded form still reads as fields. And a header that carries what
 * the person typed into the password field (`Password: …`) takes the saved login's password.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { requestValues } from '../../../src/main/compiler/requestValues'
import { renderRequest } from '../../../src/main/engine/template'
import { SECRET_PLACEHOLDER, type Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c4', now: Date.UTC(2026, 10, 29) }

const MESSAGE =
  'From: Deals <deals@promo.example>\nSubject: Replica watches 90% off\n\nOrder now while stocks last.\n'

function learnTrace(contentType: string): Trace {
  const trace = traceBuilder('http://127.0.0.1:11334')
    .exchange('GET', '/stat', { response: { version: '3.4', scanned: 5 }, type: 'xhr' })
    .fill(MESSAGE, { name: 'scanMsgSource', label: 'Message source' })
    .click('Upload SPAM')
    .exchange('POST', '/learnspam', {
      form: MESSAGE,
      response: { success: true },
      type: 'xhr',
    })
    .build('teach the filter that the message "Replica watches 90% off" is spam')
  for (const e of trace.exchanges) {
    e.requestHeaders = { ...e.requestHeaders, password: SECRET_PLACEHOLDER }
    if (e.method === 'POST') e.requestHeaders['content-type'] = contentType
  }
  return trace
}

describe('a pasted message sent as the whole body', () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded; charset=UTF-8']) {
    it(`is one input, the body of the tool (${type})`, () => {
      const result = compileTrace(learnTrace(type), options)
      if (!result.ok) throw new Error(result.explanation.reason)
      const target = result.candidate.steps.at(-1)!
      expect(target.request.url).toMatch(/\/learnspam$/)
      expect(target.request.body).toEqual({ kind: 'text', template: '{{input.p0}}' })
      expect(result.candidate.inputs.properties.body?.default).toBe(MESSAGE)
      const other = 'From: a@b.example\nSubject: hi\n\nhello\n'
      expect(renderRequest(target.request, { 'input.p0': other }).body).toBe(other)
    })
  }

  it('keeps a real urlencoded form as its fields', () => {
    const trace = traceBuilder()
      .exchange('POST', '/save', { form: 'title=Release+notes&text=Line%0Atwo' })
      .build('save the page')
    expect(requestValues(trace.exchanges[0]!).map((v) => [v.key, v.value])).toEqual([
      ['title', 'Release notes'],
      ['text', 'Line\ntwo'],
    ])
  })

  it('sends the saved login password in a header that carried the typed one', () => {
    const result = compileTrace(learnTrace('text/plain'), options)
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.headers.password).toBe(
      '{{secret:login.127.0.0.1_11334.password}}',
    )
  })
})
