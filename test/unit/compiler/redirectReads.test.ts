/**
 * A read answered by a redirect (a filter form posted, then the list page it names): the tool
 * reads the page the browser followed to, not the redirect; a write answered so keeps its
 * acknowledgement rule.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { landingPage } from '../../../src/main/compiler/verifyRule'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = {
  toolId: '00000000-0000-4000-8000-0000000000d2',
  now: Date.UTC(2026, 10, 30),
  targetModel: null,
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const listPage = (rows: string[]) =>
  `<!doctype html><html><head><title>Users</title></head><body><form method="post"><input name="filtersn"></form><table>${rows.map((r) => `<tr><td>${r}</td></tr>`).join('')}</table></body></html>`

/** The person types a surname into the list's filter; the site keeps it in the session. */
function filtered(
  intent: string,
  location = '/lists/list.php?type=user',
  action = '/lists/list.php?type=user',
): Trace {
  return traceBuilder('http://127.0.0.1:8080')
    .exchange('GET', '/lists/list.php?type=user', {
      mime: 'text/html',
      responseText: listPage(['Ada Rinaldi', 'Kenji Sato']),
      type: 'document',
    })
    .fill('Rinaldi', { name: 'filtersn', label: 'Last name' })
    .submit()
    .exchange('POST', action, {
      form: 'filtersn=Rinaldi&apply_filter=Filter',
      status: 302,
      mime: 'text/html',
      headers: { location: location },
      type: 'document',
    })
    .exchange('GET', location, {
      mime: 'text/html',
      responseText: listPage(['Ada Rinaldi']),
      type: 'document',
    })
    .build(intent)
}

describe('a read answered by a redirect', () => {
  it('reads the page the redirect led to', () => {
    const tool = compiled(filtered('find the users whose last name is Rinaldi'))
    const target = tool.steps.at(-1)!.request
    expect(target.method).toBe('POST')
    expect(tool.mutating).toBe(false)
    expect(tool.result).toEqual({ kind: 'document', page: true })
    expect(tool.verify.status).toEqual([200, 299])
    expect(tool.verify.mimeType).toBe('text/html')
    expect(tool.verify.redirect).toBeUndefined()
    expect(tool.output.required).toEqual(['title', 'text', 'links'])
    expect(tool.evidence.signals.map((s) => s.name)).toContain('redirect_landing')
  })

  it('keeps a write answered by a redirect an acknowledgement', () => {
    const tool = compiled(
      filtered('add a user with the last name Rinaldi', '/users/done.php', '/users/new.php'),
    )
    expect(tool.mutating).toBe(true)
    expect(tool.verify.status).toEqual([300, 399])
    expect(tool.result).toBeUndefined()
    expect(tool.evidence.signals.map((s) => s.name)).not.toContain('redirect_landing')
  })

  it('finds the landing page only when the browser followed the Location', () => {
    const trace = filtered('find the users whose last name is Rinaldi')
    const [list, post, landing] = trace.exchanges
    expect(landingPage(post!, trace.exchanges)).toBe(landing)
    expect(landingPage(list!, trace.exchanges)).toBeNull()
    expect(landingPage(post!, [list!, post!])).toBeNull()
  })
})
