/**
 * Issue 24 kind 9: times a page computed from its clock when the person acted (a pause window
 * ending in two hours, a due date tomorrow) are kept as their distance from the moment they were
 * sent and written in their recorded form from the run's clock; what the person typed stays an
 * input; a cache-buster stays "now".
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { createInputValidator, slotDefault } from '../../../src/main/engine/inputs'
import { renderRequest } from '../../../src/main/engine/template'
import { instantOf, relativeTimeName, renderRelativeTime } from '../../../src/shared/relativeTime'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c3', now: Date.UTC(2026, 10, 29) }
const HOUR = 3_600_000
const DAY = 24 * HOUR

describe('relative time names and their rendering', () => {
  const sent = Date.UTC(2026, 10, 29, 14, 0, 30, 250)

  it('keeps each written form and the distance, rounded to the minute (days for a date)', () => {
    expect(relativeTimeName(String(sent + 2 * HOUR + 700), sent)).toBe(
      `gen.time:${2 * HOUR}:${sent + 2 * HOUR + 700}`,
    )
    expect(relativeTimeName('2026-11-30', sent)).toBe(`gen.time:${DAY}:2026-11-30`)
    expect(relativeTimeName('2026-11-29 17:00', sent)).toBe(`gen.time:${3 * HOUR}:2026-11-29_17:00`)
    expect(relativeTimeName('2026-11-29T16:00:30+01:00', sent)).toBe(
      `gen.time:${HOUR}:2026-11-29T16:00:30p01:00`,
    )
    // Far from the moment of sending, or no time at all: kept as recorded.
    expect(relativeTimeName('2019-01-01', sent)).toBeNull()
    expect(relativeTimeName('2026-02-31', sent)).toBeNull()
    expect(relativeTimeName('order-2026', sent)).toBeNull()
  })

  it("reads a form field's wall clock: month first with dashes, day first with dots", () => {
    expect(relativeTimeName('11-29-2026 17:00:30', sent)).toBe(
      `gen.time:${3 * HOUR}:11-29-2026_17:00:30`,
    )
    expect(relativeTimeName('30.11.2026 14:00', sent)).toBe(`gen.time:${DAY}:30.11.2026_14:00`)
    expect(instantOf('02-30-2026 10:00')).toBeNull()
    const now = Date.UTC(2027, 0, 31, 23, 30, 0, 0)
    expect(renderRelativeTime(`gen.time:${3 * HOUR}:11-29-2026_17:00:30`, now)).toBe(
      '02-01-2027 02:30:00',
    )
    expect(renderRelativeTime(`gen.time:${DAY}:30.11.2026_14:00`, now)).toBe('01.02.2027 23:30')
  })

  it('writes now plus the distance in the recorded form', () => {
    const now = Date.UTC(2027, 0, 31, 23, 30, 0, 0)
    expect(renderRelativeTime(`gen.time:${2 * HOUR}:1764424830250`, now)).toBe(
      String(now + 2 * HOUR),
    )
    expect(renderRelativeTime(`gen.time:${HOUR}:1764424830`, now)).toBe(
      String(Math.floor((now + HOUR) / 1000)),
    )
    expect(renderRelativeTime(`gen.time:${DAY}:2026-11-30`, now)).toBe('2027-02-01')
    expect(renderRelativeTime(`gen.time:${HOUR}:2026-11-29_17:00`, now)).toBe('2027-02-01 00:30')
    expect(renderRelativeTime(`gen.time:${HOUR}:2026-11-29T16:00:30.000Z`, now)).toBe(
      '2027-02-01T00:30:00.000Z',
    )
    expect(renderRelativeTime(`gen.time:${HOUR}:2026-11-29T16:00:30p01:00`, now)).toBe(
      '2027-02-01T01:30:00+01:00',
    )
    expect(instantOf('2027-02-01T01:30:00+01:00')).toBe(now + HOUR)
    expect(renderRelativeTime('gen.now_ms', now)).toBeNull()
  })
})

describe('a write carrying a window computed from the clock', () => {
  // The builder's clock: the write is sent at 1_700_000_000_400 (ms).
  const sentAt = 1_700_000_000_400
  const trace = traceBuilder('http://127.0.0.1:9000')
    .fill('Night shift', { name: 'label', label: 'Label' })
    .submit()
    .exchange('POST', `/api/pauses?_=${sentAt - 5 * 60_000}`, {
      body: {
        label: 'Night shift',
        from: sentAt + 20,
        until: sentAt + 2 * HOUR + 20,
        due: new Date(sentAt + DAY).toISOString().slice(0, 10),
        at: new Date(sentAt + 90 * 60_000).toISOString(),
      },
      response: { id: 'p1', ok: true },
      status: 201,
    })
    .build('pause the worker for two hours, label it Night shift')
  const result = compileTrace(trace, options)
  const tool = (result.ok ? result.candidate : null) as ToolSpec
  const target = tool.steps.at(-1)!

  it('keeps the typed label an input and every computed time relative to the run', () => {
    const body = (target.request.body as { template: Record<string, unknown> }).template
    expect(body.label).toMatch(/^\{\{input\.p\d+\}\}$/)
    expect(body.from).toBe('{{num:gen.now_ms}}')
    expect(body.until).toBe(`{{num:gen.time:${2 * HOUR}:${sentAt + 2 * HOUR + 20}}}`)
    expect(body.due).toMatch(new RegExp(`^\\{\\{gen\\.time:${DAY}:\\d{4}-\\d{2}-\\d{2}\\}\\}$`))
    expect(body.at).toMatch(new RegExp(`^\\{\\{gen\\.time:${90 * 60_000}:`))
    expect(target.request.url).toContain('_={{gen.now_ms}}')
    expect(Object.keys(tool.inputs.properties)).toHaveLength(1)
  })

  it('sends, at run time, the same distances from the run clock, as numbers where they were', () => {
    const now = Date.UTC(2027, 5, 1, 8, 0, 0, 0)
    const slot = Object.values(tool.inputs.properties)[0]!['x-slot']
    const rendered = renderRequest(target.request, {
      [`input.${slot}`]: 'Day shift',
      'gen.now_ms': String(now),
    })
    const sent = JSON.parse(rendered.body as string)
    expect(sent).toEqual({
      label: 'Day shift',
      from: now,
      until: now + 2 * HOUR,
      due: '2027-06-02',
      at: '2027-06-01T09:30:00.000Z',
    })
  })
})

describe('a time the person typed from the moment they acted', () => {
  // The builder's clock: the end time is typed at 1_700_000_000_200 (ms), three hours on.
  const typedAt = 1_700_000_000_200
  const end = new Date(typedAt + 3 * HOUR).toISOString()
  const wall = `${end.slice(5, 7)}-${end.slice(8, 10)}-${end.slice(0, 4)} ${end.slice(11, 19)}`
  const trace = traceBuilder('http://127.0.0.1:9000')
    .fill('Kernel upgrade', { name: 'com_data', label: 'Comment' })
    .fill(wall, { name: 'end_time', label: 'End Time' })
    .submit()
    .exchange('POST', '/cgi-bin/cmd.cgi', {
      form: `cmd_typ=55&host=web01&com_data=Kernel+upgrade&end_time=${encodeURIComponent(wall)}`,
      mime: 'text/html',
      responseText: '<p>Your command request was successfully submitted.</p>',
    })
    .build('schedule downtime for web01 for 3 hours with the comment "Kernel upgrade"')
  const result = compileTrace(trace, options)
  const tool = (result.ok ? result.candidate : null) as ToolSpec

  it('is an optional input whose default is the same distance from the run', () => {
    const [name, slot] = Object.entries(tool.inputs.properties).find(
      ([, p]) => p['x-path'] === 'end_time',
    )!
    expect(tool.inputs.required).not.toContain(name)
    expect(slot['x-default-time']).toBe(`gen.time:${3 * HOUR}:${wall.replace(' ', '_')}`)
    const now = Date.UTC(2027, 5, 1, 8, 0, 0, 0)
    expect(slotDefault(slot, now)).toBe('06-01-2027 11:00:00')
    const scope = createInputValidator().toScope(tool, {})
    expect(scope[`input.${slot['x-slot']}`]).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/)
    expect(scope[`input.${slot['x-slot']}`]).not.toBe(wall)
  })
})
