import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { intentValues } from '../../../src/main/compiler/intentValues'
import { records, traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000a1', now: 1_700_000_000_000 }

/** A HAR-like trace: page noise, a beacon carrying the value, a count call, then the search. */
function harLike(query: string) {
  return traceBuilder()
    .exchange('GET', '/', { mime: 'text/html', type: 'document', responseText: '<html></html>' })
    .exchange('GET', '/locales/en.json', { response: { 'a.b': 'x', 'c.d': 'y' } })
    .exchange('POST', '/collect', { type: 'ping', body: { event: 'search', q: query } })
    .exchange('GET', '/api/stats', { response: { visitors: 12 } })
    .exchange('POST', '/api/search', {
      body: { query, verified: false, page: 1, perPage: 12 },
      response: records(query),
    })
}

describe('intent values (a trace without actions)', () => {
  it('takes a version or date the intent names as a value though it holds no word', () => {
    const trace = traceBuilder()
      .exchange('GET', '/data/sidebar/lunar-phase?v=1.1.0', { response: { versions: {} } })
      .exchange('GET', '/api/log?since=2026-11-20&n=3', { response: {} })
      .build()
    const found = intentValues(
      'show version 1.1.0 of lunar-phase since 2026-11-20',
      trace.exchanges,
    )
    expect(found.map((v) => v.value)).toEqual(['1.1.0', '2026-11-20'])
  })

  it('takes a plain word named after what it names as a value (the wiki page meetings)', () => {
    const trace = traceBuilder()
      .exchange('POST', '/wiki.cgi', { form: 'do=edit&page=meetings&content=x' })
      .build()
    expect(
      intentValues('attach the file notes.pdf to the wiki page meetings', trace.exchanges).map(
        (v) => v.value,
      ),
    ).toEqual(['meetings'])
    // A container noun after another is no name ("the page list").
    const list = traceBuilder().exchange('GET', '/wiki.cgi?do=page&view=list').build()
    expect(intentValues('show me the page list', list.exchanges)).toEqual([])
  })

  it('takes a DN or key=value the intent names as one value, though it has no digit', () => {
    const trace = traceBuilder()
      .exchange('POST', '/cmd.php', {
        form: 'cmd=update&dn=uid%3Dcarla%2Cou%3Dpeople%2Cdc%3Dexample%2Cdc%3Dorg&phone=555',
      })
      .build()
    const found = intentValues(
      'change the phone of uid=carla,ou=people,dc=example,dc=org to 555',
      trace.exchanges,
    )
    expect(found.map((t) => t.value)).toContain('uid=carla,ou=people,dc=example,dc=org')
  })

  it('takes a path segment no route word could be (a key with a colon), decoded; not a plain slug', () => {
    const trace = traceBuilder()
      .exchange('GET', '/apiv2/key/U%3Aabc%3A0/cache%3Ahomepage', { response: { value: 1 } })
      .exchange('GET', '/data/sidebar/lunar-phase', { response: {} })
      .build()
    const found = intentValues('delete the key cache:homepage of lunar-phase', trace.exchanges)
    expect(found.map((v) => v.value)).toEqual(['cache:homepage'])
  })

  it('finds request values equal to a word or phrase of the intent, never its verb or stop words', () => {
    const trace = traceBuilder()
      .exchange('GET', '/api/a?type=search&lang=the&q=Machine%20Learning', { response: {} })
      .exchange('POST', '/api/b', { body: { topic: 'writing', n: 3, flag: 'for' }, response: {} })
      .build()
    const found = intentValues('search the tools for writing or machine learning', trace.exchanges)
    expect(found.map((v) => [v.value, v.fromIntent])).toEqual([
      ['Machine Learning', true],
      ['writing', true],
    ])
  })

  it('compiles the search of a HAR with no actions: the intent names the value, which becomes the required slot', () => {
    const result = compileTrace(
      harLike('writing').build('search the AI tools directory for writing'),
      options,
    )
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const { candidate } = result
    expect(candidate.steps.at(-1)!.request).toMatchObject({
      method: 'POST',
      url: 'https://tools.example.com/api/search',
      body: { kind: 'json', template: { query: '{{input.p0}}' } },
    })
    expect(candidate.inputs.required).toEqual(['query'])
    expect(candidate.inputs.properties['query']).toMatchObject({
      type: 'string',
      default: 'writing',
      description: expect.stringContaining('the intent names'),
    })
    expect(candidate.evidence.signals.find((s) => s.name === 'typed_value_in_request')).toEqual(
      expect.objectContaining({ detail: '"writing" (named in the intent) is body.query' }),
    )
    expect(candidate.evidence.score).toBeGreaterThanOrEqual(0.5)
  })

  it('makes a low-confidence candidate when the intent names no value (issue 9: rank, do not refuse)', () => {
    const result = compileTrace(harLike('writing').build('search the AI tools directory'), options)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.candidate.steps.at(-1)!.request).toMatchObject({
      method: 'POST',
      url: 'https://tools.example.com/api/search',
    })
    expect(result.candidate.evidence.confidence).toBeLessThan(0.5)
  })

  it('still explains when nothing in the trace carries anything of the intent', () => {
    const result = compileTrace(harLike('writing').build('book a flight to Lisbon'), options)
    expect(result.ok).toBe(false)
  })

  it('stands in for typed values when the recording holds only clicks and navigations', () => {
    const trace = harLike('writing').build('search the AI tools directory for writing')
    trace.actions.push({
      seq: 1,
      kind: 'navigate',
      at: trace.exchanges[0]!.startedAt,
      pageUrl: 'https://tools.example.com/',
      selector: null,
      role: null,
      name: null,
      value: 'https://tools.example.com/',
    })
    const result = compileTrace(trace, options)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.candidate.inputs.required).toEqual(['query'])
    expect(result.candidate.inputs.properties['query']).toMatchObject({ default: 'writing' })
  })
})
