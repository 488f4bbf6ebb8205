import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { formControlValue } from '../../../src/shared/formControl'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

const editForm = (status: string, text: string) => `<!doctype html><html><body>
<form action="/issues/5" method="post">
  <input type="hidden" name="authenticity_token" value="f3Jd8kQ0zXw9Lm2Pq7RtYb5N${status}">
  <select name="issue[status_id]"><option value="1">New</option>
    <option value="${status}" selected>Current</option></select>
  <textarea name="issue[description]">${text}</textarea>
  <input type="text" name="issue[notes]" value="">
  <input type="submit" name="commit" value="Submit">
</form></body></html>`

describe('form fields the person left as the page filled them', () => {
  it('reads an input, a textarea and a select as a browser submits them', () => {
    const html = editForm('3', 'Old text')
    expect(formControlValue(html, 'issue[status_id]')).toBe('3')
    expect(formControlValue(html, 'issue[description]')).toBe('Old text')
    expect(formControlValue(html, 'issue[notes]')).toBe('')
    expect(formControlValue(html, 'authenticity_token')).toBe('f3Jd8kQ0zXw9Lm2Pq7RtYb5N3')
    expect(formControlValue(html, 'missing')).toBeUndefined()
    const noneSelected =
      '<select name="s"><option>First</option><option value="2">B</option></select>'
    expect(formControlValue(noneSelected, 's')).toBe('First')
  })

  it('are read from the form page on every run, and only the typed note is an input', () => {
    const trace = traceBuilder()
      .exchange('GET', '/issues/5', {
        type: 'document',
        mime: 'text/html',
        responseText: editForm('3', 'Old text'),
      })
      .fill('Looks good', { name: 'issue[notes]', label: 'Notes' })
      .submit()
      .exchange('POST', '/issues/5', {
        type: 'document',
        mime: 'text/html',
        form: 'authenticity_token=f3Jd8kQ0zXw9Lm2Pq7RtYb5N3&issue%5Bstatus_id%5D=3&issue%5Bdescription%5D=Old+text&issue%5Bnotes%5D=Looks+good&commit=Submit',
        status: 302,
      })
      .build('add the note "Looks good" to issue 5')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const { steps, inputs } = result.candidate
    const body = steps.at(-1)!.request.body as { kind: string; template: Record<string, string> }
    expect(body.template['issue[status_id]']).toMatch(/^\{\{step\.\w+\.issue_status_id\}\}$/)
    expect(body.template['issue[description]']).toMatch(/^\{\{step\.\w+\.issue_description\}\}$/)
    expect(body.template['issue[notes]']).toMatch(/^\{\{input\.p\d+\}\}$/)
    expect(Object.values(inputs.properties).map((p) => p.default)).not.toContain('Old text')
    // The form page read is the page of the issue the run writes, not the recorded one.
    const issue = Object.values(inputs.properties).find((p) => p['x-in'] === 'path')!
    expect(steps[0]!.request.url).toMatch(
      new RegExp(`/issues/\\{\\{input\\.${issue['x-slot']}\\}\\}$`),
    )
  })
})
