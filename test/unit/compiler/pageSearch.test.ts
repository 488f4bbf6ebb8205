import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { findPageSearch } from '../../../src/main/compiler/pageSearch'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { records, traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-000000000010', now: Date.UTC(2026, 10, 25) }

const tiddlers = [
  { title: 'Recipe Lentil Soup', tags: 'food', modified: '20260101' },
  { title: 'Recipe Pancakes', tags: 'food breakfast', modified: '20260102' },
  { title: 'Garden Notes', tags: 'home', modified: '20260103' },
  { title: 'Travel Plans', tags: 'Work', modified: '20260104' },
]

/** A wiki that loads every tiddler once; its sidebar search filters them in the page. */
function wiki(typed: string | null, intent: string): Trace {
  const b = traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/', { type: 'document', mime: 'text/html', responseText: '<html></html>' })
    .exchange('GET', '/status', { response: { username: 'GUEST', space: { recipe: 'default' } } })
    .exchange('GET', '/recipes/default/tiddlers.json?filter=%5Ball%5Btiddlers%5D%5D', {
      response: tiddlers,
    })
  if (typed !== null) b.fill(typed, { name: 'search', label: 'Search' })
  return b.build(intent)
}

/** A flow editor: `GET /flows` holds the nodes; `GET /nodes` the installed node types. */
function editor(intent: string): Trace {
  return traceBuilder('http://127.0.0.1:1880')
    .exchange('GET', '/nodes', {
      response: [
        { id: 'node-red/inject', name: 'inject', types: ['inject'] },
        { id: 'node-red/function', name: 'function', types: ['function'] },
      ],
    })
    .exchange('GET', '/flows', {
      response: {
        rev: 'r1',
        flows: [
          { id: 'f1', type: 'tab', label: 'Reports' },
          { id: 'n1', type: 'function', name: 'build daily report', z: 'f1' },
          { id: 'n2', type: 'inject', name: 'daily report trigger', z: 'f1' },
          { id: 'n3', type: 'inject', name: 'run nightly import', z: 'f1' },
        ],
      },
    })
    .build(intent)
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('findPageSearch', () => {
  it('finds the list the page searched for a typed term no request carried', () => {
    const found = findPageSearch(
      wiki('Recipe', 'search the wiki for Recipe'),
      'search the wiki for Recipe',
    )
    expect(found).toMatchObject({
      exchangeId: 'exc_3',
      term: 'Recipe',
      strong: true,
      path: '',
      fields: ['title'],
      matches: 2,
      total: 4,
    })
  })

  it('prefers the list whose path the intent names over one with more mentions (a log)', () => {
    const trace = traceBuilder('http://127.0.0.1:6789')
      .exchange('GET', '/jsonrpc/history', {
        response: { result: [{ Name: 'Laundromat.S01' }, { Name: 'Other.Show' }] },
      })
      .exchange('GET', '/jsonrpc/log', {
        response: {
          result: [
            { Text: 'Downloading Laundromat.S01' },
            { Text: 'Unpacking Laundromat.S01' },
            { Text: 'Idle' },
          ],
        },
      })
      .fill('Laundromat', { name: 'search', label: 'Search' })
      .build('search my history for Laundromat')
    expect(findPageSearch(trace, 'search my history for Laundromat')).toMatchObject({
      exchangeId: 'exc_1',
      fields: ['Name'],
      matches: 1,
    })
  })

  it('takes the term from the intent when nothing was typed (a HAR)', () => {
    const intent = 'find the nodes whose name mentions daily report'
    expect(findPageSearch(editor(intent), intent)).toMatchObject({
      exchangeId: 'exc_2',
      term: 'daily report',
      strong: false,
      path: 'flows',
      fields: ['name'],
      matches: 2,
    })
    const quoted = "can you search our nodes for 'daily report'?"
    expect(findPageSearch(editor(quoted), quoted)).toMatchObject({
      term: 'daily report',
      strong: true,
    })
  })

  it('leaves searches the server did, and intents that do not search', () => {
    const server = traceBuilder()
      .fill('writing')
      .submit()
      .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
      .build('search the AI tools directory for writing')
    expect(findPageSearch(server, server.intent)).toBeNull()
    expect(
      findPageSearch(wiki('Recipe', 'open the tiddler Recipe'), 'open the tiddler Recipe'),
    ).toBeNull()
    expect(
      findPageSearch(wiki('Quantum', 'search the wiki for Quantum'), 'search the wiki for Quantum'),
    ).toBeNull()
  })
})

describe('compileTrace with a search done in the page', () => {
  it('targets the loaded list, with the term as an optional input and a declared filter', () => {
    const tool = compiled(wiki('Recipe', 'search the wiki for Recipe'))
    const target = tool.steps[tool.steps.length - 1]!
    expect(target.request.method).toBe('GET')
    expect(target.request.url).toContain('/recipes/default/tiddlers.json')
    expect(tool.mutating).toBe(false)
    const [name, slot] = Object.entries(tool.inputs.properties).find(
      ([, p]) => p['x-in'] === 'answer',
    )!
    expect(name).toBe('query')
    expect(slot).toMatchObject({ 'x-path': 'result.filter', type: 'string', examples: ['Recipe'] })
    expect(tool.inputs.required ?? []).not.toContain('query')
    expect(tool.result).toEqual({
      kind: 'json',
      filter: { path: '', fields: ['title'], input: slot['x-slot'] },
    })
    const signals = tool.evidence.signals.map((s) => s.name)
    expect(signals).toContain('page_search')
    expect(signals).not.toContain('chosen_by_hand')
    expect(tool.evidence.confidence).toBeGreaterThanOrEqual(0.7)
  })

  it('picks the searched list over an endpoint the intent words name', () => {
    const tool = compiled(editor('find the nodes whose name mentions daily report'))
    expect(tool.steps[tool.steps.length - 1]!.request.url).toMatch(/\/flows$/)
    expect(tool.result).toMatchObject({ kind: 'json', filter: { path: 'flows', fields: ['name'] } })
  })
})
