import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { extractValue } from '../../../src/main/engine/extract'
import type { Exchange, Trace } from '../../../src/shared/trace'

/**
 * Redmine's attachment flow: the file goes first, raw, to `POST /uploads.js`, whose JavaScript
 * answer writes a token into the form; the issue form then sends that token, not the file.
 */
const ORIGIN = 'http://127.0.0.1:3000'
const TOKEN = '1.d37af0b8ce62cc5f78368a07b6902b92'
const ANSWER = `var fileSpan = $('#attachments_1');\nfileSpan.find('input.token').val('${TOKEN}');\n`
const FILE = 'Release 1.2: fixes the search.\n'

function exchange(seq: number, partial: Partial<Exchange> & Pick<Exchange, 'method' | 'url'>) {
  return {
    id: `exc_${seq}`,
    seq,
    requestHeaders: {},
    requestBody: null,
    status: 200,
    responseHeaders: { 'content-type': 'text/html' },
    responseBody: null,
    resourceType: 'xhr',
    startedAt: 1_700_000_000_000 + seq,
    durationMs: 5,
    pageUrl: `${ORIGIN}/issues/5`,
    ...partial,
  } satisfies Exchange
}

const trace: Trace = {
  id: 'trc_attach',
  intent: 'attach the file release-notes.txt to issue #5',
  startUrl: `${ORIGIN}/issues/5`,
  createdAt: 1_700_000_000_000,
  exchanges: [
    exchange(1, {
      method: 'POST',
      url: `${ORIGIN}/uploads.js?attachment_id=1&filename=release-notes.txt`,
      requestHeaders: { 'content-type': 'application/octet-stream', 'content-length': '31' },
      requestBody: { text: FILE, encoding: 'utf8' },
      responseHeaders: { 'content-type': 'text/javascript; charset=utf-8' },
      responseBody: { text: ANSWER, encoding: 'utf8' },
    }),
    exchange(2, {
      method: 'POST',
      url: `${ORIGIN}/issues/5`,
      requestHeaders: { 'content-type': 'application/x-www-form-urlencoded' },
      requestBody: {
        text: new URLSearchParams({
          _method: 'patch',
          'attachments[1][filename]': 'release-notes.txt',
          'attachments[1][token]': TOKEN,
        }).toString(),
        encoding: 'utf8',
      },
      status: 302,
      responseHeaders: { location: `${ORIGIN}/issues/5` },
      resourceType: 'document',
    }),
  ],
  actions: [],
  storageState: null,
}

describe('an upload answered with a token', () => {
  it('becomes a dependency step that sends the caller’s file and reads the token', () => {
    const result = compileTrace(trace, { toolId: '00000000-0000-4000-8000-0000000000a7', now: 1 })
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const [upload, target] = tool.steps
    expect(upload!.request.url).toMatch(/\/uploads\.js\?/)
    const [, file] = Object.entries(tool.inputs.properties).find(
      ([, s]) => s.contentEncoding === 'base64',
    )!
    expect(upload!.request.body).toEqual({
      kind: 'binary',
      template: `{{input.${file['x-slot']}}}`,
    })
    expect(Buffer.from(String(file.default), 'base64').toString('utf8')).toBe(FILE)
    expect(upload!.extract).toEqual([
      { name: expect.any(String), from: 'literal', path: "fileSpan.find('input.token').val(" },
    ])
    const token = `{{step.${upload!.id}.${upload!.extract[0]!.name}}}`
    expect(target!.request.body).toMatchObject({
      kind: 'form',
      template: { 'attachments[1][token]': token },
    })
  })

  it('reads the quoted string after the recorded text of a fresh answer', () => {
    const fresh = ANSWER.replace(TOKEN, '2.ffee')
    const extractor = {
      name: 'token',
      from: 'literal' as const,
      path: "fileSpan.find('input.token').val(",
    }
    expect(extractValue({ status: 200, headers: {}, body: fresh }, extractor)).toBe('2.ffee')
    expect(
      extractValue({ status: 200, headers: {}, body: 'alert("gone")' }, extractor),
    ).toBeUndefined()
  })
})
