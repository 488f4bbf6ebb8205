import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { embeddedBlocks, extractEmbedded } from '../../../src/main/compiler/embeddedData'
import { judgeResponse } from '../../../src/main/engine/outcome'
import { renderRequest } from '../../../src/main/engine/template'
import { act, options, withNoise } from './noise'
import { records, traceBuilder } from './traceBuilder'

const ok = (result: ReturnType<typeof compileTrace>) => {
  if (!result.ok) throw new Error(`${result.explanation.reason} ${result.explanation.missing}`)
  return result.candidate
}
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main>${body}</main></body></html>`
const nextData = (word: string) =>
  `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { ...records(word), query: word } } })}</script>`

function searchPageTrace(embedded: string) {
  return withNoise(traceBuilder())
    .exchange('GET', '/', {
      type: 'document',
      mime: 'text/html',
      responseText: page('Home', '<form></form>'),
    })
    .fill('writing', { name: 'query' })
    .submit()
    .exchange('GET', '/search?query=writing', {
      type: 'document',
      mime: 'text/html',
      responseText: page(
        'writing – Search',
        `<ul><li><a href="/tool/writing-pilot">writing pilot</a></li></ul>${embedded}`,
      ),
    })
    .build()
}

describe('server-rendered data', () => {
  it('targets the document when __NEXT_DATA__ carries the records and no fetch does', () => {
    const tool = ok(compileTrace(searchPageTrace(nextData('writing')), options))
    expect(tool.name).toBe('example__search_ai_tools')
    expect(tool.mutating).toBe(false)
    expect(tool.result).toEqual({
      kind: 'document',
      data: { source: 'next_data', selector: 'script#__NEXT_DATA__', path: 'props.pageProps.data' },
      page: true,
    })
    expect(tool.inputs.required).toEqual(['query'])
    expect(tool.verify).toMatchObject({ mimeType: 'text/html' })
    expect(tool.verify.required).toEqual(
      expect.arrayContaining([
        { path: 'data', type: 'array' },
        { path: 'data[].toolName', type: 'string' },
        { path: 'title', type: 'string' },
        { path: 'links', type: 'array' },
      ]),
    )
    expect(tool.evidence.signals.map((s) => s.name)).toContain('embedded_data')
    // The engine side turns another search's page into {data, title, text, links}.
    const rendered = renderRequest(tool.steps.at(-1)!.request, { 'input.p0': 'image' })
    const html = page('image – Search', `<p>Results for image</p>${nextData('image')}`)
    const outcome = judgeResponse(
      { status: 200, headers: { 'content-type': 'text/html' }, body: html },
      tool.verify,
      tool.result,
      rendered.url,
    )
    if (!outcome.ok) throw new Error(outcome.message)
    const result = outcome.result as {
      data: Array<{ toolName: string }>
      title: string
      links: unknown[]
    }
    expect(result.data[0]!.toolName).toBe('image pilot')
    expect(result.title).toBe('image – Search')
    expect(result.links).toEqual([{ text: 'Home', href: 'https://tools.example.com/' }])
  })

  it('reads ld+json, JSON islands and window assignments', () => {
    const ld = `<script type="application/ld+json">{"@type":"ItemList","itemListElement":[{"name":"writing pilot"},{"name":"ink"}]}</script>`
    expect(ok(compileTrace(searchPageTrace(ld), options)).result).toMatchObject({
      data: {
        source: 'ld_json',
        selector: 'script[type="application/ld+json"]:eq(0)',
        path: 'itemListElement',
      },
    })
    const island = `<script type="application/json" id="initial-state">${JSON.stringify(records('writing'))}</script>`
    expect(ok(compileTrace(searchPageTrace(island), options)).result).toMatchObject({
      data: { source: 'json_island', selector: 'script#initial-state', path: 'data' },
    })
    const assigned = `<script>window.__APOLLO_STATE__ = ${JSON.stringify({ results: records('writing').data })};</script>`
    expect(ok(compileTrace(searchPageTrace(assigned), options)).result).toMatchObject({
      data: { source: 'script_assignment', selector: 'window.__APOLLO_STATE__', path: 'results' },
    })
  })

  it('prefers a fetch that carries the records over the page that embeds them too', () => {
    const trace = searchPageTrace(nextData('writing'))
    const more = withNoise(traceBuilder())
      .fill('writing', { name: 'query' })
      .submit()
      .exchange('POST', '/api/search', { body: { query: 'writing' }, response: records('writing') })
      .build()
    const fetch = more.exchanges.at(-1)!
    fetch.id = 'exc_99'
    fetch.seq = 99
    fetch.startedAt = trace.exchanges.at(-1)!.startedAt + 100
    trace.exchanges.push(fetch)
    const tool = ok(compileTrace(trace, options))
    expect(tool.evidence.targetExchangeId).toBe('exc_99')
    expect(tool.result).toBeUndefined()
  })

  it('extracts by selector and path, and finds nothing when the page changed', () => {
    const html = `<script type="application/json" id="x">{"a":{"b":[1,2]}}</script>`
    expect(embeddedBlocks(html)).toHaveLength(1)
    expect(
      extractEmbedded(html, { source: 'json_island', selector: 'script#x', path: 'a.b' }),
    ).toEqual([1, 2])
    expect(
      extractEmbedded(html, { source: 'json_island', selector: 'script#y', path: 'a' }),
    ).toBeUndefined()
  })
})

describe('page reads', () => {
  function readTrace(intent: string, slugs: string[]) {
    let builder = withNoise(traceBuilder()).exchange('GET', '/', {
      type: 'document',
      mime: 'text/html',
      responseText: page('Directory', '<a href="/tool/quill">Quill</a>'),
    })
    for (const slug of slugs)
      builder = builder.exchange('GET', `/tool/${slug}`, {
        type: 'document',
        mime: 'text/html',
        responseText: page(`${slug} – Directory`, `<h1>${slug}</h1><p>About ${slug}.</p>`),
      })
    const trace = builder.build(intent)
    for (const e of trace.exchanges.filter((x) => x.url.includes('/tool/')))
      act(trace, 'click', e.startedAt - 5, { name: e.url.split('/').pop()! })
    return trace
  }

  it('compiles "read the tool page" to read_page with the varying segment as slot tool', () => {
    const tool = ok(compileTrace(readTrace('read the tool page', ['quill', 'inkwell']), options))
    expect(tool.name).toBe('example__read_page')
    expect(tool.result).toEqual({ kind: 'document', page: true })
    expect(tool.inputs.required).toEqual(['tool'])
    expect(tool.inputs.properties.tool).toMatchObject({
      type: 'string',
      'x-in': 'path',
      'x-path': '1',
    })
    expect(tool.steps.at(-1)!.request.url).toBe('https://tools.example.com/tool/{{input.p0}}')
    expect(tool.output.required).toEqual(['title', 'text', 'links'])
    expect(tool.evidence.signals.map((s) => s.name)).toContain('varying_segment')
  })

  it('names the slot after the preceding segment, singular, with one page visited', () => {
    const trace = withNoise(traceBuilder())
      .exchange('GET', '/categories/writing-tools', {
        type: 'document',
        mime: 'text/html',
        responseText: page('Writing tools', '<p>Tools for writing</p>'),
      })
      .build('open the page of the writing category')
    act(trace, 'navigate', trace.exchanges.at(-1)!.startedAt - 5, {
      pageUrl: 'https://tools.example.com/categories/writing-tools',
    })
    const tool = ok(compileTrace(trace, options))
    expect(tool.inputs.required).toEqual(['category'])
    expect(tool.steps.at(-1)!.request.url).toBe('https://tools.example.com/categories/{{input.p0}}')
  })

  it('slots the segment that spells the clicked name with underscores for spaces', () => {
    const trace = withNoise(traceBuilder())
      .exchange('GET', '/', {
        type: 'document',
        mime: 'text/html',
        responseText: page('Wiki', '<a href="/vendor_contacts/">Vendor contacts</a>'),
      })
      .exchange('GET', '/vendor_contacts/', {
        type: 'document',
        mime: 'text/html',
        responseText: page('vendor contacts', '<h1>Vendor contacts</h1><p>Acme, Globex</p>'),
      })
      .build('open the wiki page vendor_contacts')
    act(trace, 'click', trace.exchanges.at(-1)!.startedAt - 5, { name: 'Vendor contacts' })
    const tool = ok(compileTrace(trace, options))
    expect(tool.steps.at(-1)!.request.url).toBe('https://tools.example.com/{{input.p0}}/')
    expect(Object.values(tool.inputs.properties)[0]).toMatchObject({
      'x-in': 'path',
      default: 'vendor_contacts',
    })
  })

  it('explains instead of guessing when no page was opened', () => {
    const trace = withNoise(traceBuilder()).build('read the tool page')
    const result = compileTrace(trace, options)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.explanation.missing.join(' ')).toMatch(/HTML page/)
  })
})

describe('page reads from a HAR', () => {
  it('reads the page whose query carries the value the intent names, not the start page', () => {
    const wikiPage = (id: string) => ({
      type: 'document',
      mime: 'text/html',
      responseText: page(id, `<h1>${id}</h1><p>text of ${id}</p>`),
    })
    const trace = traceBuilder()
      .exchange('GET', '/doku.php?id=start', wikiPage('start'))
      .exchange('GET', '/doku.php?id=start&do=index', wikiPage('index'))
      .exchange('GET', '/doku.php?id=projects:office_move', wikiPage('projects:office_move'))
      .build('open the wiki page projects:office_move')
    const tool = ok(
      compileTrace(
        { ...trace, startUrl: `${new URL(trace.exchanges[0]!.url).origin}/doku.php?id=start` },
        options,
      ),
    )
    const input = Object.entries(tool.inputs.properties).find(
      ([, p]) => p['x-in'] === 'query' && p['x-path'] === 'id',
    )
    expect(input?.[1].default).toBe('projects:office_move')
    expect(tool.inputs.required).toContain(input?.[0])
  })
})
