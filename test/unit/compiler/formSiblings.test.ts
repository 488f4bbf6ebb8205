import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-00000000000a', now: Date.UTC(2026, 10, 25) }

/** A dashboard with a quick-draft form: the page made auto-draft 25 on this load. */
const DASHBOARD = `<html><body>
<form id="other"><input type="hidden" name="post_ID" value="7"></form>
<form id="quick-press" method="post" action="post.php">
  <input name="post_title" id="title"><textarea name="content"></textarea>
  <input type="hidden" name="action" value="post-quickdraft-save">
  <input type="hidden" name="post_ID" value="25">
  <input type="hidden" name="post_type" value="post">
  <input type="hidden" name="ss" value="00">
  <input type="hidden" name="_wpnonce" value="34154ffb3e">
</form>
<form id="search"><input type="hidden" name="page" value="2"></form>
</body></html>`

function draftTrace(page: string, sent = 'post_ID=25&post_type=post&ss=00&page=2'): Trace {
  return traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/wp-admin/', { mime: 'text/html', type: 'document', responseText: page })
    .fill('Seed order', { name: 'post_title', label: 'Title' })
    .submit()
    .exchange('POST', '/wp-admin/post.php', {
      form: `post_title=Seed+order&action=post-quickdraft-save&${sent}&_wpnonce=34154ffb3e`,
      mime: 'text/html',
      responseText: '<p>Draft saved</p>',
    })
    .build('write a draft post titled Seed order')
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('readFormSiblings', () => {
  it("reads the hidden fields of the token's form from the same page, however short", () => {
    const tool = compiled(draftTrace(DASHBOARD.replace(/<form id="other">.*<\/form>\n/, '')))
    const [page, target] = tool.steps
    expect(page!.extract.map((x) => x.path)).toEqual(['_wpnonce', 'post_ID'])
    const body = target!.request.body
    expect(body?.kind).toBe('form')
    const form = body?.kind === 'form' ? body.template : {}
    expect(form.post_ID).toBe(`{{step.${page!.id}.post_id}}`)
    // The operation and a type are what the tool does; a form default (`ss`) is no page state;
    // a field of another form stays as sent.
    expect(form.action).toBe('post-quickdraft-save')
    expect(form.post_type).not.toMatch(/step\./)
    expect(form.ss).not.toMatch(/step\./)
    expect(form.page).not.toMatch(/step\./)
    expect(Object.keys(tool.inputs.properties)).not.toContain('post_ID')
  })

  it('leaves a field whose first namesake on the page belongs to another form', () => {
    const tool = compiled(draftTrace(DASHBOARD))
    const form = tool.steps[1]!.request.body
    const template = form?.kind === 'form' ? form.template : {}
    // The run would read post_ID 7 (the first on the page): not the form's, so not read.
    expect(template.post_ID).not.toMatch(/step\./)
    expect(template._wpnonce).toMatch(/step\./)
  })

  it('leaves a value the page did not hold', () => {
    const tool = compiled(draftTrace(DASHBOARD, 'post_ID=26&post_type=post&ss=00&page=2'))
    const form = tool.steps[tool.steps.length - 1]!.request.body
    const template = form?.kind === 'form' ? form.template : {}
    expect(template.post_ID).not.toMatch(/step\./)
  })
})
