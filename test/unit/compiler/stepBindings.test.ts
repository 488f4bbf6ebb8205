/**
 * Dependency steps are made while the target's inputs have their first slot ids; when bindings
 * take an input away (its value read from a step) the others are renumbered, and the steps must
 * follow, or a step sends another input's value (Adminer's `pgsql=` server sent the user name).
 */
import { describe, expect, it } from 'vitest'
import { applyBindings, stepsAfterBindings } from '../../../src/main/compiler/bindings'
import type { SlotSchema, ToolStep } from '../../../src/shared/toolSpec'

const slot = (id: string, path: string, value: string): SlotSchema => ({
  'x-slot': id,
  'x-in': 'query',
  'x-path': path,
  type: 'string',
  default: value,
})

describe('dependency steps after the bindings renumber the inputs', () => {
  it('follow a kept input to its new id and send the recorded value of one bound away', () => {
    const plan = {
      inputs: {
        type: 'object' as const,
        properties: {
          pgsql: slot('p0', 'pgsql', '127.0.0.1'),
          username: slot('p1', 'username', 'ada'),
        },
        required: [],
      },
      request: {
        method: 'GET',
        url: 'http://db.example/?pgsql={{input.p0}}&username={{input.p1}}&select=x',
        headers: {},
        body: null,
      },
    }
    const step: ToolStep = {
      id: 'd7',
      exchangeId: 'exc_7',
      request: {
        method: 'GET',
        url: 'http://db.example/?pgsql={{input.p0}}&username={{input.p1}}',
        headers: {},
        body: { kind: 'form', template: { who: '{{input.p1}}', server: '{{input.p0}}' } },
      },
      extract: [{ name: 'pgsql', from: 'input', path: 'pgsql' }],
    }
    const before = new Map(
      Object.entries(plan.inputs.properties).map(([name, p]) => [
        p['x-slot'],
        { name, default: p.default },
      ]),
    )
    const bound = applyBindings(plan, new Map([['query:pgsql', '{{step.d7.pgsql}}']]))
    expect(bound.inputs.properties.username?.['x-slot']).toBe('p0')
    const [after] = stepsAfterBindings([step], before, bound.inputs)
    expect(after!.request.url).toBe('http://db.example/?pgsql=127.0.0.1&username={{input.p0}}')
    expect(after!.request.body).toEqual({
      kind: 'form',
      template: { who: '{{input.p0}}', server: '127.0.0.1' },
    })
  })
})
