import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

const HEADLINES = {
  headlines: {
    content: [
      { id: 17, title: 'Open source office suites compared', unread: true },
      { id: 6, title: 'Tram depot open day on Saturday', unread: true },
      { id: 3, title: 'New cycle lanes on the ring road', unread: true },
    ],
  },
}

/** A feed reader's trace without actions (a HAR): the list, then the article marked read by id. */
function markReadTrace(intent: string) {
  return traceBuilder()
    .exchange('POST', '/backend.php', {
      form: 'op=feeds&method=view&feed=-3',
      response: HEADLINES,
    })
    .exchange('POST', '/backend.php', {
      form: 'op=rpc&method=getAllCounters&seq=1',
      response: { counters: [{ id: 'global-unread', counter: 36 }] },
    })
    .exchange('POST', '/backend.php', {
      form: 'op=rpc&method=catchupSelected&ids=6&cmode=0',
      response: { message: 'UPDATE_COUNTERS', ids: ['6'] },
    })
    .build(intent)
}

describe('a record the person named that the write sends only by its id', () => {
  it('takes the write that sends the id and looks the record up by what the person named', () => {
    const result = compileTrace(
      markReadTrace("mark the article 'Tram depot open day on Saturday' as read"),
      options,
    )
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const target = tool.steps.at(-1)!
    expect(target.request.body).toMatchObject({ kind: 'form' })
    const form = (target.request.body as { template: Record<string, string> }).template
    expect(form.method).toBe('catchupSelected')
    expect(form.ids).toMatch(/^\{\{(num:)?step\./)
    const byName = Object.entries(tool.inputs.properties).find(
      ([, p]) => p.default === 'Tram depot open day on Saturday',
    )
    expect(byName).toBeDefined()
    expect(tool.inputs.required).toContain(byName![0])
    expect(tool.steps.length).toBeGreaterThan(1)
  })

  it('finds nothing to stand in when the named record is in no answer', () => {
    const result = compileTrace(
      markReadTrace("mark the article 'Harbour festival moved to June' as read"),
      options,
    )
    const ids = result.ok
      ? (result.candidate.steps.at(-1)!.request.body as { template?: Record<string, string> })
          .template?.ids
      : undefined
    expect(ids === undefined || !/step\./.test(ids)).toBe(true)
  })
})

describe('a lookup that replaces an input another step borrowed', () => {
  it('leaves no step sending an input the tool no longer has', () => {
    const trace = traceBuilder()
      .exchange('GET', '/backend.php?op=tree&mode=2', {
        response: {
          items: [
            { bare_id: 2, name: 'Local' },
            { bare_id: 5, name: 'News' },
          ],
        },
      })
      .fill('http://feeds.example/cycling.xml', { name: 'feed', label: 'Feed URL' })
      .click('Subscribe')
      .exchange('POST', '/backend.php', {
        form: 'op=feeds&method=add&feed=http%3A%2F%2Ffeeds.example%2Fcycling.xml&cat=2',
        response: { result: { code: 1 } },
      })
      .build('subscribe to the feed http://feeds.example/cycling.xml in the Local category')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const slots = new Set(Object.values(tool.inputs.properties).map((p) => p['x-slot']))
    const sent = JSON.stringify(tool.steps.map((s) => s.request))
    for (const m of sent.matchAll(/\{\{(?:num:|json:|xml:)?input\.(p\d+)\}\}/g))
      expect(slots.has(m[1]!)).toBe(true)
    expect(tool.steps.length).toBeGreaterThan(1)
  })
})

describe('a lookup whose list was a search for what the person started typing', () => {
  it('searches for the caller’s value instead of the letters typed', () => {
    const trace = traceBuilder()
      .fill('Web', { name: 'groups_ms', label: 'Host groups' })
      .exchange('GET', '/jsrpc.php?method=multiselect.get&object_name=hostGroup&search=Web', {
        response: {
          result: [
            { id: '20', name: 'Web servers' },
            { id: '24', name: 'Webcams' },
          ],
        },
      })
      .click('Web servers')
      .fill('web-03', { name: 'host', label: 'Host name' })
      .click('Add')
      .exchange('POST', '/zabbix.php?action=host.create', {
        form: 'host=web-03&groups%5B0%5D%5Bgroupid%5D=20',
        response: { success: true },
      })
      .build("add a host named 'web-03' in the 'Web servers' group")
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const read = tool.steps.find((s) => s.request.url.includes('multiselect.get'))
    expect(read).toBeDefined()
    const group = Object.values(tool.inputs.properties).find((p) => p.default === 'Web servers')!
    expect(read!.request.url).toContain(`search={{input.${group['x-slot']}}}`)
  })
})
