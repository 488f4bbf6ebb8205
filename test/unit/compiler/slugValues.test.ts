import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { traceBuilder } from './traceBuilder'

const options = { toolId: '00000000-0000-4000-8000-00000000000b', now: Date.UTC(2026, 10, 25) }

/** A plain HAR (no actions) of a quick rename: the form sends the new title and the old slug. */
function renamed(intent: string): ToolSpec {
  const trace = traceBuilder('http://127.0.0.1:8080')
    .exchange('POST', '/wp-admin/admin-ajax.php', {
      form: 'post_title=Weekly+Roundup&post_name=weekly-update&action=inline-save&post_ID=15',
      mime: 'text/html',
      responseText: '<tr><td>Weekly Roundup</td></tr>',
    })
    .build(intent)
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('values the intent names in another spelling', () => {
  it('keeps the literal value required and the slug of the record it names optional', () => {
    const tool = renamed('rename the post Weekly Update to Weekly Roundup')
    expect(tool.inputs.required).toEqual(['post_title'])
    expect(tool.inputs.properties.post_name).toMatchObject({ default: 'weekly-update' })
  })

  it('keeps a slug required when the intent spells no value literally', () => {
    const tool = renamed('rename the post Weekly Update')
    expect(tool.inputs.required).toContain('post_name')
  })
})
