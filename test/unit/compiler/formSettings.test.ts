/**
 * What the person named is what a caller gives: a choice from a list the intent does not name (a
 * queue's "durable" kept as the form offered it) is an optional input with the chosen value as its
 * default, while the values the intent spells out stay required. And one value typed into two
 * fields is two inputs, each described by its own field.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c6', now: Date.UTC(2026, 10, 29) }

function compiled(trace: ReturnType<ReturnType<typeof traceBuilder>['build']>) {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('form settings the intent does not name', () => {
  const trace = () =>
    traceBuilder('http://127.0.0.1:15672')
      .fill('shop', { name: 'vhost', options: ['/', 'analytics', 'shop'] })
      .fill('refunds.pending', { name: 'name', label: 'Name' })
      .fill('true', { name: 'durable', options: ['true', 'false'] })
      .click('Add queue')
      .exchange('PUT', '/api/queues/shop/refunds.pending', {
        body: { vhost: 'shop', name: 'refunds.pending', durable: 'true' },
        response: {},
        type: 'xhr',
      })
      .build('add a durable queue refunds.pending in the shop vhost')

  it('keeps a choice the intent does not name optional, with the chosen value as default', () => {
    const tool = compiled(trace())
    const byPath = Object.fromEntries(
      Object.entries(tool.inputs.properties).map(([name, p]) => [p['x-path'], name]),
    )
    // The vhost is named as the place the queue goes ("in the shop vhost"): optional, recorded
    // default (`namesPlace`); the queue's name is what the caller gives.
    expect(tool.inputs.required).toEqual([byPath.name])
    expect(tool.inputs.properties[byPath.vhost!]?.default).toBe('shop')
    expect(tool.inputs.properties[byPath.durable!]?.default).toBe('true')
  })

  it('keeps every typed value required when the intent names none of them', () => {
    const t = trace()
    t.intent = 'add a queue'
    const tool = compiled(t)
    expect(tool.inputs.required).toHaveLength(3)
  })
})

describe('one value typed into two fields', () => {
  it('describes each input by its own field', () => {
    const tool = compiled(
      traceBuilder('http://127.0.0.1:15672')
        .fill('^$', { name: 'configure', label: 'Configure regexp' })
        .fill('^$', { name: 'write', label: 'Write regexp' })
        .fill('^orders', { name: 'read', label: 'Read regexp' })
        .click('Set permission')
        .exchange('PUT', '/api/permissions/shop/carol', {
          body: { configure: '^$', write: '^$', read: '^orders' },
          response: {},
          type: 'xhr',
        })
        .build('let carol read the queues matching ^orders on the shop vhost'),
    )
    const described = Object.values(tool.inputs.properties)
      .filter((p) => p['x-in'] === 'body')
      .map((p) => [p['x-path'], p.description])
    expect(described).toEqual([
      ['configure', expect.stringContaining('"Configure regexp"')],
      ['write', expect.stringContaining('"Write regexp"')],
      ['read', expect.stringContaining('"Read regexp"')],
    ])
  })
})
