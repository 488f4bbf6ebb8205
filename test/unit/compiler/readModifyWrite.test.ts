import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import type { JsonBodyBase, ToolSpec, ToolStep } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-000000000009', now: Date.UTC(2026, 10, 25) }

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const last = (tool: ToolSpec): ToolStep => tool.steps[tool.steps.length - 1]!
const baseOf = (step: ToolStep): JsonBodyBase | undefined =>
  step.request.body?.kind === 'json' ? step.request.body.base : undefined
const inputNames = (tool: ToolSpec) =>
  Object.entries(tool.inputs.properties).map(([name, p]) => [name, p['x-slot'], p.default])

const tab = (id: string, label: string, disabled = false) => ({
  id,
  type: 'tab',
  label,
  disabled,
  info: '',
})
const node = (id: string, z: string, name: string, x: number) => ({
  id,
  type: 'inject',
  z,
  name,
  x,
  y: 80,
  wires: [],
})
const FLOWS: Array<Record<string, unknown>> = [
  tab('f1a0000000000001', 'Nightly import'),
  tab('f1a0000000000002', 'Reports'),
  tab('f1a0000000000003', 'Alerts'),
  node('a1a0000000000001', 'f1a0000000000001', 'run nightly import', 120),
  node('a1a0000000000002', 'f1a0000000000003', 'page on-call', 140),
]

/** A flow editor: load every node, toggle one tab, deploy the whole list back with the rev. */
function deployTrace(change: (flows: typeof FLOWS) => void, intent: string): Trace {
  const deployed = structuredClone(FLOWS)
  change(deployed)
  return traceBuilder('http://127.0.0.1:1880')
    .exchange('GET', '/flows?_=1795593535915', { response: { flows: FLOWS, rev: 'cbfa26dc' } })
    .click('Alerts')
    .click('Deploy')
    .exchange('POST', '/flows', {
      body: { flows: deployed, rev: 'cbfa26dc' },
      response: { rev: 'r2' },
    })
    .build(intent)
}

describe('readModifyWrite: a write of the list just read', () => {
  it('leaves out again what the write left out of the read it copies', () => {
    const deployed = structuredClone(FLOWS)
    deployed[2]!.disabled = true
    const tool = compiled(
      traceBuilder('http://127.0.0.1:1880')
        .exchange('GET', '/flows', {
          response: { flows: FLOWS, rev: 'cbfa26dc', stats: { nodes: 5 } },
        })
        .click('Alerts')
        .exchange('POST', '/flows', {
          body: { flows: deployed, rev: 'cbfa26dc' },
          response: { rev: 'r2' },
        })
        .build('disable the flow Alerts'),
    )
    expect(baseOf(last(tool))?.changes).toEqual([
      { path: 'flows[?label=={{input.p0}}].disabled', op: 'set', value: true },
      { path: 'stats', op: 'remove' },
    ])
  })

  it('bases the deploy on GET /flows and changes the tab the person named, by its label', () => {
    const tool = compiled(
      deployTrace((flows) => (flows[2]!.disabled = true), 'disable the flow Alerts and deploy'),
    )
    const target = last(tool)
    const base = baseOf(target)
    expect(base?.step).toBe(tool.steps[0]!.id)
    expect(tool.steps[0]!.request.url).toMatch(/\/flows\?_=/)
    expect(base?.changes).toEqual([
      { path: 'flows[?label=={{input.p0}}].disabled', op: 'set', value: true },
    ])
    // Every other node and the rev come from the read: no input stands for them.
    expect(inputNames(tool)).toEqual([['label', 'p0', 'Alerts']])
    expect(tool.inputs.properties.label!['x-in']).toBe('answer')
    expect(tool.steps[0]!.extract).toEqual([])
  })

  it('picks a renamed item by its id, not by the label it changes', () => {
    const tool = compiled(
      deployTrace(
        (flows) => (flows[1]!.label = 'Daily Reports'),
        'rename the flow Reports to "Daily Reports" and deploy',
      ),
    )
    const base = baseOf(last(tool))
    expect(base?.changes).toEqual([
      { path: 'flows[?id==f1a0000000000002].label', op: 'set', value: '{{input.p0}}' },
    ])
    expect(inputNames(tool)).toEqual([['label', 'p0', 'Daily Reports']])
  })
})

const LISTING = [
  {
    title: 'Recipe Soup',
    created: '20260101090000000',
    modified: '20260101090000000',
    tags: 'Cooking [[Quick meals]]',
    revision: 0,
    type: 'text/vnd.tiddlywiki',
  },
  {
    title: 'Meeting Notes',
    created: '20260101090000000',
    modified: '20260101090000000',
    tags: 'Work',
    revision: 0,
    type: 'text/vnd.tiddlywiki',
  },
]

/** A wiki that lists every record (without text) on load and saves one with a whole-record PUT. */
function wikiTrace(): ReturnType<typeof traceBuilder> {
  return traceBuilder('http://127.0.0.1:8080').exchange('GET', '/recipes/default/tiddlers.json', {
    response: LISTING,
  })
}

const saved = (title: string, over: Record<string, unknown>) => ({
  title,
  text: 'Lentils, cumin, lemon.',
  created: '20260101090000000',
  modified: '20261125080105954',
  tags: ['Cooking', 'Quick meals'],
  revision: '0',
  bag: 'default',
  type: 'text/vnd.tiddlywiki',
  ...over,
})

describe('readModifyWrite: a record a listing showed', () => {
  it('reads the record by the PUT URL and appends the typed tag to its title list', () => {
    const tool = compiled(
      wikiTrace()
        .fill('Recipe Soup', { name: 'search', label: 'Search' })
        .fill('Favourite', { name: 'tag', label: 'tag name' })
        .click('Confirm changes to this tiddler')
        .exchange('PUT', '/recipes/default/tiddlers/Recipe%20Soup', {
          body: saved('Recipe Soup', { tags: ['Cooking', 'Quick meals', 'Favourite'] }),
          status: 204,
          mime: 'text/plain',
        })
        .build('tag the tiddler Recipe Soup with Favourite'),
    )
    const [read, target] = tool.steps
    expect(tool.steps).toHaveLength(2)
    expect(read!.request).toMatchObject({
      method: 'GET',
      url: 'http://127.0.0.1:8080/recipes/default/tiddlers/{{input.p0}}',
      body: null,
    })
    expect(baseOf(target!)).toEqual({
      step: read!.id,
      path: '',
      changes: [{ path: 'tags', op: 'append', value: '{{input.p1}}', split: 'title_list' }],
    })
    // The text, the stamps and the kept tags are the record's own: not inputs.
    expect(inputNames(tool).map(([, slot, value]) => [slot, value])).toEqual([
      ['p0', 'Recipe Soup'],
      ['p1', 'Favourite'],
    ])
    expect(target!.request.body?.kind === 'json' && target!.request.body.template).toMatchObject({
      tags: ['Cooking', 'Quick meals', '{{input.p1}}'],
      text: 'Lentils, cumin, lemon.',
    })
  })

  it('leaves a new record alone: nothing listed has its title', () => {
    const tool = compiled(
      wikiTrace()
        .fill('Grocery List', { name: 'title', label: 'title' })
        .click('Confirm changes to this tiddler')
        .exchange('PUT', '/recipes/default/tiddlers/Grocery%20List', {
          body: saved('Grocery List', { tags: [] }),
          status: 204,
          mime: 'text/plain',
        })
        .build('create a tiddler called Grocery List'),
    )
    expect(baseOf(last(tool))).toBeUndefined()
    expect(tool.evidence.signals.map((s) => s.name)).not.toContain('read_modify_write')
  })

  it('makes PUT new + DELETE old one rename tool: read old, write new, delete old', () => {
    const tool = compiled(
      wikiTrace()
        .fill('Meeting Notes', { name: 'search', label: 'Search' })
        .fill('Team Meeting Notes', { name: 'title', label: 'title' })
        .click('Confirm changes to this tiddler')
        .exchange('PUT', '/recipes/default/tiddlers/Team%20Meeting%20Notes', {
          body: saved('Team Meeting Notes', { tags: ['Work'] }),
          status: 204,
          mime: 'text/plain',
        })
        .exchange('DELETE', '/bags/default/tiddlers/Meeting%20Notes', {
          status: 204,
          mime: 'text/plain',
        })
        .build('rename the tiddler Meeting Notes to Team Meeting Notes'),
    )
    expect(
      tool.steps.map((s) => `${s.request.method} ${s.request.url.replace(/^.*:8080/, '')}`),
    ).toEqual([
      'GET /recipes/default/tiddlers/{{input.p1}}',
      'PUT /recipes/default/tiddlers/{{input.p0}}',
      'DELETE /bags/default/tiddlers/{{input.p1}}',
    ])
    expect(baseOf(tool.steps[1]!)?.changes).toEqual([
      { path: 'title', op: 'set', value: '{{input.p0}}' },
    ])
    expect(inputNames(tool)).toEqual([
      ['new_title', 'p0', 'Team Meeting Notes'],
      ['title', 'p1', 'Meeting Notes'],
    ])
    expect(tool.evidence.targetExchangeId).toBe('exc_3')
    expect(tool.verify).toMatchObject({ status: [200, 299], mimeType: '*' })
    expect(tool.mutating).toBe(true)
  })

  it('makes the same rename tool from a HAR whose intent names neither name', () => {
    // No actions and no value: the trace's shape (a listed record written under a new name, then
    // deleted) is the rename, and both names become required inputs.
    const tool = compiled(
      wikiTrace()
        .exchange('PUT', '/recipes/default/tiddlers/Team%20Meeting%20Notes', {
          body: saved('Team Meeting Notes', { tags: ['Work'] }),
          status: 204,
          mime: 'text/plain',
        })
        .exchange('DELETE', '/bags/default/tiddlers/Meeting%20Notes', {
          status: 204,
          mime: 'text/plain',
        })
        .build('give a tiddler a new title'),
    )
    expect(
      tool.steps.map((s) => `${s.request.method} ${s.request.url.replace(/^.*:8080/, '')}`),
    ).toEqual([
      'GET /recipes/default/tiddlers/{{input.p1}}',
      'PUT /recipes/default/tiddlers/{{input.p0}}',
      'DELETE /bags/default/tiddlers/{{input.p1}}',
    ])
    expect(inputNames(tool)).toEqual([
      ['new_title', 'p0', 'Team Meeting Notes'],
      ['title', 'p1', 'Meeting Notes'],
    ])
    expect(tool.inputs.required).toEqual(['new_title', 'title'])
  })
})
