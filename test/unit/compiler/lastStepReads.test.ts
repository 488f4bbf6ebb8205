/**
 * A read with nothing typed whose requests name none of the intent's words: the page the
 * person's last click opened is offered (low confidence), not a later poll; XHTML served as XML
 * is a page; a GET whose own words name the write the intent asks for is compiled as a write.
 */
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { isHtmlDocument } from '../../../src/main/compiler/classify'
import { mutationVerdict } from '../../../src/main/compiler/naming'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { traceBuilder } from './traceBuilder'

const options = {
  toolId: '00000000-0000-4000-8000-0000000000d1',
  now: Date.UTC(2026, 10, 30),
  targetModel: null,
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, options)
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><table><tr><td>/live.mp3</td></tr></table></body></html>`

const xhtml = (title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><p>${title}</p></body></html>`

describe('a recorded read that names nothing the requests say', () => {
  it('offers the page the last click opened, not the poll that came after it', () => {
    const tool = compiled(
      traceBuilder('http://127.0.0.1:8000')
        .exchange('GET', '/', { mime: 'text/html', responseText: page('Home'), type: 'document' })
        .click('Administration')
        .exchange('GET', '/admin/', {
          mime: 'text/html',
          responseText: page('Admin'),
          type: 'document',
        })
        .click('Mountpoint List')
        .exchange('GET', '/admin/overview.xsl', {
          mime: 'text/html',
          responseText: page('Streams'),
          type: 'document',
        })
        .exchange('GET', '/api/heartbeat', { response: { ok: true }, type: 'xhr' })
        .build('list the mount points of my radio server'),
    )
    expect(tool.steps.at(-1)!.request.url).toBe('http://127.0.0.1:8000/admin/overview.xsl')
    expect(tool.evidence.signals.map((s) => s.name)).toContain('last_read')
    expect(tool.mutating).toBe(false)
  })

  it('takes the first data answer after the last click when no page loaded after it', () => {
    const tool = compiled(
      traceBuilder('http://127.0.0.1:8000')
        .exchange('GET', '/', { mime: 'text/html', responseText: page('Home'), type: 'document' })
        .click('Queue')
        .exchange('GET', '/api/v1/q', { response: { rows: [{ n: 'a' }] }, type: 'xhr' })
        .exchange('GET', '/api/v1/tick', { response: { t: 1 }, type: 'xhr' })
        .build('show what is waiting'),
    )
    expect(tool.steps.at(-1)!.request.url).toBe('http://127.0.0.1:8000/api/v1/q')
  })
})

describe('XHTML served as XML', () => {
  const doc = (mime: string, text: string) =>
    traceBuilder()
      .exchange('GET', '/admin/stats.xsl', { mime, responseText: text, type: 'document' })
      .build().exchanges[0]!

  it('is a page when its root is html in the XHTML namespace', () => {
    expect(isHtmlDocument(doc('text/xml; charset=UTF-8', xhtml('Stats')))).toBe(true)
    expect(isHtmlDocument(doc('application/xml', xhtml('Stats')))).toBe(true)
  })

  it('is not a page when it is other XML', () => {
    expect(
      isHtmlDocument(doc('text/xml', '<?xml version="1.0"?><icestats><source/></icestats>')),
    ).toBe(false)
  })
})

describe('a GET that acts', () => {
  const get = (path: string) =>
    traceBuilder().exchange('GET', path, { mime: 'text/html' }).build().exchanges[0]!

  it('writes when the intent asks for a write and the path or operation names one', () => {
    expect(mutationVerdict(get('/admin/killsource.xsl?mount=/b.mp3'), null, true).mutating).toBe(
      true,
    )
    expect(
      mutationVerdict(get('/admin/moveclients?mount=/a&destination=/b'), null, true).mutating,
    ).toBe(true)
    expect(
      mutationVerdict(get('/admin/manageauth.xsl?username=erin&mount=/v&action=add'), null, true)
        .mutating,
    ).toBe(true)
  })

  it('writes when the button a GET form was sent by names the act (`Update=Update record`)', () => {
    const form = '/cgi/criticaleditor.sh?HOSTNAME=web01&SERVICE=http&PRIORITY=3'
    expect(mutationVerdict(get(`${form}&Update=Update+record`), null, true).mutating).toBe(true)
    // A search button is no act, nor is a field whose value is not its own label.
    expect(mutationVerdict(get(`${form}&Find=Search`), null, true).mutating).toBe(false)
    expect(mutationVerdict(get(`${form}&Update=yes`), null, true).mutating).toBe(false)
    expect(mutationVerdict(get(`${form}&Update=Update+record`), null, false).mutating).toBe(false)
  })

  it('reads when only one witness says write', () => {
    // The intent alone: a write is often answered by reading a page first.
    expect(mutationVerdict(get('/admin/listmounts.xsl'), null, true).mutating).toBe(false)
    // The words alone: a list of updates is read by a read intent.
    expect(mutationVerdict(get('/admin/killsource.xsl?mount=/b.mp3'), null, false).mutating).toBe(
      false,
    )
    // Glued words must carry a verb of four letters or more: an address is no "add".
    expect(mutationVerdict(get('/account/address'), null, true).mutating).toBe(false)
    expect(mutationVerdict(get('/user/settings'), null, true).mutating).toBe(false)
  })

  it('is the target a write intent gets, ahead of the list read around it', () => {
    const list = (rows: string) =>
      `<!doctype html><html><head><title>Users</title></head><body><table>${rows}</table></body></html>`
    const tool = compiled(
      traceBuilder('http://127.0.0.1:8080')
        .exchange('GET', '/admin.php?action=browse&t=principal', {
          mime: 'text/html',
          responseText: list('<tr><td>Dave Kim</td></tr><tr><td>Alice Martin</td></tr>'),
          type: 'document',
        })
        .click('Delete')
        .exchange('GET', '/admin.php?action=edit&subaction=delete_principal&id=1016', {
          mime: 'text/html',
          responseText: list('<tr><td>Deleted.</td></tr>'),
          type: 'document',
        })
        .exchange('GET', '/admin.php?action=browse&t=principal', {
          mime: 'text/html',
          responseText: list('<tr><td>Alice Martin</td></tr>'),
          type: 'document',
        })
        .build('delete the user Dave Kim'),
    )
    expect(tool.steps.at(-1)!.request.url).toContain('subaction=delete_principal')
    expect(tool.mutating).toBe(true)
  })
})
