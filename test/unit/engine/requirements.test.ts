import { describe, expect, it } from 'vitest'
import {
  applyAnswers,
  planRequirements,
  REQUIREMENT_WINDOW_MS,
  type OpenRequirement,
} from '../../../src/main/engine/requirements'
import { isServiceError } from '../../../src/shared/errors'
import type { ToolSpec } from '../../../src/shared/toolSpec'

const NOW = Date.parse('2026-03-01T10:00:00.000Z')
const RUN = 'lrun_01TEST'

/** A write with a typed body, an enum slot, a URL slot and an optional slot with a default. */
function tool(): ToolSpec {
  return {
    id: 'tool-1',
    siteHost: 'shop.example',
    name: 'shop__post_orders',
    capabilityId: 'shop.example/shop__post_orders',
    intent: 'create an order',
    description: '',
    version: '1',
    mutating: true,
    status: 'verified',
    inputs: {
      type: 'object',
      properties: {
        item: { type: 'string', 'x-slot': 'p0', 'x-in': 'body', 'x-path': 'item' },
        quantity: { type: 'integer', 'x-slot': 'p1', 'x-in': 'body', 'x-path': 'quantity' },
        shipping: {
          type: 'string',
          enum: ['standard', 'express', 'expedited', 'overnight'],
          'x-slot': 'p2',
          'x-in': 'body',
          'x-path': 'shipping',
        },
        store: { type: 'string', 'x-slot': 'p3', 'x-in': 'path', 'x-path': '1' },
        gift: { type: 'boolean', default: false, 'x-slot': 'p4', 'x-in': 'body', 'x-path': 'gift' },
        note: { type: 'string', 'x-slot': 'p5', 'x-in': 'body', 'x-path': 'note' },
      },
      required: ['item', 'quantity', 'shipping'],
    },
    steps: [
      {
        id: 'd1',
        request: { method: 'GET', url: 'https://shop.example/orders', headers: {}, body: null },
        extract: [{ name: 'csrf', from: 'meta', path: 'csrf-token' }],
      },
      {
        id: 'target',
        request: {
          method: 'POST',
          url: 'https://shop.example/{{input.p3}}/orders?ts={{gen.now_ms}}',
          headers: { 'x-csrf-token': '{{step.d1.csrf}}' },
          body: {
            kind: 'json',
            template: {
              item: '{{input.p0}}',
              quantity: '{{input.p1}}',
              shipping: '{{input.p2}}',
              gift: '{{input.p4}}',
              note: '{{input.p5}}',
              label: 'for {{input.p0}}',
            },
          },
        },
        extract: [],
      },
    ],
    output: { type: 'object' },
    verify: { status: [200, 299], mimeType: 'application/json', required: [] },
    via: 'http',
    evidence: {
      traceId: 't',
      targetExchangeId: 'e',
      exchangeIds: [],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
}

const plan = (inputs: Record<string, unknown>, needsApproval = false) =>
  planRequirements(tool(), inputs, { runId: RUN, revision: 1, now: NOW, needsApproval })

const complete = { item: 'Mug', quantity: 2, shipping: 'express', store: 'north side' }

/** The ServiceError a call throws: its code and status. */
function thrown(fn: () => unknown): { code: string; status: number } {
  try {
    fn()
  } catch (error) {
    if (isServiceError(error)) return { code: error.code, status: error.status }
    throw error
  }
  throw new Error('expected a ServiceError')
}

describe('planRequirements', () => {
  it('asks nothing of a complete read call', () => {
    expect(plan(complete)).toEqual({ inputs: complete, requirements: [] })
  })

  it('asks a value for each missing required slot, not for optional ones', () => {
    const { requirements } = plan({ shipping: 'express' })
    expect(requirements.map((r) => [r.kind, r.slot, r.id])).toEqual([
      ['value', 'item', `${RUN}.1.1`],
      ['value', 'quantity', `${RUN}.1.2`],
    ])
    expect(requirements[0]!.expiresAt).toBe(new Date(NOW + REQUIREMENT_WINDOW_MS).toISOString())
  })

  it('keeps an exact option and takes a unique case-insensitive prefix as that option', () => {
    expect(plan({ ...complete, shipping: 'overnight' }).inputs.shipping).toBe('overnight')
    const { inputs, requirements } = plan({ ...complete, shipping: 'OVER' })
    expect(inputs.shipping).toBe('overnight')
    expect(requirements).toEqual([])
  })

  it('offers only the options a prefix fits when it fits several, keeping their ids', () => {
    const { inputs, requirements } = plan({ ...complete, shipping: 'exp' })
    expect(inputs).not.toHaveProperty('shipping')
    expect(requirements).toEqual([
      {
        id: `${RUN}.1.1`,
        kind: 'choice',
        slot: 'shipping',
        options: [
          { id: 'opt_1', label: 'express' },
          { id: 'opt_2', label: 'expedited' },
        ],
        message: expect.stringContaining('several'),
        expiresAt: expect.any(String),
      },
    ])
  })

  it('offers every option when a value matches none', () => {
    const [choice] = plan({ ...complete, shipping: 'teleport' }).requirements
    expect(choice!.options!.map((o) => o.id)).toEqual(['opt_0', 'opt_1', 'opt_2', 'opt_3'])
  })

  it('leaves a non-string value of an option slot to the type check', () => {
    expect(plan({ ...complete, shipping: 3 }).requirements).toEqual([])
  })

  it('asks approval last, showing the target request as the executor renders it', () => {
    const { requirements } = plan({ ...complete, item: 'Mug "XL"' }, true)
    expect(requirements).toHaveLength(1)
    expect(requirements[0]).toMatchObject({ id: `${RUN}.1.1`, kind: 'approval' })
    expect(requirements[0]!.request).toEqual({
      method: 'POST',
      // A URL slot percent-encoded; a value only known at send time stays a placeholder.
      url: 'https://shop.example/north%20side/orders?ts={{gen.now_ms}}',
      // The integer stays a number, quotes survive, the default fills `gift`, the absent
      // optional `note` is left out.
      body: {
        item: 'Mug "XL"',
        quantity: 2,
        shipping: 'express',
        gift: false,
        label: 'for Mug "XL"',
      },
    })
  })

  it('asks approval after the values and choices it needs', () => {
    const kinds = plan({ quantity: 1, shipping: 'x' }, true).requirements.map((r) => r.kind)
    expect(kinds).toEqual(['value', 'choice', 'approval'])
  })
})

describe('applyAnswers', () => {
  const waiting = (inputs: Record<string, unknown>) => {
    const planned = plan(inputs, true)
    return { open: planned.requirements as OpenRequirement[], inputs: planned.inputs }
  }
  const apply = (
    w: { open: OpenRequirement[]; inputs: Record<string, unknown> },
    answers: Array<Record<string, unknown> & { requirementId: string }>,
    now = NOW,
  ) => applyAnswers(tool(), RUN, w.open, w.inputs, answers, now)

  it('fills values by the slot type, picks options by id, and closes what it answered', () => {
    const w = waiting({ item: 'Mug', shipping: 'exp' })
    const [quantity, shipping, approval] = w.open
    const out = apply(w, [
      { requirementId: quantity!.id, value: '3' },
      { requirementId: shipping!.id, optionId: 'opt_2' },
    ])
    expect(out.inputs).toEqual({ item: 'Mug', quantity: 3, shipping: 'expedited' })
    // The approval left open now shows the request with the answered values in it.
    expect(out.open).toEqual([
      {
        ...approval,
        request: {
          ...approval!.request,
          body: { item: 'Mug', quantity: 3, shipping: 'expedited', gift: false, label: 'for Mug' },
        },
      },
    ])
    expect(out.declined).toBe(false)
  })

  it('reports a declined approval', () => {
    const w = waiting(complete)
    expect(apply(w, [{ requirementId: w.open[0]!.id, approve: false }]).declined).toBe(true)
    expect(apply(w, [{ requirementId: w.open[0]!.id, approve: true }])).toMatchObject({
      declined: false,
      open: [],
    })
  })

  it('refuses answers that do not fit their requirement with 422', () => {
    const w = waiting({ item: 'Mug', shipping: 'exp' })
    const [quantity, shipping, approval] = w.open
    const cases: Array<[Record<string, unknown> & { requirementId: string }, string]> = [
      [{ requirementId: quantity!.id, value: '2.5' }, 'invalid_answer'],
      [{ requirementId: quantity!.id, value: 'two' }, 'invalid_answer'],
      [{ requirementId: quantity!.id }, 'invalid_answer'],
      [{ requirementId: quantity!.id, value: null }, 'invalid_answer'],
      // An option of the slot that this choice did not offer.
      [{ requirementId: shipping!.id, optionId: 'opt_0' }, 'invalid_option'],
      [{ requirementId: shipping!.id, value: 'express' }, 'invalid_option'],
      [{ requirementId: approval!.id, approve: 'yes' }, 'invalid_answer'],
      [{ requirementId: 'lrun_OTHER.1.1', approve: true }, 'unknown_requirement'],
      [{ requirementId: 'anything', approve: true }, 'unknown_requirement'],
    ]
    for (const [answer, code] of cases)
      expect(
        thrown(() => apply(w, [answer])),
        JSON.stringify(answer),
      ).toEqual({ code, status: 422 })
  })

  it('gives stale_requirement (409) for an id of this run that is no longer open', () => {
    const w = waiting({ item: 'Mug', shipping: 'express' })
    const after = apply(w, [{ requirementId: w.open[0]!.id, value: 1 }])
    const next = { open: after.open, inputs: after.inputs }
    expect(thrown(() => apply(next, [{ requirementId: w.open[0]!.id, value: 1 }]))).toEqual({
      code: 'stale_requirement',
      status: 409,
    })
  })

  it('gives expired_requirement (409) from the 15th minute on', () => {
    const w = waiting(complete)
    const answer = { requirementId: w.open[0]!.id, approve: true }
    expect(apply(w, [answer], NOW + REQUIREMENT_WINDOW_MS - 1).open).toEqual([])
    expect(thrown(() => apply(w, [answer], NOW + REQUIREMENT_WINDOW_MS))).toEqual({
      code: 'expired_requirement',
      status: 409,
    })
  })

  it('checks a value against the options of its slot', () => {
    const open: OpenRequirement[] = [
      {
        id: `${RUN}.1.1`,
        kind: 'value',
        slot: 'shipping',
        message: '',
        expiresAt: '2099-01-01T00:00:00Z',
      },
    ]
    const at = (value: unknown) =>
      applyAnswers(tool(), RUN, open, {}, [{ requirementId: `${RUN}.1.1`, value }], NOW)
    expect(at('overnight').inputs).toEqual({ shipping: 'overnight' })
    expect(thrown(() => at('teleport')).code).toBe('invalid_answer')
  })
})
