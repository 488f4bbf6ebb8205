// A run keeps the bytes the site answered and answers them as they are: the body's UTF-8 bytes
// are kept only when they are exactly the text's (a BOM skipped, invalid UTF-8 never passed on),
// and the Buffer answer is byte for byte the JSON text answer.
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { bodyOf } from '../../../src/main/engine/httpExecutor'
import { judgeResponse } from '../../../src/main/engine/outcome'
import { toPublicRun } from '../../../src/main/engine/publicRun'
import { publicRunBody, publicRunJson } from '../../../src/main/engine/runJson'
import type { RunRecord } from '../../../src/main/store/runRepository'
import { decodeResult, encodeResult } from '../../../src/main/store/resultCodec'

const text = JSON.stringify({ data: [{ toolName: 'Café ☕ 𝄞' }], count: 1 })

describe('the bytes of an answer', () => {
  it('keeps valid UTF-8 bytes with their text, skipping a byte order mark', () => {
    const utf8 = Buffer.from(text)
    expect(bodyOf(utf8)).toEqual({ body: text, bytes: utf8 })
    const marked = bodyOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]))
    expect(marked.body).toBe(text)
    expect(marked.bytes).toEqual(utf8)
  })

  it('keeps no bytes when they are not valid UTF-8, even where the lengths agree', () => {
    // A 4-byte sequence cut after 3 bytes decodes to one U+FFFD, itself 3 bytes long.
    const cut = Buffer.concat([
      Buffer.from('["'),
      Buffer.from([0xf0, 0x9f, 0x98]),
      Buffer.from('"]'),
    ])
    const read = bodyOf(cut)
    expect(read.body).toBe('["\uFFFD"]')
    expect(Buffer.byteLength(read.body)).toBe(cut.length)
    expect(read.bytes).toBeUndefined()
  })

  it('passes the bytes through a verified outcome, and a run answers them unchanged', () => {
    const { body, bytes } = bodyOf(Buffer.from(text))
    const judged = judgeResponse(
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body,
        ...(bytes ? { bytes } : {}),
      },
      {
        status: [200, 299],
        mimeType: 'application/json',
        required: [{ path: 'count', type: 'integer' }],
      },
    )
    expect(judged).toMatchObject({ ok: true, text, bytes })
    const record: RunRecord = {
      runId: 'lrun_1',
      status: 'succeeded',
      capabilityId: null,
      error: null,
      requirements: [],
      via: 'http',
      signIn: null,
      toolId: 't',
      stateRevision: 2,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      result: JSON.parse(text),
      resultText: text,
      ...(bytes ? { resultBytes: bytes } : {}),
      tenant: 'local',
      inputs: {},
      inputHash: 'h',
      idempotencyKey: null,
      deadlineMs: null,
      billed: true,
      finishedAt: '2026-01-01T00:00:00.000Z',
      mutating: false,
      billOnSuccess: true,
      effects: [],
      resultExpiredAt: null,
    }
    const answer = publicRunBody(record, { routing: { status: 'matched' } })
    expect(Buffer.isBuffer(answer)).toBe(true)
    expect((answer as Buffer).toString('utf8')).toBe(
      publicRunJson(record, { routing: { status: 'matched' } }),
    )
    expect(JSON.parse((answer as Buffer).toString('utf8'))).toEqual({
      ...toPublicRun(record),
      routing: { status: 'matched' },
    })
  })
})

describe('stored results', () => {
  it('stores small results as text and larger ones compressed, reading back the same text', async () => {
    const small = await encodeResult(text)
    expect(small).toEqual({ codec: 'json', data: text, bytes: Buffer.byteLength(text) })
    const large = JSON.stringify({ data: Array.from({ length: 400 }, (_, i) => ({ i, text })) })
    const stored = await encodeResult(large, Buffer.from(large))
    expect(stored.codec).toBe('br')
    expect(stored.bytes).toBeLessThan(large.length / 4)
    expect(decodeResult(stored.codec, stored.data)).toBe(large)
    // Rows written before Brotli hold gzip; they still read back.
    expect(decodeResult('gzip', gzipSync(large))).toBe(large)
  })
})
