import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { withFormBodies } from '../../../src/main/compiler/formBodies'
import type { Exchange, Trace } from '../../../src/shared/trace'

/** A wiki's upload form and the form post a plain HAR kept without its body. */
const ORIGIN = 'http://127.0.0.1:8080'
const FORM = `<html><head><title>Upload file</title></head><body>
<form action="/index.php/Special:Upload" method="post" enctype="multipart/form-data">
  <input type="hidden" name="title" value="Special:Upload">
  <input type="file" name="wpUploadFile" id="wpUploadFile">
  <label for="wpDestFile">Destination filename:</label><input name="wpDestFile" id="wpDestFile">
  <label for="wpUploadDescription">Summary:</label>
  <textarea name="wpUploadDescription" id="wpUploadDescription"></textarea>
  <select name="wpLicense"><option value="">None</option><option value="cc">CC</option></select>
  <input type="checkbox" name="wpWatchthis" value="1" checked>
  <input type="checkbox" name="wpIgnoreWarning" value="1">
  <input type="hidden" name="wpEditToken" value="89d0613c197ac14e759310ab41ebe8eb+\\">
  <input type="text" name="disabledField" value="x" disabled>
  <input type="submit" name="wpUpload" value="Upload file">
  <input type="submit" name="wpCancel" value="Cancel">
</form></body></html>`
const BOUNDARY = '----WebKitFormBoundaryQ1'

function exchange(seq: number, partial: Partial<Exchange> & Pick<Exchange, 'method' | 'url'>) {
  return {
    id: `exc_${seq}`,
    seq,
    requestHeaders: {},
    requestBody: null,
    status: 200,
    responseHeaders: { 'content-type': 'text/html; charset=utf-8' },
    responseBody: null,
    resourceType: 'document',
    startedAt: 1_700_000_000_000 + seq,
    durationMs: 5,
    pageUrl: `${ORIGIN}/index.php/Special:Upload`,
    ...partial,
  } satisfies Exchange
}

const trace: Trace = {
  id: 'trc_har_upload',
  intent: 'upload the picture Sunset.png with the description "A sunset over the bay"',
  startUrl: `${ORIGIN}/index.php/Special:Upload`,
  createdAt: 1_700_000_000_000,
  exchanges: [
    exchange(1, {
      method: 'GET',
      url: `${ORIGIN}/index.php/Special:Upload`,
      responseBody: { text: FORM, encoding: 'utf8' },
    }),
    exchange(2, {
      method: 'POST',
      url: `${ORIGIN}/index.php/Special:Upload`,
      requestHeaders: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': '1242',
      },
      status: 302,
      responseHeaders: { location: `${ORIGIN}/index.php/File:Sunset.png` },
    }),
  ],
  actions: [],
  storageState: null,
}

describe('a form post whose body a HAR left out', () => {
  it('is written from its form: hidden fields, checked boxes, the submitter, the named values', () => {
    const body = withFormBodies(trace).exchanges[1]!.requestBody!.text
    const part = (name: string, value: string) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    expect(body).toBe(
      part('title', 'Special:Upload') +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="wpUploadFile"; filename="Sunset.png"\r\nContent-Type: image/png\r\n\r\n\r\n` +
        part('wpDestFile', '') +
        part('wpUploadDescription', 'A sunset over the bay') +
        part('wpLicense', '') +
        part('wpWatchthis', '1') +
        part('wpEditToken', '89d0613c197ac14e759310ab41ebe8eb+\\') +
        part('wpUpload', 'Upload file') +
        `--${BOUNDARY}--\r\n`,
    )
    // A trace that kept its bodies is left as it is.
    const kept = { ...trace, exchanges: [trace.exchanges[0]!] }
    expect(withFormBodies(kept)).toBe(kept)
  })

  it('compiles to an upload that reads the form’s token and requires the file', () => {
    const result = compileTrace(trace, { toolId: '00000000-0000-4000-8000-0000000000b1', now: 1 })
    if (!result.ok) throw new Error(result.explanation.reason)
    const tool = result.candidate
    const [page, target] = tool.steps
    expect(page!.request).toMatchObject({
      method: 'GET',
      url: `${ORIGIN}/index.php/Special:Upload`,
    })
    expect(page!.extract).toContainEqual({
      name: expect.any(String),
      from: 'input',
      path: 'wpEditToken',
    })
    expect(target!.request.body?.kind).toBe('multipart')
    const props = Object.entries(tool.inputs.properties)
    const [fileName, file] = props.find(([, s]) => s.contentEncoding === 'base64')!
    expect(file.default).toBeUndefined()
    expect(tool.inputs.required).toContain(fileName)
    expect(props.map(([, s]) => s.default)).toEqual(
      expect.arrayContaining(['Sunset.png', 'A sunset over the bay']),
    )
  })

  it('is written from a Plupload uploader’s inline settings when no form sent it', () => {
    const page = `<html><body><script>
      var resize = 1024, uploaderInit = {"file_data_name":"async-upload","url":"http:\\/\\/127.0.0.1:8080\\/wp-admin\\/async-upload.php","multipart_params":{"post_id":0,"_wpnonce":"b93a17725e","short":"1"},"filters":{"max":"2b"}};
    </script></body></html>`
    const plupload: Trace = {
      ...trace,
      intent: 'upload the image plot-7-map.png to the media library',
      exchanges: [
        exchange(1, {
          method: 'GET',
          url: `${ORIGIN}/wp-admin/media-new.php`,
          responseBody: { text: page, encoding: 'utf8' },
        }),
        exchange(2, {
          method: 'POST',
          url: `${ORIGIN}/wp-admin/async-upload.php`,
          requestHeaders: {
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
            'content-length': '844',
          },
          resourceType: 'xhr',
        }),
      ],
    }
    const part = (name: string, value: string) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    expect(withFormBodies(plupload).exchanges[1]!.requestBody!.text).toBe(
      part('name', 'plot-7-map.png') +
        part('post_id', '0') +
        part('_wpnonce', 'b93a17725e') +
        part('short', '1') +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="async-upload"; filename="plot-7-map.png"\r\nContent-Type: image/png\r\n\r\n\r\n` +
        `--${BOUNDARY}--\r\n`,
    )
  })
})
