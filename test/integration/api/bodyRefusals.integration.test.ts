import { request } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../../fixtures/harness/harness'

let h: Harness

beforeEach(async () => {
  h = await startHarness()
})

afterEach(async () => {
  await h.close()
})

/**
 * Sends `size` bytes as a JSON body in 64 KiB writes, as curl or a slow uploader does, and reads
 * the answer; resolves once the whole body went out and the answer was read, rejects when the
 * connection is reset on the way (what a client that writes its whole body first then sees).
 */
function upload(
  path: string,
  size: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: { error: { code: string; message: string } } }> {
  const url = new URL(path, h.base)
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(size) } },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (text += c))
        res.on('end', () => {
          const answer = { status: res.statusCode!, body: JSON.parse(text) }
          if (req.writableFinished) resolve(answer)
          else req.once('finish', () => resolve(answer))
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    let sent = 0
    // A pause now and then, as a network does: the server answers while the body still comes.
    const next = () => {
      if (sent >= size) return req.end()
      const piece = chunk.subarray(0, Math.min(chunk.length, size - sent))
      sent += piece.length
      if (!req.write(piece)) req.once('drain', next)
      else if ((sent / chunk.length) % 8 === 0) setTimeout(next, 5)
      else setImmediate(next)
    }
    req.write('{"intent":"')
    sent += 11
    next()
  })
}

describe('a refused body is answered, in the right order (issue 26 item 1.7)', () => {
  it('answers 5.5 MB and 16 MB to /v1/tools/search with 413 payload_too_large, not a reset connection', async () => {
    const big = await upload('/v1/tools/search', 16 * 1024 * 1024, {
      authorization: `Bearer ${h.key}`,
      'content-type': 'application/json',
      'idempotency-key': 'big-body-0002',
    })
    expect(big.status).toBe(413)
    const answer = await upload('/v1/tools/search', 5.5 * 1024 * 1024, {
      authorization: `Bearer ${h.key}`,
      'content-type': 'application/json',
      'idempotency-key': 'big-body-0001',
    })
    expect(answer.status).toBe(413)
    expect(answer.body.error.code).toBe('payload_too_large')
  })

  it('answers a too-large body without a credential 401 first', async () => {
    const answer = await upload('/v1/tools/search', 5.5 * 1024 * 1024, {
      'content-type': 'application/json',
    })
    expect(answer.status).toBe(401)
    expect(answer.body.error.code).toBe('unauthorized')
  })

  it('checks the key before the content type: 401 without one, 400 with one', async () => {
    const send = (key?: string) =>
      fetch(`${h.base}/v1/tools/search`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-not-json',
          'idempotency-key': 'bad-type-0001',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: 'intent=x',
      })
    const anonymous = await send()
    expect(anonymous.status).toBe(401)
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe(
      'unauthorized',
    )
    const wrongKey = await send('svc_live_not-a-key')
    expect(wrongKey.status).toBe(401)
    const keyed = await send(h.key)
    expect(keyed.status).toBe(400)
    expect(((await keyed.json()) as { error: { code: string } }).error.code).toBe('bad_request')
  })

  it('answers broken JSON from a caller without a key 401, from one with a key 400', async () => {
    const send = (key?: string) =>
      fetch(`${h.base}/v1/tools/search`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': 'bad-json-0001',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: '{"intent": ',
      })
    expect((await send()).status).toBe(401)
    expect((await send(h.key)).status).toBe(400)
  })
})
