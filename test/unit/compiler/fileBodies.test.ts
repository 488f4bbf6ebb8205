import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { BASE64_PATTERN, fileUploadOf } from '../../../src/main/compiler/fileBodies'
import type { Exchange, Trace } from '../../../src/shared/trace'

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff])
const ORIGIN = 'https://media.example'

function exchange(partial: Partial<Exchange> & Pick<Exchange, 'method' | 'url'>): Exchange {
  return {
    id: 'exc_1',
    seq: 1,
    requestHeaders: {},
    requestBody: null,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: { text: '{"success":true,"id":"m1"}', encoding: 'utf8' },
    resourceType: 'xhr',
    startedAt: 1_700_000_000_000,
    durationMs: 5,
    pageUrl: `${ORIGIN}/`,
    ...partial,
  }
}

/** A multipart body as Chromium writes it, the file's bytes binary (stored base64). */
function multipartBody(boundary: string, file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc123token\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nA sunset over the bay\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="Sunset.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
}

function trace(intent: string, target: Exchange): Trace {
  return {
    id: 'trc_files',
    intent,
    startUrl: `${ORIGIN}/`,
    createdAt: 1_700_000_000_000,
    exchanges: [target],
    actions: [],
    storageState: null,
  }
}

const compile = (t: Trace) => {
  const result = compileTrace(t, { toolId: '00000000-0000-4000-8000-00000000f11e', now: 1 })
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

describe('fileUploadOf', () => {
  it('tells a raw file body by its media type, its file name header or its bytes', () => {
    const base = { method: 'POST', url: `${ORIGIN}/up` }
    const pdf = { text: PNG.toString('base64'), encoding: 'base64' as const }
    expect(
      fileUploadOf(
        exchange({ ...base, requestHeaders: { 'content-type': 'image/png' }, requestBody: pdf }),
      ),
    ).toMatchObject({ kind: 'binary', contentType: 'image/png', bytes: pdf.text })
    expect(
      fileUploadOf(
        exchange({
          ...base,
          requestHeaders: { 'content-type': 'text/plain', 'x-file-name': 'notes%20v2.txt' },
          requestBody: { text: 'hello', encoding: 'utf8' },
        }),
      ),
    ).toMatchObject({ kind: 'binary', filename: 'notes v2.txt' })
    // A JSON or text post is no file, nor is a GET.
    expect(
      fileUploadOf(
        exchange({
          ...base,
          requestHeaders: { 'content-type': 'application/json' },
          requestBody: { text: '{"a":1}', encoding: 'utf8' },
        }),
      ),
    ).toBeNull()
    expect(fileUploadOf(exchange({ method: 'GET', url: `${ORIGIN}/f.png` }))).toBeNull()
  })

  it('knows a file was sent when a HAR kept only the headers', () => {
    const upload = fileUploadOf(
      exchange({
        method: 'POST',
        url: `${ORIGIN}/uploads.js?filename=a.txt`,
        requestHeaders: { 'content-type': 'application/octet-stream', 'content-length': '52' },
      }),
    )
    expect(upload).toEqual({
      kind: 'binary',
      bytes: null,
      contentType: 'application/octet-stream',
      filename: null,
    })
  })

  it('takes a multipart form for a file upload only when a file part names a file', () => {
    const blank = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n' +
        '--b\r\nContent-Disposition: form-data; name="f"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n',
    )
    const headers = { 'content-type': 'multipart/form-data; boundary=b' }
    const blankForm = exchange({
      method: 'POST',
      url: `${ORIGIN}/issues/5`,
      requestHeaders: headers,
      requestBody: { text: blank.toString('utf8'), encoding: 'utf8' },
    })
    expect(fileUploadOf(blankForm)).toBeNull()
  })
})

describe('compiling an upload', () => {
  it('makes the raw body a file input with the recorded bytes, and the named file name a slot', () => {
    const tool = compile(
      trace(
        'upload the file plan.png to the media library',
        exchange({
          method: 'POST',
          url: `${ORIGIN}/ajax.php?call=upload&qqfile=plan.png`,
          requestHeaders: {
            'content-type': 'application/octet-stream',
            'x-file-name': 'plan.png',
            'content-length': String(PNG.length),
          },
          requestBody: { text: PNG.toString('base64'), encoding: 'base64' },
        }),
      ),
    )
    const target = tool.steps.at(-1)!.request
    const props = tool.inputs.properties
    const [fileName, file] = Object.entries(props).find(([, s]) => s.contentEncoding === 'base64')!
    expect(file).toMatchObject({
      type: 'string',
      contentMediaType: 'application/octet-stream',
      pattern: BASE64_PATTERN,
      default: PNG.toString('base64'),
    })
    expect(target.body).toEqual({ kind: 'binary', template: `{{input.${file['x-slot']}}}` })
    // The file's name is one input, sent in the query and in X-File-Name.
    const [, name] = Object.entries(props).find(([, s]) => s.default === 'plan.png')!
    expect(target.url).toContain(`qqfile={{input.${name['x-slot']}}}`)
    expect(target.headers['x-file-name']).toBe(`{{input.${name['x-slot']}}}`)
    expect(fileName).toBe('file')
  })

  it('makes a multipart upload a form of text slots, the file and its name', () => {
    const body = multipartBody('----WebKitFormBoundaryAbC', PNG)
    const tool = compile(
      trace(
        'upload the picture Sunset.png with the description "A sunset over the bay"',
        exchange({
          method: 'POST',
          url: `${ORIGIN}/upload`,
          requestHeaders: {
            'content-type': 'multipart/form-data; boundary=----WebKitFormBoundaryAbC',
            'content-length': String(body.length),
          },
          requestBody: { text: body.toString('base64'), encoding: 'base64' },
          status: 302,
          responseHeaders: { location: `${ORIGIN}/File:Sunset.png` },
          responseBody: null,
          resourceType: 'document',
        }),
      ),
    )
    const target = tool.steps.at(-1)!.request
    expect(target.headers['content-type']).toBeUndefined()
    expect(target.body?.kind).toBe('multipart')
    const parts = target.body?.kind === 'multipart' ? target.body.template : []
    const props = Object.values(tool.inputs.properties)
    const slotOf = (value: unknown) => props.find((p) => p.default === value)?.['x-slot']
    expect(parts).toEqual([
      { name: 'token', value: expect.any(String) },
      { name: 'description', value: `{{input.${slotOf('A sunset over the bay')}}}` },
      {
        name: 'upload',
        file: `{{input.${slotOf(PNG.toString('base64'))}}}`,
        filename: `{{input.${slotOf('Sunset.png')}}}`,
        contentType: 'image/png',
      },
    ])
  })

  it("sends the form page's fresh token in a multipart upload's text part", () => {
    const token = 'adLuLh6bSlH7WM1gGu7aCGqJUC56wwcjefNXSFgC'
    const body = Buffer.from(
      multipartBody('----WebKitFormBoundaryAbC', PNG)
        .toString('latin1')
        .replace('abc123token', token),
      'latin1',
    )
    const form = exchange({
      method: 'GET',
      url: `${ORIGIN}/upload`,
      responseHeaders: { 'content-type': 'text/html' },
      responseBody: {
        text: `<html><body><form method="post" enctype="multipart/form-data"><input type="hidden" name="token" value="${token}"><input type="file" name="upload"></form></body></html>`,
        encoding: 'utf8',
      },
      resourceType: 'document',
    })
    const upload = exchange({
      id: 'exc_2',
      seq: 2,
      startedAt: 1_700_000_000_050,
      method: 'POST',
      url: `${ORIGIN}/upload`,
      requestHeaders: {
        'content-type': 'multipart/form-data; boundary=----WebKitFormBoundaryAbC',
      },
      requestBody: { text: body.toString('base64'), encoding: 'base64' },
      status: 302,
      responseHeaders: { location: `${ORIGIN}/File:Sunset.png` },
      responseBody: null,
      resourceType: 'document',
    })
    const tool = compile({
      ...trace('upload the picture Sunset.png', upload),
      exchanges: [form, upload],
    })
    const page = tool.steps.find((s) => s.request.method === 'GET')!
    const extractor = page.extract.find((e) => e.from === 'input' && e.path === 'token')!
    const target = tool.steps.at(-1)!.request
    const parts = target.body?.kind === 'multipart' ? target.body.template : []
    expect(parts.find((p) => p.name === 'token')).toEqual({
      name: 'token',
      value: `{{step.${page.id}.${extractor.name}}}`,
    })
  })

  it('requires the file when a capture kept its binary bytes as text (U+FFFD)', () => {
    // A HAR's postData.text: the PNG's invalid UTF-8 became U+FFFD, the bytes are not the file.
    const lossy = Buffer.from(multipartBody('b', PNG).toString('utf8'), 'utf8')
    const tool = compile(
      trace(
        'upload the picture Sunset.png with the description "A sunset over the bay"',
        exchange({
          method: 'POST',
          url: `${ORIGIN}/upload`,
          requestHeaders: { 'content-type': 'multipart/form-data; boundary=b' },
          requestBody: { text: lossy.toString('base64'), encoding: 'base64' },
        }),
      ),
    )
    const [name, file] = Object.entries(tool.inputs.properties).find(
      ([, p]) => p.contentEncoding === 'base64',
    )!
    expect(file.default).toBeUndefined()
    expect(tool.inputs.required).toContain(name)
    expect(file.description).toMatch(/kept it as text/)
  })

  it('requires the file when the recording kept no bytes', () => {
    const tool = compile(
      trace(
        'upload the file report.pdf',
        exchange({
          method: 'POST',
          url: `${ORIGIN}/ajax.php?call=upload&qqfile=report.pdf`,
          requestHeaders: { 'content-type': 'application/octet-stream', 'content-length': '900' },
        }),
      ),
    )
    const [name, file] = Object.entries(tool.inputs.properties).find(
      ([, s]) => s.contentEncoding === 'base64',
    )!
    expect(file.default).toBeUndefined()
    expect(tool.inputs.required).toContain(name)
  })
})
