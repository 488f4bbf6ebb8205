/**
 * Issue 24 kind 3 with the list as code (src/main/compiler/scriptRows.ts): a webmail answers its
 * message list as script calls inside JSON, the person picks a message by its subject and the
 * write sends its uid. Also on this trace: the page's token reaches the list step's header
 * (the lookup's read is traced like any dependency), an AJAX answer that only echoes the token
 * back is no source of it, `_task` names the operation with `_action`, and values built on the
 * clock (`loading<ms>`, `<ms><random>`) are made fresh.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { textAt } from '../../../src/shared/jsonPath'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-0000000000d7', now: Date.UTC(2026, 10, 29) }
const TOKEN = 'tok7Hq2LmXw93kPz'
const LIST = {
  action: 'list',
  exec: [
    'this.add_message_row(13,{"subject":"Welcome to the list","fromto":"Lists"},{"mbox":"INBOX"},false);',
    'this.add_message_row(12,{"subject":"Lunch on Friday?","fromto":"Ann"},{"mbox":"INBOX"},false);',
    'this.add_message_row(9,{"subject":"Quarterly review","fromto":"Bo"},{"mbox":"INBOX"},false);',
  ].join('\n'),
}

function webmailTrace(): Trace {
  const clock = 1_700_000_000_000
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/?_task=mail&_mbox=INBOX', {
      type: 'document',
      mime: 'text/html',
      responseText: `<html><body><form><input type="hidden" name="_token" value="${TOKEN}"></form><div id="list"></div></body></html>`,
    })
    .exchange(
      'GET',
      `/?_task=mail&_action=list&_mbox=INBOX&_remote=1&_unlock=loading${clock + 150}&_nocache=${clock + 160}204858`,
      { type: 'xhr', response: LIST },
    )
    .exchange('POST', '/?_task=mail&_action=getunread', {
      type: 'xhr',
      form: `_remote=1&_token=${TOKEN}`,
      response: { action: 'getunread', params: { token: TOKEN } },
    })
    .click('Delete')
    .exchange('POST', '/?_task=mail&_action=move', {
      type: 'xhr',
      form: `_target_mbox=Trash&_uid=13&_mbox=INBOX&_remote=1&_unlock=loading${clock + 700}`,
      response: { action: 'move', exec: 'this.display_message("Moved.");' },
    })
    .build("delete the email 'Welcome to the list'")
  for (const e of trace.exchanges.slice(1))
    e.requestHeaders = { ...e.requestHeaders, 'x-app-request': TOKEN }
  return trace
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('a message picked by subject from a list answered as script calls', () => {
  const tool = compiled(webmailTrace())
  const target = tool.steps.at(-1)!
  const list = tool.steps.find((s) => s.request.url.includes('_action=list'))!
  const form = (target.request.body as { template: Record<string, string> }).template

  it('targets the move and keeps both operation fields constant', () => {
    expect(target.request.url).toBe('http://127.0.0.1:8080/?_task=mail&_action=move')
  })

  it('reads the list and finds the uid by the subject, an input defaulting to the one picked', () => {
    const lookup = list.extract.find((x) => x.path.includes('@calls'))!
    const [name, input] = Object.entries(tool.inputs.properties).find(
      ([, p]) => p.default === 'Welcome to the list',
    )!
    expect(name).toBe('subject')
    expect(lookup.path).toBe(
      `exec.@calls.add_message_row[?1.subject=={{input.${input['x-slot']}}}].0`,
    )
    expect(textAt(LIST, lookup.path, { [`input.${input['x-slot']}`]: 'Quarterly review' })).toBe(
      '9',
    )
    expect(form._uid).toBe(`{{num:step.${list.id}.${lookup.name}}}`)
  })

  it("sends the page's token in the list step's header, read from the page, not the echo", () => {
    // The page opens the mailbox the move acts on: the same field with the same value takes the
    // move's input (kind 4), so a run on another mailbox reads that one's page.
    const mbox = Object.values(tool.inputs.properties).find((p) => p['x-path'] === '_mbox')!
    const page = tool.steps.find((s) =>
      s.request.url.endsWith(`_task=mail&_mbox={{input.${mbox['x-slot']}}}`),
    )!
    const token = page.extract.find((x) => x.from === 'input')!
    expect(list.request.headers['x-app-request']).toBe(`{{step.${page.id}.${token.name}}}`)
    expect(target.request.headers['x-app-request']).toBe(`{{step.${page.id}.${token.name}}}`)
    expect(tool.steps.some((s) => s.request.url.includes('getunread'))).toBe(false)
  })

  it('makes values built on the clock fresh per run', () => {
    expect(form._unlock).toBe('loading{{gen.now_ms}}')
    expect(list.request.url).toContain('_unlock=loading{{gen.now_ms}}')
    expect(list.request.url).toContain('_nocache={{gen.now_ms}}204858')
    expect(Object.keys(tool.inputs.properties)).not.toContain('_unlock')
  })
})
