import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { executeHttp, sendWithUndici } from '../../../src/main/engine/httpExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Action, Exchange, Trace } from '../../../src/shared/trace'

/**
 * A small notes API that only takes whole records: `GET /api/notes` lists every note without its
 * text, `GET /api/notes/<title>` answers the whole note with an `ETag`, and `PUT` of the same
 * path replaces the note (text, tags, created: whatever the body holds) and wants `If-Match`
 * with the current ETag (412 otherwise, RFC 9110 §13.1.1). A tool that baked the recorded
 * note's fields into its body would overwrite another note's tags and creation date.
 */
interface Note {
  title: string
  text: string
  tags: string[]
  created: string
  revision: number
}

let server: Server
let origin = ''
const notes = new Map<string, Note>()
const writes: string[] = []

function seed(): void {
  notes.clear()
  for (const note of [
    { title: 'Groceries', text: 'Milk.', tags: ['Home'], created: '2026-01-01' },
    {
      title: 'Travel Plans',
      text: 'Lisbon in May.',
      tags: ['Personal', 'Summer'],
      created: '2026-02-02',
    },
  ])
    notes.set(note.title, { ...note, revision: 1 })
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(body))
    if (path === '/api/notes' && req.method === 'GET')
      return json(
        200,
        [...notes.values()].map(({ text: _text, ...listed }) => listed),
      )
    const title = path.startsWith('/api/notes/') ? decodeURIComponent(path.slice(11)) : null
    if (title === null) return json(404, { error: 'no route' })
    const note = notes.get(title)
    if (req.method === 'GET')
      return note ? json(200, note, { etag: `"${title}-${note.revision}"` }) : json(404, {})
    if (req.method !== 'PUT') return json(405, {})
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      if (note && req.headers['if-match'] !== `"${title}-${note.revision}"`)
        return json(412, { error: 'stale revision' })
      const sent = JSON.parse(body) as Note
      writes.push(title)
      notes.set(title, { ...sent, title, revision: (note?.revision ?? 0) + 1 })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Sends a request to the live API and keeps it as the recorder would: one exchange. */
async function exchanged(
  seq: number,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Exchange> {
  const requestHeaders: Record<string, string> = {
    accept: 'application/json',
    ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...init.headers,
  }
  const text = init.body === undefined ? undefined : JSON.stringify(init.body)
  const res = await fetch(`${origin}${path}`, { method, headers: requestHeaders, body: text })
  const answer = await res.text()
  return {
    id: `exc_${seq}`,
    seq,
    method,
    url: `${origin}${path}`,
    requestHeaders,
    requestBody: text === undefined ? null : { text, encoding: 'utf8' },
    status: res.status,
    responseHeaders: Object.fromEntries(res.headers),
    responseBody: answer ? { text: answer, encoding: 'utf8' } : null,
    resourceType: 'fetch',
    startedAt: 1_800_000_000_000 + seq * 1000,
    durationMs: 5,
    pageUrl: `${origin}/`,
  }
}

const fill = (seq: number, value: string, name: string): Action => ({
  seq,
  kind: 'fill',
  at: 1_800_000_000_000 + seq * 1000 - 500,
  pageUrl: `${origin}/`,
  selector: `[name=${name}]`,
  role: 'textbox',
  name,
  value,
  fieldName: name,
  inputType: 'text',
})

/** The person opens the app (the list loads), finds Groceries, rewrites its text, saves. */
async function recordEdit(): Promise<ToolSpec> {
  const list = await exchanged(1, 'GET', '/api/notes')
  // The page held the note already; the save sends all of it back with the revision it had.
  const save = await exchanged(2, 'PUT', '/api/notes/Groceries', {
    headers: { 'if-match': '"Groceries-1"' },
    body: {
      title: 'Groceries',
      text: 'Milk, eggs.',
      tags: ['Home'],
      created: '2026-01-01',
      revision: 1,
    },
  })
  expect(save.status).toBe(204)
  const trace: Trace = {
    id: 'trc_RMW',
    intent: 'change the text of the note Groceries to "Milk, eggs."',
    startUrl: `${origin}/`,
    createdAt: 1_800_000_000_000,
    exchanges: [list, save],
    actions: [fill(1, 'Groceries', 'search'), fill(2, 'Milk, eggs.', 'text')],
    storageState: null,
  }
  const result = compileTrace(trace, { toolId: '00000000-0000-4000-8000-0000000000bb', now: 0 })
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const run = (tool: ToolSpec, title: string, text: string) => {
  const slot = (name: string) => `input.${tool.inputs.properties[name]!['x-slot']}`
  return executeHttp(
    tool,
    { [slot('title')]: title, [slot('text')]: text },
    sendWithUndici,
    new AbortController().signal,
  )
}

describe('a compiled read-modify-write tool against a live resource API', () => {
  it('reads the note it changes and keeps that note’s other fields, and the revision fresh', async () => {
    seed()
    const tool = await recordEdit()
    expect(Object.keys(tool.inputs.properties).sort()).toEqual(['text', 'title'])
    const title = `{{input.${tool.inputs.properties.title!['x-slot']}}}`
    expect(
      tool.steps.map((s) => `${s.request.method} ${s.request.url.slice(origin.length)}`),
    ).toEqual([`GET /api/notes/${title}`, `PUT /api/notes/${title}`])
    expect(tool.steps[1]!.request.headers['if-match']).toBe('{{step.read.etag}}')

    writes.length = 0
    const first = await run(tool, 'Travel Plans', 'Lisbon in June only.')
    expect(first).toMatchObject({ ok: true })
    expect(notes.get('Travel Plans')).toEqual({
      title: 'Travel Plans',
      text: 'Lisbon in June only.',
      tags: ['Personal', 'Summer'],
      created: '2026-02-02',
      revision: 2,
    })
    // The recorded note is not touched by a run for another one.
    expect(notes.get('Groceries')).toMatchObject({ text: 'Milk, eggs.', tags: ['Home'] })
    // A second run reads the new revision (If-Match "Travel Plans-2"), so the site takes it.
    const second = await run(tool, 'Travel Plans', 'Porto instead.')
    expect(second).toMatchObject({ ok: true })
    expect(notes.get('Travel Plans')).toMatchObject({ text: 'Porto instead.', revision: 3 })
    expect(writes).toEqual(['Travel Plans', 'Travel Plans'])
  })

  it('writes nothing for a note that does not exist: the read fails first', async () => {
    seed()
    const tool = await recordEdit()
    writes.length = 0
    const outcome = await run(tool, 'No Such Note', 'anything')
    expect(outcome).toMatchObject({ ok: false, code: 'not_found' })
    expect(writes).toEqual([])
    expect(notes.has('No Such Note')).toBe(false)
  })
})
