/**
 * Rows an answer carries as script calls (src/shared/scriptCalls.ts), and the `@calls` path key
 * that reads them (src/shared/jsonPath.ts).
 */
import { describe, expect, it } from 'vitest'
import { scriptCalls } from '../../../src/shared/scriptCalls'
import { textAt } from '../../../src/shared/jsonPath'

const EXEC = [
  'this.set_unread_count("INBOX",7,true);',
  'this.add_message_row(13,{"subject":"Welcome (again); to the list","size":"3 KB"},{"mbox":"INBOX"},false);',
  'this.add_message_row(12,{"subject":"Lunch on Friday?","size":"1 KB"},{"mbox":"INBOX"},false);',
  "this.show_contentframe(false, function () { return 'x' });",
  'rcmail.list.select("13");',
].join('\n')

describe('scriptCalls', () => {
  it('groups the calls whose arguments are JSON by function, in order, across member calls', () => {
    const calls = scriptCalls(EXEC)!
    expect(Object.keys(calls)).toEqual(['set_unread_count', 'add_message_row', 'select'])
    expect(calls.add_message_row!.map((args) => args[0])).toEqual([13, 12])
    expect(calls.add_message_row![0]![1]).toEqual({
      subject: 'Welcome (again); to the list',
      size: '3 KB',
    })
  })

  it('leaves out a call with an argument that is not JSON (a function, a quoted word)', () => {
    expect(scriptCalls(EXEC)!.show_contentframe).toBeUndefined()
  })

  it('is null for text that makes no call with JSON arguments', () => {
    expect(scriptCalls('Messages (3) marked as read')).toBeNull()
    expect(scriptCalls('no calls here')).toBeNull()
  })
})

describe('the @calls path key', () => {
  const answer = { action: 'list', exec: EXEC }
  const path = 'exec.@calls.add_message_row[?1.subject=={{input.p0}}].0'

  it('finds the id of the row whose subject the run names', () => {
    expect(textAt(answer, path, { 'input.p0': 'Lunch on Friday?' })).toBe('12')
    expect(textAt(answer, path, { 'input.p0': 'welcome (again);  to the list' })).toBe('13')
  })

  it('reads nothing when no row has the name, or the field holds no code', () => {
    expect(textAt(answer, path, { 'input.p0': 'Nothing like it' })).toBeUndefined()
    expect(textAt({ exec: 'done' }, path, { 'input.p0': 'Lunch on Friday?' })).toBeUndefined()
  })
})
