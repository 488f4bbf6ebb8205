import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext } from 'playwright-core'
import { compileTrace } from '../../../src/main/compiler'
import { createBrowserPool, type BrowserPool } from '../../../src/main/engine/browserPool'
import { createRenderedExecutor } from '../../../src/main/engine/renderedExecutor'
import { BASE64_PATTERN } from '../../../src/main/compiler/fileBodies'
import { executeHttp, sendWithUndici } from '../../../src/main/engine/httpExecutor'
import { createInputValidator } from '../../../src/main/engine/inputs'
import { startRecording } from '../../../src/main/recorder/traceRecorder'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'

/**
 * A media library that takes a file two ways, as real apps do: the raw bytes of an XHR with the
 * name in the query and `X-File-Name` (DokuWiki's uploader), and a multipart form post with a
 * description (MediaWiki's Special:Upload). A person uploads once through Sitecall's recorder;
 * the compiled tool then uploads another file with another name through the engine.
 */
const RECORDED = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x10, 0x0a])
const OTHER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0xfe, 0x01])

const PAGE = `<!doctype html>
<html><head><title>Media library</title></head><body>
  <h1>Media library</h1>
  <input id="raw" type="file"><button id="send">Upload</button>
  <form method="post" action="/upload" enctype="multipart/form-data">
    <input name="token" type="hidden" value="fixed-token">
    <input id="file" name="upload" type="file">
    <label>Description <input id="description" name="description"></label>
    <button id="submit">Upload file</button>
  </form>
  <p id="done"></p>
  <script>
    document.getElementById('send').onclick = async () => {
      const file = document.getElementById('raw').files[0]
      const res = await fetch('/media?call=upload&name=' + encodeURIComponent(file.name), {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': file.name },
        body: file,
      })
      document.getElementById('done').textContent = (await res.json()).id
    }
  </script>
</body></html>`

interface Stored {
  name: string
  bytes: Buffer
  description?: string
}

let server: Server
let origin = ''
const stored: Stored[] = []
/** The tools the first two tests compiled: raw and multipart, run again in a browser. */
const compiledTools: ToolSpec[] = []

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
  })
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE)
        return
      }
      const body = await readAll(req)
      if (req.method === 'POST' && url.pathname === '/media') {
        const name = url.searchParams.get('name') ?? ''
        stored.push({ name, bytes: body })
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ success: true, id: `media:${name}`, size: body.length }))
        return
      }
      if (req.method === 'POST' && url.pathname === '/upload') {
        // The platform's own multipart parser reads what the engine sent (RFC 7578).
        const form = await new Response(new Uint8Array(body), {
          headers: { 'content-type': req.headers['content-type'] ?? '' },
        }).formData()
        const file = form.get('upload')
        if (form.get('token') !== 'fixed-token' || !(file instanceof Blob)) {
          res.writeHead(400).end('bad upload')
          return
        }
        const name = (file as File).name
        const description = String(form.get('description') ?? '')
        stored.push({ name, bytes: Buffer.from(await file.arrayBuffer()), description })
        res.writeHead(303, { location: `/file/${encodeURIComponent(name)}` }).end()
        return
      }
      if (req.method === 'GET' && url.pathname.startsWith('/file/')) {
        const name = decodeURIComponent(url.pathname.slice(6))
        const file = stored.findLast((s) => s.name === name)
        res.writeHead(file ? 200 : 404, { 'content-type': 'text/html' })
        res.end(
          `<html><head><title>File:${name}</title></head><body><p>${file?.description ?? ''}</p></body></html>`,
        )
        return
      }
      res.writeHead(404).end()
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function record(intent: string, play: (page: Page) => Promise<void>): Promise<Trace> {
  const recording = await startRecording({
    chromiumPath: '/usr/bin/chromium',
    url: `${origin}/`,
    intent,
    traceId: 'trc_uploads',
    sessionId: 'rec_uploads',
    headless: true,
  })
  try {
    await play(recording.page)
  } finally {
    await recording.stop()
  }
  return recording.done
}

function compiled(trace: Trace): ToolSpec {
  const result = compileTrace(trace, {
    toolId: crypto.randomUUID(),
    now: 1_700_000_000_000,
  })
  if (!result.ok) throw new Error(`no candidate: ${result.explanation.reason}`)
  return result.candidate
}

async function run(tool: ToolSpec, inputs: Record<string, unknown>) {
  // As REST and MCP do: inputs by name, the file as base64 text, checked against the schema.
  const scope = createInputValidator().resolve(tool, inputs)
  return executeHttp(tool, scope, sendWithUndici, new AbortController().signal)
}

function fileInput(tool: ToolSpec): string {
  const found = Object.entries(tool.inputs.properties).find(
    ([, s]) => s.contentEncoding === 'base64',
  )
  if (!found) throw new Error('the tool takes no file')
  return found[0]
}

function inputHolding(tool: ToolSpec, value: string): string {
  const found = Object.entries(tool.inputs.properties).find(([, s]) => s.default === value)
  if (!found) throw new Error(`no input holds ${value}`)
  return found[0]
}

describe('a compiled upload tool run through the engine', () => {
  it('sends the caller’s file as the raw body, under the caller’s file name', async () => {
    const trace = await record('upload the file minutes.pdf to the media library', async (page) => {
      await page.locator('#raw').setInputFiles({
        name: 'minutes.pdf',
        mimeType: 'application/pdf',
        buffer: RECORDED,
      })
      await page.click('#send')
      await page.getByText('media:minutes.pdf').waitFor()
    })
    const tool = compiled(trace)
    compiledTools.push(tool)
    const target = tool.steps.at(-1)!.request
    expect(target.body?.kind).toBe('binary')
    const file = fileInput(tool)
    expect(tool.inputs.properties[file]).toMatchObject({
      contentEncoding: 'base64',
      contentMediaType: 'application/octet-stream',
      default: RECORDED.toString('base64'),
    })

    const name = inputHolding(tool, 'minutes.pdf')
    const outcome = await run(tool, { [file]: OTHER.toString('base64'), [name]: 'plan.png' })
    expect(outcome.ok).toBe(true)
    const last = stored.at(-1)!
    expect(last.name).toBe('plan.png')
    expect(last.bytes.equals(OTHER)).toBe(true)
  }, 60_000)

  it('sends a multipart form with the caller’s file, file name and description', async () => {
    const trace = await record(
      'upload the picture sunset.png with the description "A sunset over the bay"',
      async (page) => {
        await page.locator('#file').setInputFiles({
          name: 'sunset.png',
          mimeType: 'image/png',
          buffer: RECORDED,
        })
        await page.fill('#description', 'A sunset over the bay')
        await Promise.all([page.waitForURL(/\/file\//), page.click('#submit')])
      },
    )
    const tool = compiled(trace)
    compiledTools.push(tool)
    const target = tool.steps.at(-1)!.request
    expect(target.body?.kind).toBe('multipart')
    expect(Object.keys(target.headers).map((h) => h.toLowerCase())).not.toContain('content-type')

    const file = fileInput(tool)
    const name = inputHolding(tool, 'sunset.png')
    const description = inputHolding(tool, 'A sunset over the bay')
    const outcome = await run(tool, {
      [file]: OTHER.toString('base64'),
      [name]: 'harbour.png',
      [description]: 'The harbour at dawn',
    })
    expect(outcome.ok).toBe(true)
    const last = stored.at(-1)!
    expect(last).toMatchObject({ name: 'harbour.png', description: 'The harbour at dawn' })
    expect(last.bytes.equals(OTHER)).toBe(true)
  }, 60_000)

  it('sends the same files from the page when the tools run rendered', async () => {
    expect(compiledTools).toHaveLength(2)
    const pool: BrowserPool<BrowserContext> = createBrowserPool({
      chromiumPath: () => '/usr/bin/chromium',
    })
    try {
      const execute = createRenderedExecutor({ pool })
      const [raw, form] = compiledTools.map((t) => ({ ...t, via: 'rendered' as const }))
      const validator = createInputValidator()
      const signal = new AbortController().signal
      const rawScope = validator.resolve(raw!, {
        [fileInput(raw!)]: RECORDED.toString('base64'),
        [inputHolding(raw!, 'minutes.pdf')]: 'agenda.pdf',
      })
      expect((await execute(raw!, rawScope, { login: null }, signal)).ok).toBe(true)
      expect(stored.at(-1)!.name).toBe('agenda.pdf')
      expect(stored.at(-1)!.bytes.equals(RECORDED)).toBe(true)

      const formScope = validator.resolve(form!, {
        [fileInput(form!)]: OTHER.toString('base64'),
        [inputHolding(form!, 'sunset.png')]: 'pier.png',
        [inputHolding(form!, 'A sunset over the bay')]: 'The pier',
      })
      expect((await execute(form!, formScope, { login: null }, signal)).ok).toBe(true)
      expect(stored.at(-1)).toMatchObject({ name: 'pier.png', description: 'The pier' })
      expect(stored.at(-1)!.bytes.equals(OTHER)).toBe(true)
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('refuses a file that is not base64 before anything is sent', async () => {
    const before = stored.length
    expect(() => createInputValidator().resolve(rawUploadTool(), { file: 'not base64!' })).toThrow(
      /Invalid input/,
    )
    expect(stored.length).toBe(before)
  })
})

/** A hand-written raw upload tool with the file input's schema as the compiler writes it. */
function rawUploadTool(): ToolSpec {
  const host = new URL(origin).host
  return {
    id: '00000000-0000-4000-8000-0000000000f1',
    siteHost: host,
    name: 'media__upload_file',
    capabilityId: `${host}/media__upload_file`,
    intent: 'upload a file',
    description: 'upload a file',
    version: '1',
    mutating: true,
    status: 'candidate',
    inputs: {
      type: 'object',
      properties: {
        file: {
          'x-slot': 'p0',
          'x-in': 'body',
          'x-path': '',
          type: 'string',
          contentEncoding: 'base64',
          pattern: BASE64_PATTERN,
        },
      },
      required: ['file'],
    },
    steps: [
      {
        id: 'target',
        request: {
          method: 'POST',
          url: `${origin}/media?name=x`,
          headers: {},
          body: { kind: 'binary', template: '{{input.p0}}' },
        },
        extract: [],
      },
    ],
    output: {},
    verify: { status: [200, 299], mimeType: 'application/json', required: [] },
    via: 'http',
    evidence: {
      traceId: 'trc_x',
      targetExchangeId: 'exc_1',
      exchangeIds: [],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
}
