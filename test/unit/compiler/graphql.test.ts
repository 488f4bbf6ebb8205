import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { graphqlOperation } from '../../../src/main/compiler/graphql'
import { renderRequest } from '../../../src/main/engine/template'
import { options, withNoise } from './noise'
import { traceBuilder } from './traceBuilder'

const ok = (result: ReturnType<typeof compileTrace>) => {
  if (!result.ok) throw new Error(`${result.explanation.reason} ${result.explanation.missing}`)
  return result.candidate
}
const SEARCH =
  'query SearchTools($term: String!, $first: Int) { searchTools(term: $term, first: $first) { id name } }'
const answer = {
  data: {
    searchTools: [
      { id: 't1', name: 'Writing pilot' },
      { id: 't2', name: 'Ink' },
    ],
  },
}

describe('GraphQL', () => {
  it('names the tool after operationName, takes slots from variables and keeps the query text', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('POST', '/graphql', {
        body: {
          operationName: 'SearchTools',
          query: SEARCH,
          variables: { term: 'writing', first: 10 },
        },
        response: answer,
      })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(tool.name).toBe('example__search_tools')
    expect(tool.mutating).toBe(false)
    expect(tool.inputs.required).toEqual(['term'])
    expect(tool.inputs.properties.term).toMatchObject({
      type: 'string',
      'x-path': 'variables.term',
    })
    expect(tool.inputs.properties.first).toMatchObject({ type: 'integer', default: 10 })
    expect(Object.keys(tool.inputs.properties).sort()).toEqual(['first', 'term'])
    const body = tool.steps.at(-1)!.request.body as {
      kind: 'json'
      template: Record<string, unknown>
    }
    expect(body.template).toMatchObject({ query: SEARCH, operationName: 'SearchTools' })
    const rendered = renderRequest(tool.steps.at(-1)!.request, { 'input.p0': 'ink', 'input.p1': 3 })
    expect(JSON.parse(rendered.body!).variables).toEqual({ term: 'ink', first: 3 })
  })

  it('finds a typed value nested deep in variables', () => {
    const trace = withNoise(traceBuilder())
      .fill('writing')
      .submit()
      .exchange('POST', '/graphql', {
        body: {
          operationName: 'Find',
          query: 'query Find($filter: Filter) { find(filter: $filter) { id } }',
          variables: { filter: { text: { contains: 'writing' }, tags: ['ai', 'text'] } },
        },
        response: { data: { find: [{ id: 'a' }] } },
      })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(tool.inputs.required).toEqual(['contains'])
    expect(tool.inputs.properties.contains!['x-path']).toBe('variables.filter.text.contains')
  })

  it('marks a mutation as mutating', () => {
    const trace = withNoise(traceBuilder())
      .fill('Buy milk')
      .submit()
      .exchange('POST', '/graphql', {
        body: {
          operationName: 'CreateNote',
          query: 'mutation CreateNote($text: String!) { createNote(text: $text) { id text } }',
          variables: { text: 'Buy milk' },
        },
        response: { data: { createNote: { id: 'n1', text: 'Buy milk' } } },
      })
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(tool.name).toBe('example__create_note')
    expect(tool.mutating).toBe(true)
  })

  it('keeps a persisted-query hash and decides by the operation name (unsure: mutating)', () => {
    const build = (operationName: string) =>
      withNoise(traceBuilder())
        .fill('writing')
        .submit()
        .exchange('POST', '/graphql', {
          body: {
            operationName,
            variables: { q: 'writing' },
            extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } },
          },
          response: { data: { items: [{ id: 'a', name: 'writing' }] } },
        })
        .build()
    const read = ok(compileTrace(build('SearchProducts'), options))
    expect(read.mutating).toBe(false)
    expect(read.name).toBe('example__search_products')
    expect(JSON.stringify(read.steps.at(-1)!.request.body)).toContain('ab'.repeat(32))
    expect(Object.keys(read.inputs.properties)).toEqual(['q'])
    expect(ok(compileTrace(build('UpdateCart'), options)).mutating).toBe(true)
  })

  it('compiles a GET persisted query, slots inside the JSON variables parameter', () => {
    const variables = encodeURIComponent(JSON.stringify({ term: 'dune', limit: 10 }))
    const extensions = encodeURIComponent(
      JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'cd'.repeat(32) } }),
    )
    const trace = withNoise(traceBuilder())
      .fill('dune')
      .submit()
      .exchange(
        'GET',
        `/graphql?operationName=SearchTitles&variables=${variables}&extensions=${extensions}`,
        {
          response: { data: { search: [{ id: 't1', name: 'Dune' }] } },
        },
      )
      .build()
    const tool = ok(compileTrace(trace, options))
    expect(tool.name).toBe('example__search_titles')
    expect(Object.keys(tool.inputs.properties).sort()).toEqual(['limit', 'term'])
    const rendered = renderRequest(tool.steps.at(-1)!.request, {
      'input.p0': 'arrival',
      'input.p1': 5,
    })
    const url = new URL(rendered.url)
    expect(JSON.parse(url.searchParams.get('variables')!)).toEqual({ term: 'arrival', limit: 5 })
    expect(url.searchParams.get('extensions')).toContain('cd'.repeat(32))
    expect(tool.steps.at(-1)!.request.url).toContain('{{json:input.p0}}')

    // A string with quotes, a backslash, `&` and non-ASCII stays one valid JSON string.
    const awkward = 'say "hi" \\ & déjà'
    const tricky = new URL(
      renderRequest(tool.steps.at(-1)!.request, { 'input.p0': awkward, 'input.p1': 3 }).url,
    )
    expect(JSON.parse(tricky.searchParams.get('variables')!)).toEqual({ term: awkward, limit: 3 })
    expect(tricky.searchParams.get('operationName')).toBe('SearchTitles')
    // An optional slot left out is JSON null, never a hole that breaks the JSON.
    const left = new URL(renderRequest(tool.steps.at(-1)!.request, { 'input.p0': 'x' }).url)
    expect(JSON.parse(left.searchParams.get('variables')!)).toEqual({ term: 'x', limit: null })
  })

  it('renders {{json:...}} as JSON text in URLs, text and JSON bodies', () => {
    const scope = { 'input.p0': 'a "b"', 'input.p1': 2 }
    const rendered = renderRequest(
      {
        method: 'POST',
        url: 'https://x.example/q?v={{json:input.p0}}&n={{json:input.p1}}',
        headers: { 'x-filter': '{"name":{{json:input.p0}}}' },
        body: { kind: 'json', template: { a: '{{json:input.p1}}', b: 'n={{json:input.p0}}' } },
      },
      scope,
    )
    const url = new URL(rendered.url)
    expect(JSON.parse(url.searchParams.get('v')!)).toBe('a "b"')
    expect(url.searchParams.get('n')).toBe('2')
    expect(JSON.parse(rendered.headers['x-filter']!)).toEqual({ name: 'a "b"' })
    expect(JSON.parse(rendered.body!)).toEqual({ a: 2, b: 'n="a \\"b\\""' })
  })

  it('does not take a plain search body for GraphQL', () => {
    expect(graphqlOperation({ query: 'writing' }, 'https://x.example/api/search')).toBeNull()
    expect(
      graphqlOperation({ query: '{ tools { id } }' }, 'https://x.example/api/graphql'),
    ).toMatchObject({
      kind: 'query',
      rootField: 'tools',
    })
  })
})
