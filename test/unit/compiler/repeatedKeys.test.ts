import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { queryEntries, requestValues } from '../../../src/main/compiler/requestValues'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-000000000009', now: Date.UTC(2026, 10, 25) }

const LIST =
  '/projects/web/issues?set_filter=1&f[]=status_id&op[status_id]=o&f[]=tracker_id&op[tracker_id]==&v[tracker_id][]=3&f[]=&c[]=tracker&c[]=subject'

/**
 * An issue list filtered the Rails way: the person picks "Tracker" in a nameless "Add filter"
 * select (the page adds `tracker_id` to the `f[]` list), then "Support" (3) in the named
 * `v[tracker_id][]` select, and applies.
 */
function filterTrace(): Trace {
  const trace = traceBuilder('http://127.0.0.1:3000')
    .exchange('GET', '/projects/web/issues', { mime: 'text/html', responseText: '<p>all</p>' })
    .fill('tracker_id', { name: 'add_filter', options: ['', 'status_id', 'tracker_id'] })
    .fill('3', { name: 'v[tracker_id][]', options: ['1', '2', '3'], label: 'Tracker' })
    .click('Apply')
    .exchange('GET', LIST, { mime: 'text/html', type: 'document', responseText: '<p>3</p>' })
    .build('list the Support issues of the web project')
  // A `<select>` without a name attribute: the recorder gives it no field name.
  trace.actions[0] = { ...trace.actions[0]!, fieldName: null, name: 'Add filter' }
  return trace
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('repeated query keys', () => {
  it('names each occurrence of a repeated key by its place', () => {
    expect(queryEntries(`http://x${LIST}`).filter((e) => e.key === 'f[]')).toEqual([
      { key: 'f[]', value: 'status_id', path: 'f[]' },
      { key: 'f[]', value: 'tracker_id', path: 'f[]#2' },
      { key: 'f[]', value: '', path: 'f[]#3' },
    ])
    const trace = filterTrace()
    const paths = requestValues(trace.exchanges[1]!).map((v) => v.path)
    expect(paths).toEqual([
      'set_filter',
      'f[]',
      'op[status_id]',
      'f[]#2',
      'op[tracker_id]',
      'v[tracker_id][]',
      'f[]#3',
      'c[]',
      'c[]#2',
    ])
  })

  it('keeps every occurrence in its place, each with its own slot or constant', () => {
    const tool = compiled(filterTrace())
    const target = tool.steps[tool.steps.length - 1]!.request
    const f = [...target.url.matchAll(/f%5B%5D=([^&]*)/g)].map((m) => m[1])
    expect(f).toHaveLength(3)
    // Three places, three different templates: never one placeholder in all of them.
    expect(new Set(f).size).toBe(3)
    const c = [...target.url.matchAll(/c%5B%5D=([^&]*)/g)].map((m) => m[1])
    expect(new Set(c).size).toBe(2)
    // Rendered with the defaults, the URL is the recorded one.
    const defaults = Object.values(tool.inputs.properties)
    const rendered = target.url.replace(/\{\{input\.(p\d+)\}\}/g, (_, slot: string) =>
      encodeURIComponent(String(defaults.find((p) => p['x-slot'] === slot)?.default ?? '')),
    )
    expect(new URL(rendered).searchParams.getAll('f[]')).toEqual(['status_id', 'tracker_id', ''])
    expect(new URL(rendered).searchParams.getAll('c[]')).toEqual(['tracker', 'subject'])
  })

  it('takes the named select as the input and keeps the nameless one optional', () => {
    const tool = compiled(filterTrace())
    const byDefault = (value: string) =>
      Object.entries(tool.inputs.properties).find(([, p]) => String(p.default) === value)?.[0]
    const tracker = byDefault('3')
    const shape = Object.entries(tool.inputs.properties).find(
      ([, p]) => p['x-path'] === 'f[]#2',
    )?.[0]
    expect(tracker).toBeDefined()
    expect(tool.inputs.required).toContain(tracker)
    expect(shape).toBeDefined()
    expect(tool.inputs.required).not.toContain(shape)
  })

  it('keeps a nameless select required when its value is sent once', () => {
    const trace = traceBuilder('http://127.0.0.1:3000')
      .fill('books', { name: 'category', options: ['books', 'music'] })
      .click('Go')
      .exchange('GET', '/api/items?category=books&page=1', { response: { items: [] } })
      .build('list the items in books')
    trace.actions[0] = { ...trace.actions[0]!, fieldName: null }
    const tool = compiled(trace)
    expect(tool.inputs.required).toEqual(['category'])
  })
})

describe('repeated query keys of a dependency step', () => {
  it('gives each occurrence its own traced value', () => {
    const trace = traceBuilder('http://127.0.0.1:3000')
      .exchange('GET', '/api/items', {
        response: { items: [{ id: 'itm1a2b3c4' }, { id: 'itm5d6e7f8' }] },
      })
      .exchange('GET', '/export?ids[]=itm1a2b3c4&ids[]=itm5d6e7f8&format=csv', {
        response: { csrf: 'csrf9z8y7x6w' },
      })
      .fill('Quarterly', { name: 'title', label: 'Title' })
      .submit()
      .exchange('POST', '/export/confirm', {
        body: { title: 'Quarterly', token: 'csrf9z8y7x6w' },
        response: { ok: true },
      })
      .build('export the items titled Quarterly')
    const tool = compiled(trace)
    const page = tool.steps.find((s) => s.request.url.includes('/export?'))!
    const ids = [...page.request.url.matchAll(/ids%5B%5D=([^&]*)/g)].map((m) => m[1])
    expect(ids).toHaveLength(2)
    expect(ids[0]).toMatch(/^\{\{step\./)
    expect(ids[1]).toMatch(/^\{\{step\./)
    expect(ids[0]).not.toBe(ids[1])
  })
})

describe('repeated query keys the target keeps constant', () => {
  it('puts each traced occurrence in its own place', () => {
    const report = (q: string) => `/api/report?ids[]=itm1a2b3c4&ids[]=itm5d6e7f8&q=${q}`
    const trace = traceBuilder('http://127.0.0.1:3000')
      .exchange('GET', '/api/items', {
        response: { items: [{ id: 'itm1a2b3c4' }, { id: 'itm5d6e7f8' }] },
      })
      .exchange('GET', report('spring'), { response: { rows: [{ q: 'spring' }] } })
      .fill('summer', { name: 'q', label: 'Search' })
      .submit()
      .exchange('GET', report('summer'), { response: { rows: [{ q: 'summer' }] } })
      .build('report on the items for summer')
    const tool = compiled(trace)
    const target = tool.steps[tool.steps.length - 1]!.request.url
    const ids = [...target.matchAll(/ids%5B%5D=([^&]*)/g)].map((m) => m[1])
    expect(ids).toHaveLength(2)
    expect(ids.every((id) => /^\{\{step\./.test(id!))).toBe(true)
    expect(ids[0]).not.toBe(ids[1])
  })
})
