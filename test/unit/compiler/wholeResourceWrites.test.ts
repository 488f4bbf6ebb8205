/**
 * Issue 24 kinds 4 and 8 on a whole-resource write (a configuration read, changed in one place and
 * written back): list records are paired by their id, not their position, so a client that sorts
 * the list differently changes one record; a record the write leaves out is removed, found by the
 * name the person gave; a sealed password field keeps the site's value; a framework's bookkeeping
 * fields are not sent; the write is no sign-in although it carries a password field; an event
 * feed read from a cursor is no source of values.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { diffResource } from '../../../src/main/compiler/resourceDiff'
import { isLongPoll } from '../../../src/main/compiler/valueSources'
import type { JsonBodyBase, ToolSpec } from '../../../src/shared/toolSpec'
import { SECRET_PLACEHOLDER } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000c8', now: Date.UTC(2026, 10, 28) }

const config = {
  version: 36,
  folders: [
    { id: 'aa11', label: 'Photos', paused: false },
    { id: 'bb22', label: 'Camera Uploads', paused: false },
    { id: 'cc33', label: 'Old Backups', paused: false },
  ],
  gui: { user: 'ada', password: '$2a$10$hashhashhash' },
}

/** What the GUI sends back: folders sorted by label, its own fields added, the password sealed. */
function sentBack(change: (folders: Array<Record<string, unknown>>) => void) {
  const folders = [...config.folders]
    .sort((a, b) => a.label.localeCompare(b.label))
    .map((f, i) => ({ ...f, $$hashKey: `object:${i}` }))
  change(folders)
  return { ...config, folders, gui: { user: 'ada', password: SECRET_PLACEHOLDER } }
}

function compiled(intent: string, body: unknown): ToolSpec {
  const trace = traceBuilder('http://127.0.0.1:8384')
    .exchange('GET', '/rest/config', { response: config })
    .exchange('GET', '/rest/events?since=41', { response: [{ id: 42, data: { folder: 'aa11' } }] })
    .click('Save')
    .exchange('PUT', '/rest/config', { body, status: 200, responseText: '' })
    .build(intent)
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const baseOf = (tool: ToolSpec) => (tool.steps.at(-1)!.request.body as { base?: JsonBodyBase }).base

describe('a whole configuration written back', () => {
  it('changes the one record the person changed, found by the name the intent gives', () => {
    const tool = compiled(
      'pause the folder Camera Uploads',
      sentBack((fs) => (fs.find((f) => f.label === 'Camera Uploads')!.paused = true)),
    )
    expect(tool.mutating).toBe(true)
    expect(tool.steps.map((s) => `${s.request.method} ${new URL(s.request.url).pathname}`)).toEqual(
      ['GET /rest/config', 'PUT /rest/config'],
    )
    expect(baseOf(tool)?.changes).toEqual([
      { path: 'folders[?label=={{input.p0}}].paused', op: 'set', value: true },
    ])
    expect(tool.inputs.properties.label).toMatchObject({ default: 'Camera Uploads' })
    expect(JSON.stringify(tool)).not.toContain('secret:login')
  })

  it('removes the record the write leaves out, by the name the person gave', () => {
    const tool = compiled(
      'remove the folder Old Backups',
      sentBack((fs) =>
        fs.splice(
          fs.findIndex((f) => f.label === 'Old Backups'),
          1,
        ),
      ),
    )
    expect(baseOf(tool)?.changes).toEqual([{ path: 'folders[?label=={{input.p0}}]', op: 'remove' }])
    expect(tool.inputs.properties.label).toMatchObject({ default: 'Old Backups' })
  })

  it('pairs list records by id whatever their order, and keeps a sealed field as read', () => {
    const diff = diffResource(
      {
        items: [
          { id: 2, v: 'b' },
          { id: 1, v: 'a' },
        ],
        pw: SECRET_PLACEHOLDER,
      },
      {
        items: [
          { id: 1, v: 'a' },
          { id: 2, v: 'b' },
        ],
        pw: 'hash',
      },
      null,
      { exact: true, personal: () => false, selectorSlot: () => null },
    )
    expect(diff.changes).toEqual([])
  })

  it('reads no value from an event feed read from a cursor', () => {
    const trace = traceBuilder('http://127.0.0.1:8384')
      .exchange('GET', '/rest/events?since=41', { response: [] })
      .exchange('GET', '/rest/config', { response: config })
      .build('x')
    expect(isLongPoll(trace.exchanges[0]!)).toBe(true)
    expect(isLongPoll(trace.exchanges[1]!)).toBe(false)
  })
})
