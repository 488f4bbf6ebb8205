import { describe, expect, it } from 'vitest'
import { resolveInputs, type PlannedCall } from '../../../src/main/surface/composePlan'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { isServiceError } from '../../../src/shared/errors'

/** A planned call of a tool whose details `resolveInputs` does not read. */
const call = (inputs: Record<string, unknown>): PlannedCall => ({
  index: 1,
  app: 'shop.test',
  tool: { name: 'shop__get_order' } as ToolSpec,
  inputs,
  allowMutation: false,
})

const answered = {
  steps: [
    {
      runId: 'lrun_1',
      data: {
        orders: [
          { id: 'o-1', total: 5 },
          { id: 'o-2', total: 7 },
        ],
        next: null,
      },
    },
  ],
}

describe('resolveInputs (compose steps)', () => {
  it('takes the first match of a path, every match of a path with [], and keeps plain values', () => {
    expect(
      resolveInputs(
        call({
          order: { $from: 'steps[0].data.orders[0].id' },
          all: { $from: 'steps[0].data.orders[].id' },
          run: { $from: 'steps[0].runId' },
          note: 'as sent',
          shaped: { $from: 'steps[0].data.orders[1].total', extra: 1 },
        }),
        answered,
      ),
    ).toEqual({
      order: 'o-1',
      all: ['o-1', 'o-2'],
      run: 'lrun_1',
      note: 'as sent',
      // Not a reference (a second key): sent as it is.
      shaped: { $from: 'steps[0].data.orders[1].total', extra: 1 },
    })
  })

  it('refuses a path that matches nothing with 422 invalid_input naming the input', () => {
    let thrown: unknown
    try {
      resolveInputs(call({ order: { $from: 'steps[0].data.refunds[0].id' } }), answered)
    } catch (error) {
      thrown = error
    }
    expect(isServiceError(thrown) && thrown.code).toBe('invalid_input')
    expect(isServiceError(thrown) && thrown.status).toBe(422)
    expect(isServiceError(thrown) && thrown.details).toEqual({ input: 'order' })
  })

  it('never walks into a prototype', () => {
    expect(() =>
      resolveInputs(call({ x: { $from: 'steps[0].data.__proto__.polluted' } }), answered),
    ).toThrow()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
