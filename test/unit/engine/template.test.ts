import { describe, expect, it } from 'vitest'
import { renderRequest } from '../../../src/main/engine/template'

describe('renderRequest', () => {
  it('keeps slot types in JSON bodies, encodes URL values and drops absent optional keys', () => {
    const rendered = renderRequest(
      {
        method: 'POST',
        url: 'https://x.example/api/search?q={{input.p0}}&lang=en',
        headers: { 'x-trace': 'id-{{input.p1}}' },
        body: {
          kind: 'json',
          template: {
            query: '{{input.p0}}',
            page: '{{input.p1}}',
            label: 'p={{input.p1}}',
            missing: '{{input.p9}}',
          },
        },
      },
      { 'input.p0': 'a&b c', 'input.p1': 2 },
    )
    expect(rendered.url).toBe('https://x.example/api/search?q=a%26b%20c&lang=en')
    expect(rendered.headers).toEqual({ 'x-trace': 'id-2' })
    expect(JSON.parse(rendered.body!)).toEqual({ query: 'a&b c', page: 2, label: 'p=2' })
  })

  it('renders form bodies as urlencoded text', () => {
    const rendered = renderRequest(
      {
        method: 'POST',
        url: 'https://x.example/s',
        headers: {},
        body: { kind: 'form', template: { q: '{{input.p0}}', n: '{{input.p1}}' } },
      },
      { 'input.p0': 'a b', 'input.p1': 3 },
    )
    expect(rendered.body).toBe('q=a+b&n=3')
  })

  it('keeps a form field a step fills as a number, and drops an optional slot left out', () => {
    const rendered = renderRequest(
      {
        method: 'POST',
        url: 'https://x.example/cmd',
        headers: {},
        body: {
          kind: 'form',
          template: { com_id: '{{num:step.d14.com_id}}', note: '{{input.p0}}', cmd: '2' },
        },
      },
      { 'step.d14.com_id': '7' },
    )
    expect(rendered.body).toBe('com_id=7&cmd=2')
  })

  it('escapes what it writes into XML element text', () => {
    const rendered = renderRequest(
      {
        method: 'PROPPATCH',
        url: 'https://dav.example/alice/c1/',
        headers: {},
        body: { kind: 'text', template: '<a><b>{{xml:input.p0}}</b><c>{{xml:input.p1}}</c></a>' },
      },
      { 'input.p0': 'Tom & "Jerry" <3', 'input.p1': 5 },
    )
    expect(rendered.body).toBe('<a><b>Tom &amp; &quot;Jerry&quot; &lt;3</b><c>5</c></a>')
  })
})
