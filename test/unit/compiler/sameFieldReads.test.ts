/**
 * One value in several places (failure kind 4): the page read before a save that asks for the
 * same field with the same value (`edit.php?list=hiking` before `save.php` sends `list=hiking`)
 * asks for what the save's input holds, so a run on another list reads that list's page.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

const html = { type: 'document', mime: 'text/html' }

describe('a page read asking for the same field and value as the write', () => {
  it('takes the write input in the read, however plain the value', () => {
    const trace = traceBuilder()
      .exchange('GET', '/index.php', {
        responseText:
          '<html><body><tr><td>hiking</td><td><a href="edit.php?list=hiking">Config</a></td></tr></body></html>',
        ...html,
      })
      .click('Config')
      .exchange('GET', '/edit.php?list=hiking', {
        responseText:
          '<html><body><form method="post" action="save.php"><input type="hidden" name="list" value="hiking"><input name="prefix" value="[hiking]"><input type="checkbox" name="moderated" value="1"></form></body></html>',
        ...html,
      })
      .fill('1', { name: 'moderated', label: 'moderated' })
      .submit()
      .exchange('POST', '/save.php', {
        form: 'list=hiking&prefix=%5Bhiking%5D&moderated=1',
        responseText: '<html><body>Saved</body></html>',
        ...html,
      })
      .build('turn on moderation for the hiking mailing list')
    const result = compileTrace(trace, options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const list = tool.inputs.properties['list']
    expect(list?.default).toBe('hiking')
    const read = tool.steps.find((s) => s.request.url.includes('/edit.php'))
    expect(read?.request.url).toBe(`${trace.startUrl}edit.php?list={{input.${list!['x-slot']}}}`)
  })
})
