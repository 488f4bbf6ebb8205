import { readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HAR_MAX_BYTES, type AppResult, type RecordingResult } from '../../../src/shared/appApi'
import { MAX_HAR_BYTES } from '../../../src/main/cliHar'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { send } from '../../fixtures/harness/http'

// Issue 26 item 2.2: the app imports HAR files up to the CLI's limit (200 MB), streamed to the
// service (the JSON transport refused anything over 5 MB), with the limit said when refused.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const chromeHar = () => readFileSync(join(root, 'test/fixtures/har/chrome.har'), 'utf8')

let h: Harness

beforeEach(async () => {
  h = await startHarness()
})

afterEach(async () => {
  await h.close()
})

/** A HAR of the chrome fixture with one more entry whose response body is `bodyBytes` long. */
function bigHar(bodyBytes: number): string {
  const har = JSON.parse(chromeHar()) as {
    log: { entries: Array<Record<string, unknown> & { response: Record<string, unknown> }> }
  }
  const first = har.log.entries[0]!
  const filler = {
    ...first,
    request: { ...(first.request as object), url: 'https://shop.example/assets/app.js' },
    response: {
      ...first.response,
      status: 200,
      statusText: 'OK',
      redirectURL: '',
      content: { size: bodyBytes, mimeType: 'text/javascript', text: 'x'.repeat(bodyBytes) },
    },
  }
  har.log.entries.unshift(filler)
  return JSON.stringify(har)
}

/** `POST /app-api/har-upload` with `body` as raw bytes. */
async function upload(body: BodyInit, token: string | null = h.core.ownerToken) {
  const res = await fetch(`${h.base}/app-api/har-upload`, {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
    ...({ duplex: 'half' } as object),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const importUpload = (uploadId: string, intent: string, fileName?: string) =>
  send<AppResult<RecordingResult>>(h.base, 'POST', '/app-api/recorder.importHar', {
    key: h.core.ownerToken,
    json: { uploadId, intent, ...(fileName ? { fileName } : {}) },
  })

/** Temp folders of uploads on disk now (any process's). */
const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('sitecall-har-'))

describe('HAR files streamed to the app (issue 26 item 2.2)', () => {
  it('has the CLI’s limit', () => {
    expect(HAR_MAX_BYTES).toBe(MAX_HAR_BYTES)
  })

  it('imports a 20 MB HAR, far over the JSON transport’s 5 MB, and compiles it', async () => {
    const text = bigHar(20 * 1024 * 1024)
    // The JSON transport still refuses it.
    const json = await send(h.base, 'POST', '/app-api/recorder.importHar', {
      key: h.core.ownerToken,
      json: { har: text, intent: 'find red things' },
    })
    expect(json.status).toBe(413)

    const before = leftovers()
    const sent = await upload(text)
    expect(sent.status).toBe(200)
    const value = sent.body.value as { uploadId: string; bytes: number }
    expect(value.bytes).toBe(Buffer.byteLength(text))
    const imported = await importUpload(value.uploadId, 'find red things')
    expect(imported.body.ok).toBe(true)
    const result = (imported.body as { value: RecordingResult }).value
    expect(result.candidate?.steps.at(-1)?.request.url).toContain('/api/search')
    expect(h.core.store.traces.list()[0]).toMatchObject({ intent: 'find red things' })
    // The upload's file is gone once imported, and its id cannot be used twice.
    expect(leftovers().filter((n) => !before.includes(n))).toEqual([])
    const again = await importUpload(value.uploadId, 'find red things')
    expect(again.body).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  it('refuses a file over 200 MB with 413, saying the limit, and keeps nothing', async () => {
    const before = leftovers()
    const chunk = Buffer.alloc(1024 * 1024, 32)
    let sent = 0
    // Sent chunked (no length declared), so the service counts what arrives.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > HAR_MAX_BYTES / chunk.length) controller.close()
        else controller.enqueue(chunk)
      },
    })
    const answer = await upload(body)
    expect(answer.status).toBe(413)
    expect(answer.body).toMatchObject({ error: { code: 'payload_too_large' } })
    expect((answer.body.error as { message: string }).message).toContain('over 200 MB')
    // Other processes may upload meanwhile: only this test's folder must be gone.
    expect(leftovers().filter((n) => !before.includes(n))).toEqual([])
  })

  it('refuses a caller without the owner token before reading the file', async () => {
    expect((await upload(chromeHar(), null)).status).toBe(401)
    expect((await upload(chromeHar(), 'sk_not_a_token')).status).toBe(401)
  })

  it('refuses a body sent as JSON, which no upload received', async () => {
    const res = await fetch(`${h.base}/app-api/har-upload`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${h.core.ownerToken}`,
      },
      body: JSON.stringify({ uploadId: 42, log: {} }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: { code: 'bad_request' } })
  })

  it('names the file, not the temp path, when it is not a HAR', async () => {
    const sent = await upload('{"not": "a har"}')
    const id = (sent.body.value as { uploadId: string }).uploadId
    const answer = await importUpload(id, 'find red things', 'export.json')
    expect(answer.body).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'export.json is not a HAR 1.2 file: it has no "log.entries" list.',
      },
    })
  })

  it('answers the same tool when the same HAR is imported twice, not a `_2` copy', async () => {
    const once = async () => {
      const sent = await upload(chromeHar())
      const id = (sent.body.value as { uploadId: string }).uploadId
      return ((await importUpload(id, 'find red things')).body as { value: RecordingResult }).value
    }
    const first = await once()
    const second = await once()
    expect(second.candidate?.id).toBe(first.candidate?.id)
    expect(
      h.core.store.tools.list({ siteHost: first.candidate!.siteHost }).map((t) => t.name),
    ).toEqual([first.candidate!.name])
    // Another intent is another tool.
    const sent = await upload(chromeHar())
    const id = (sent.body.value as { uploadId: string }).uploadId
    const other = ((await importUpload(id, 'search for things')).body as { value: RecordingResult })
      .value
    expect(other.candidate?.id).not.toBe(first.candidate?.id)
  })
})
