import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { lookupByName } from '../../../src/main/compiler/lookupByName'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-000000000008', now: Date.UTC(2026, 10, 25) }
const INTENT = 'trigger the inject node "run nightly import" by hand'

const node = (id: string, name: string) => ({ id, type: 'inject', name, z: 'tab0000000001' })

/** A flow editor: the page loads every node, the person clicks one node's button. */
function injectTrace(nodes: Array<Record<string, unknown>>, intent = INTENT): Trace {
  return traceBuilder('http://127.0.0.1:1880')
    .exchange('GET', '/flows', { response: { rev: 'r1', flows: nodes } })
    .exchange('POST', '/inject/a1a0000000000001', {
      body: {},
      mime: 'text/plain',
      responseText: 'OK',
    })
    .build(intent)
}

const stepsOf = (tool: ToolSpec) => tool.steps.map((s) => s.extract.map((x) => x.path))

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('lookupByName', () => {
  const nodes = [
    { id: 'tab0000000001', type: 'tab', label: 'Nightly import' },
    node('a1a0000000000002', 'refresh reports cache'),
    node('a1a0000000000001', 'run nightly import'),
  ]

  it('reads the id by the name the intent quotes, and makes the name the input', () => {
    const tool = compiled(injectTrace(nodes))
    expect(tool.steps[tool.steps.length - 1]!.request.url).toMatch(
      /\/inject\/\{\{step\.d1\.\w+\}\}$/,
    )
    expect(stepsOf(tool)[0]).toEqual(['flows[?name=={{input.p0}}].id'])
    expect(tool.inputs.properties.name).toMatchObject({
      'x-slot': 'p0',
      'x-in': 'answer',
      'x-path': `step.d1.${tool.steps[0]!.extract[0]!.name}`,
      type: 'string',
      default: 'run nightly import',
    })
    expect(tool.inputs.required).toContain('name')
    expect(tool.evidence.signals.map((s) => s.name)).toContain('lookup_by_name')
  })

  it('takes a name from what was clicked, and keeps it optional when only intent words name it', () => {
    const words = compileTrace(injectTrace(nodes, 'trigger the run nightly import node now'), {
      ...options,
      targetExchangeId: 'exc_2',
    })
    if (!words.ok) throw new Error(words.explanation.reason)
    const byWords = words.candidate
    expect(stepsOf(byWords)[0]).toEqual(['flows[?name=={{input.p0}}].id'])
    expect(byWords.inputs.required ?? []).not.toContain('name')

    const unnamed = injectTrace(nodes, 'trigger an inject node by hand')
    const manual = compileTrace(unnamed, { ...options, targetExchangeId: 'exc_2' })
    if (!manual.ok) throw new Error(manual.explanation.reason)
    const positional = manual.candidate
    expect(stepsOf(positional)[0]).toEqual(['flows[2].id'])
    unnamed.actions.push({
      seq: 1,
      kind: 'click',
      at: unnamed.exchanges[0]!.startedAt + 50,
      pageUrl: 'http://127.0.0.1:1880/',
      selector: '#a1a0000000000001 rect',
      role: 'button',
      name: 'run nightly import',
      value: null,
    })
    const clicked = lookupByName(positional, unnamed)
    expect(stepsOf(clicked)[0]).toEqual(['flows[?name=={{input.p0}}].id'])
    expect(clicked.inputs.required).toContain('name')
    expect(positional.steps[0]!.extract[0]!.path).toBe('flows[2].id')
  })

  it('keeps the position when two records share the name', () => {
    const twins = [...nodes, node('a1a0000000000003', 'run nightly import')]
    expect(stepsOf(compiled(injectTrace(twins)))[0]).toEqual(['flows[2].id'])
  })

  it('keeps positions when the request copies the whole list (every id by position)', () => {
    const trace = traceBuilder('http://127.0.0.1:1880')
      .exchange('GET', '/flows', { response: { rev: 'r1', flows: nodes } })
      .exchange('POST', '/flows', {
        body: {
          rev: 'r1',
          flows: nodes.map((n) => (n.id === 'a1a0000000000001' ? { ...n, disabled: true } : n)),
        },
        response: { rev: 'r2' },
      })
      .build('disable the node "run nightly import"')
    const tool = compiled(trace)
    expect(stepsOf(tool)[0]!.every((p) => !p.includes('[?'))).toBe(true)
    // The copied list is the read's answer with the one change (readModifyWrite.ts).
    const body = tool.steps[1]!.request.body
    expect(body?.kind === 'json' && body.base?.changes).toEqual([
      { path: 'flows[?name=={{input.p0}}].disabled', op: 'set', value: true },
    ])
  })

  it('puts the name in the own search of the step too (a typed filter)', () => {
    const trace = traceBuilder('http://127.0.0.1:1880')
      .fill('Acme Corp', { name: 'customer', label: 'Customer' })
      .exchange('GET', '/api/customers?q=Acme%20Corp', {
        response: {
          data: [
            { id: 'cus_0000042', name: 'Acme Corp' },
            { id: 'cus_0000043', name: 'Acme Corp Ltd' },
          ],
        },
      })
      .submit()
      .exchange('GET', '/api/customers/cus_0000042/invoices', {
        response: { invoices: [{ id: 'inv_1', total: 12 }] },
      })
      .build('list the invoices of the customer Acme Corp')
    const result = compileTrace(trace, { ...options, targetExchangeId: 'exc_2' })
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    expect(tool.steps[tool.steps.length - 1]!.request.url).toContain('/api/customers/{{step.d1.')
    expect(stepsOf(tool)[0]).toEqual(['data[?name=={{input.p0}}].id'])
    // The search that found the customer takes the name too.
    expect(tool.steps[0]!.request.url).toMatch(/\/api\/customers\?q=\{\{input\.p0\}\}$/)
    expect(tool.inputs.properties.name).toMatchObject({ 'x-in': 'answer', default: 'Acme Corp' })
  })
})
