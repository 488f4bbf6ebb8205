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
})
