/**
 * A form field sent more than once (a checkbox's hidden `off` then its `on`; the items of a
 * multi-select) is sent again as often as recorded, in order, by the compiled tool.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { requestValues } from '../../../src/main/compiler/requestValues'
import { renderRequest } from '../../../src/main/engine/template'
import { generatedFor } from '../../../src/main/engine/httpExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { traceBuilder } from './traceBuilder'

const body = 'username=ann&active=off&active=on&member%5B%5D=7&member%5B%5D=9&save=Create'

function compiled(): ToolSpec {
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/admin/user/new', {
      mime: 'text/html',
      responseText: '<html><title>New user</title><form method="post"></form></html>',
      type: 'document',
    })
    .fill('ann', { name: 'username', label: 'User name' })
    .submit()
    .exchange('POST', '/admin/user/new', { form: body, mime: 'text/html', responseText: '' })
    .build('create the user ann')
  const result = compileTrace(trace, {
    toolId: '00000000-0000-4000-8000-0000000000d3',
    now: Date.UTC(2026, 10, 30),
    targetModel: null,
  })
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('a repeated form field', () => {
  it('is a value per occurrence, later ones named key#n', () => {
    const values = requestValues(
      traceBuilder().exchange('POST', '/x', { form: body }).build().exchanges[0]!,
    )
    expect(values.map((v) => [v.path, v.value])).toEqual([
      ['username', 'ann'],
      ['active', 'off'],
      ['active#2', 'on'],
      ['member[]', '7'],
      ['member[]#2', '9'],
      ['save', 'Create'],
    ])
  })

  it('is sent again as often as recorded, in order, with the typed value changed', () => {
    const tool = compiled()
    const target = tool.steps.at(-1)!.request
    const slot = Object.entries(tool.inputs.properties).find(([, p]) => p['x-path'] === 'username')
    expect(slot).toBeDefined()
    const inputs: Record<string, unknown> = {}
    for (const p of Object.values(tool.inputs.properties))
      if (p.default !== undefined) inputs[`input.${p['x-slot']}`] = p.default
    inputs[`input.${slot![1]['x-slot']}`] = 'grace'
    const rendered = renderRequest(target, { ...generatedFor(tool), ...inputs })
    expect(rendered.body).toBe(body.replace('ann', 'grace'))
  })
})
