import { describe, expect, it } from 'vitest'
import { withChosenFiles, type ChosenFile } from '../../../src/main/recorder/uploadBodies'

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0a])
const chosen: ChosenFile[] = [
  { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('abc') },
  { name: 'Sunset.png', type: 'image/png', bytes: PNG },
]
const multipart = (boundary: string) => ({
  'content-type': `multipart/form-data; boundary=${boundary}`,
})

describe('withChosenFiles', () => {
  it('fills a form post’s empty file part with the chosen file of that name', () => {
    const sent = Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n' +
        '--B\r\nContent-Disposition: form-data; name="up"; filename="Sunset.png"\r\nContent-Type: image/png\r\n\r\n\r\n--B--\r\n',
    )
    const length = String(sent.length + PNG.length)
    const filled = withChosenFiles(sent, { ...multipart('B'), 'content-length': length }, chosen)
    expect(filled!.length).toBe(Number(length))
    expect(filled!.includes(Buffer.concat([Buffer.from('image/png\r\n\r\n'), PNG]))).toBe(true)
    // A length that does not fit means a wrong guess: the body stays as the browser gave it.
    const wrong = { ...multipart('B'), 'content-length': String(sent.length + 1) }
    expect(withChosenFiles(sent, wrong, chosen)).toBe(sent)
  })

  it('writes a submitted form as Chromium does when the browser gave no body', () => {
    const entries = [
      { name: 'say "hi"', value: 'line1\nline2' },
      { name: 'up', filename: 'Sunset.png', type: 'image/png', size: PNG.length },
      { name: 'empty', filename: '', type: 'application/octet-stream', size: 0 },
    ]
    const expected = Buffer.concat([
      Buffer.from(
        '--B\r\nContent-Disposition: form-data; name="say %22hi%22"\r\n\r\nline1\r\nline2\r\n' +
          '--B\r\nContent-Disposition: form-data; name="up"; filename="Sunset.png"\r\nContent-Type: image/png\r\n\r\n',
      ),
      PNG,
      Buffer.from(
        '\r\n--B\r\nContent-Disposition: form-data; name="empty"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n',
      ),
    ])
    const headers = { ...multipart('B'), 'content-length': String(expected.length) }
    expect(withChosenFiles(null, headers, chosen, [entries])).toEqual(expected)
    // A file the person never chose (or of another size) cannot be written.
    const other = [{ name: 'up', filename: 'Dawn.png', type: 'image/png', size: 3 }]
    expect(withChosenFiles(null, headers, chosen, [other])).toBeNull()
  })

  it('takes a raw body from the chosen file of exactly the sent length, the named one first', () => {
    const twin: ChosenFile = { name: 'other.txt', type: 'text/plain', bytes: Buffer.from('xyz') }
    const headers = { 'content-type': 'application/octet-stream', 'content-length': '3' }
    expect(withChosenFiles(null, headers, [...chosen, twin])).toEqual(twin.bytes)
    expect(
      withChosenFiles(null, { ...headers, 'x-file-name': 'notes.txt' }, [...chosen, twin]),
    ).toEqual(Buffer.from('abc'))
    expect(withChosenFiles(null, { ...headers, 'content-length': '4' }, chosen)).toBeNull()
  })
})
