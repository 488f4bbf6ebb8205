import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRecording } from '../../../src/main/recorder/traceRecorder'
import type { Exchange, Trace } from '../../../src/shared/trace'

const CHROMIUM = '/usr/bin/chromium'

// Bytes that are not UTF-8 (0xff, 0xfe, NUL): they must reach the trace as they were sent.
const FILE = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe, 0x0a, 0x41, 0x42])

const PAGE = `<!doctype html>
<html><body>
  <input id="raw" type="file">
  <button id="send-raw">Send raw</button>
  <button id="send-form-data">Send FormData</button>
  <form id="form" method="post" action="/form" enctype="multipart/form-data">
    <input name="title" value="Minutes">
    <input id="picked" name="upload" type="file">
    <button id="submit">Upload</button>
  </form>
  <p id="done"></p>
  <script>
    const file = () => document.getElementById('raw').files[0]
    document.getElementById('send-raw').onclick = async () => {
      const res = await fetch('/raw?name=' + encodeURIComponent(file().name), {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': file().name },
        body: file(),
      })
      document.getElementById('done').textContent = await res.text()
    }
    document.getElementById('send-form-data').onclick = async () => {
      const form = new FormData()
      form.append('name', file().name)
      form.append('async-upload', file())
      const res = await fetch('/form-data', { method: 'POST', body: form })
      document.getElementById('done').textContent = await res.text()
    }
  </script>
</body></html>`

let server: Server
let origin: string
/** Byte counts the site received, by path. */
const received = new Map<string, number>()

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
      return
    }
    let size = 0
    req.on('data', (chunk: Buffer) => (size += chunk.length))
    req.on('end', () => {
      received.set(path, size)
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`stored ${size}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

async function record(play: (page: Page) => Promise<void>) {
  const recording = await startRecording({
    chromiumPath: CHROMIUM,
    url: `${origin}/`,
    intent: 'upload the minutes',
    traceId: 'trc_upload',
    sessionId: 'rec_upload',
    headless: true,
  })
  try {
    await play(recording.page)
  } finally {
    await recording.stop()
  }
  return recording.done
}

function posted(trace: Trace, path: string): Exchange {
  const found = trace.exchanges.find((e) => e.method === 'POST' && new URL(e.url).pathname === path)
  if (!found) throw new Error(`no POST ${path} in the trace`)
  return found
}

function bytesOf(exchange: Exchange): Buffer {
  const body = exchange.requestBody
  if (!body) throw new Error(`${exchange.url} has no request body`)
  return Buffer.from(body.text, body.encoding === 'base64' ? 'base64' : 'utf8')
}

describe('recording uploads', () => {
  it('keeps the bytes of a file sent raw, sent in a FormData, and posted by a form', async () => {
    const trace = await record(async (page) => {
      await page.locator('#raw').setInputFiles({
        name: 'minutes.pdf',
        mimeType: 'application/pdf',
        buffer: FILE,
      })
      await page.click('#send-raw')
      await page.getByText('stored').waitFor()
      await page.evaluate(() => (document.getElementById('done')!.textContent = ''))
      await page.click('#send-form-data')
      await page.getByText('stored').waitFor()
      await page.locator('#picked').setInputFiles({
        name: 'sunset.png',
        mimeType: 'image/png',
        buffer: FILE,
      })
      await Promise.all([page.waitForURL(/\/form$/), page.click('#submit')])
      await page.getByText('stored').waitFor()
    })

    const raw = posted(trace, '/raw')
    expect(raw.requestBody?.encoding).toBe('base64')
    expect(bytesOf(raw).equals(FILE)).toBe(true)

    // A FormData sent by fetch: the whole multipart body, file bytes included, as the site got it.
    const formData = bytesOf(posted(trace, '/form-data'))
    expect(formData.length).toBe(received.get('/form-data'))
    expect(formData.includes(FILE)).toBe(true)
    expect(formData.toString('latin1')).toContain('filename="minutes.pdf"')

    // A form navigation: Chromium leaves the file part empty; the chosen file fills it.
    const form = bytesOf(posted(trace, '/form'))
    expect(form.length).toBe(received.get('/form'))
    expect(form.includes(FILE)).toBe(true)
    expect(form.toString('latin1')).toContain('name="title"\r\n\r\nMinutes\r\n')
  }, 60_000)
})
