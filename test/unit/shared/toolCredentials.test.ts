import { describe, expect, it } from 'vitest'
import { findCredentials } from '../../../src/shared/toolCredentials'
import type { RequestTemplate, ToolSpec } from '../../../src/shared/toolSpec'

const tool = (request: Partial<RequestTemplate>, more: Record<string, unknown> = {}): ToolSpec =>
  ({
    id: 't1',
    siteHost: 'x.example',
    name: 'x__search',
    status: 'verified',
    steps: [
      {
        id: 's1',
        extract: [],
        request: {
          method: 'POST',
          url: 'https://x.example/api',
          headers: {},
          body: null,
          ...request,
        },
      },
    ],
    evidence: {
      traceId: 'trc_1',
      targetExchangeId: 'exc_1',
      exchangeIds: [],
      score: 1,
      signals: [],
      alternatives: [],
    },
    ...more,
  }) as unknown as ToolSpec

const paths = (t: ToolSpec) => findCredentials(t).map((f) => `${f.reason} ${f.path}`)

describe('findCredentials', () => {
  it('passes a compiled tool whose credentials are placeholders', () => {
    expect(
      paths(
        tool({
          url: 'https://x.example/api?q={{input.p0}}&page=2',
          headers: {
            Authorization: 'Bearer {{login.token}}',
            'X-CSRF-Token': '{{step.s0.csrf}}',
            'X-Api-Key': '{{secret:X_KEY}}',
            Accept: 'application/json',
          },
          body: {
            kind: 'json',
            template: { query: '{{input.p0}}', token: '', page: 1, nonce: '{{gen.nonce}}' },
          },
        }),
      ),
    ).toEqual([])
  })

  it('finds literal cookies, keys, tokens and passwords in headers, URLs and bodies', () => {
    expect(
      paths(
        tool({
          url: 'https://ann:hunter22@x.example/api?api_key=abc123&q=x',
          headers: { Cookie: 'sid=3f9a', Authorization: 'Bearer eyJhbGciOi' },
          body: {
            kind: 'json',
            template: { user: { password: 'hunter22' }, list: [{ session_id: 'z9' }] },
          },
        }),
      ),
    ).toEqual([
      'credential_value steps[0].request.headers.Cookie',
      'credential_value steps[0].request.headers.Authorization',
      'url_userinfo steps[0].request.url',
      'credential_value steps[0].request.url?api_key',
      'credential_value steps[0].request.body.user.password',
      'credential_value steps[0].request.body.list[0].session_id',
    ])
    expect(paths(tool({ body: { kind: 'form', template: { _csrf: 'a1b2', q: 'x' } } }))).toEqual([
      'credential_value steps[0].request.body._csrf',
    ])
    expect(
      paths(tool({ body: { kind: 'multipart', template: [{ name: 'apikey', value: 'k1' }] } })),
    ).toEqual(['credential_value steps[0].request.body[0].apikey'])
  })

  it('finds recorded traffic anywhere in the tool', () => {
    expect(paths(tool({}, { trace: { exchanges: [] }, evidence: { responseBody: 'x' } }))).toEqual([
      'recorded_traffic evidence.responseBody',
      'recorded_traffic trace.exchanges',
    ])
  })
})
