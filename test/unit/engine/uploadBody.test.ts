import { describe, expect, it } from 'vitest'
import { uploadBody } from '../../../src/main/engine/httpExecutor'
import { renderRequest, shownValues } from '../../../src/main/engine/template'
import type { RequestTemplate } from '../../../src/shared/toolSpec'

const PDF = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0a])

const multipart: RequestTemplate = {
  method: 'POST',
  url: 'https://wiki.example/index.php/Special:Upload',
  headers: { 'Content-Type': 'multipart/form-data; boundary=----recorded', 'x-a': '1' },
  body: {
    kind: 'multipart',
    template: [
      { name: 'wpEditToken', value: '{{step.d1.token}}' },
      {
        name: 'wpUploadFile',
        file: '{{input.p0}}',
        filename: '{{input.p1}}',
        contentType: 'image/png',
      },
      { name: 'wpUploadDescription', value: 'Note: {{input.p2}}' },
      {
        name: 'attachments[dummy][file]',
        file: '',
        filename: '',
        contentType: 'application/octet-stream',
      },
    ],
  },
}

describe('file bodies', () => {
  it('renders a binary body from a base64 input, keeping its recorded content type', () => {
    const rendered = renderRequest(
      {
        method: 'POST',
        url: 'https://wiki.example/ajax.php?qqfile={{input.p1}}',
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': '{{input.p1}}' },
        body: { kind: 'binary', template: '{{input.p0}}' },
      },
      { 'input.p0': PDF.toString('base64'), 'input.p1': 'a b.pdf' },
    )
    expect(rendered.body).toBeNull()
    expect(rendered.upload?.kind).toBe('binary')
    expect(Buffer.from(uploadBody(rendered.upload!) as Uint8Array).equals(PDF)).toBe(true)
    expect(rendered.url).toBe('https://wiki.example/ajax.php?qqfile=a%20b.pdf')
    expect(rendered.headers).toEqual({
      'content-type': 'application/octet-stream',
      'x-file-name': 'a b.pdf',
    })
  })

  it('builds a multipart body with a fresh boundary: text fields, the file and its name', async () => {
    const rendered = renderRequest(multipart, {
      'input.p0': PDF.toString('base64'),
      'input.p1': 'Sunset.png',
      'input.p2': 'A sunset',
      'step.d1.token': 'tok+\\',
    })
    // The recorded boundary is stale: the sender writes Content-Type with its own.
    expect(rendered.headers).toEqual({ 'x-a': '1' })
    const body = uploadBody(rendered.upload!)
    const encoded = new Response(body as FormData)
    const type = encoded.headers.get('content-type') ?? ''
    expect(type).toMatch(/^multipart\/form-data; boundary=/)
    const bytes = Buffer.from(await encoded.arrayBuffer())
    expect(bytes.includes(PDF)).toBe(true)

    const form = await new Response(new Uint8Array(bytes), {
      headers: { 'content-type': type },
    }).formData()
    expect(form.get('wpEditToken')).toBe('tok+\\')
    expect(form.get('wpUploadDescription')).toBe('Note: A sunset')
    const file = form.get('wpUploadFile') as File
    expect(file.name).toBe('Sunset.png')
    expect(file.type).toBe('image/png')
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true)
    // A file input left empty is still a part, with no bytes.
    expect(form.has('attachments[dummy][file]')).toBe(true)
    expect(bytes.toString('latin1')).toMatch(
      /name="attachments\[dummy\]\[file\]"[^\r]*\r\nContent-Type: application\/octet-stream\r\n\r\n\r\n--/,
    )
  })

  it('reads back a multipart text field or file name a redirect page must show', () => {
    const scope = { 'input.p0': PDF.toString('base64'), 'input.p1': 'Dawn.png', 'input.p2': 'x' }
    const rendered = renderRequest(multipart, scope)
    expect(
      shownValues(multipart, rendered, [
        { in: 'body', path: 'wpUploadFile' },
        { in: 'body', path: 'wpUploadDescription' },
      ]),
    ).toEqual(['Dawn.png', 'Note: x'])
  })

  it('sends no bytes for a file input left out', () => {
    const rendered = renderRequest(
      {
        method: 'PUT',
        url: 'https://x.example/f',
        headers: {},
        body: { kind: 'binary', template: '{{input.p0}}' },
      },
      {},
    )
    expect(rendered.upload).toEqual({ kind: 'binary', bytes: new Uint8Array() })
  })
})
