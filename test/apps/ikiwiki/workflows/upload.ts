/**
 * Attaching a file to a page with ikiwiki's attachment plugin. Picking a file in the editor's
 * Attachments section makes its upload widget (jQuery File Upload) post the whole edit form with
 * the file as multipart by XHR (no `_submit`): ikiwiki keeps the file in a holding area and
 * answers JSON. Only the editor's Save Page moves held files into the page's folder and commits
 * them, so that post is the one that answers the intent.
 */
import type { Workflow } from '../../types'
import { hiddenField, mustPass, openForm, postForm, sidOf } from '../keys'
import { PDF_BYTES } from '../seed'

const CGI = '/ikiwiki.cgi'

/** The size in bytes of `/<page>/<file>` as served, or null when there is no such file. */
async function attachmentSize(
  app: Parameters<Workflow['play']>[1],
  page: string,
  file: string,
): Promise<number | null> {
  const res = await app.fetch(`/${page}/${file}`)
  const bytes = await res.arrayBuffer()
  return res.status === 200 ? bytes.byteLength : null
}

/**
 * From the front page, opens the meetings page, Edit, opens the Attachments section, picks the
 * PDF (the widget uploads it at once and lists it as "just uploaded"), then Save Page.
 */
export const uploadAttachment: Workflow = {
  id: 'upload_attachment',
  intent: 'attach the file minutes-2026-11-20.pdf to the wiki page meetings',
  rewordings: {
    terse: 'attach minutes-2026-11-20.pdf to meetings',
    chatty:
      'could you upload minutes-2026-11-20.pdf to our wiki and attach it to the meetings page?',
    withoutValue: 'attach a file to a wiki page',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Meetings', exact: true }).click()
    await page.waitForURL(/\/meetings\/$/)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.getByRole('link', { name: 'Attachments' }).click()
    await page.locator('#attachment').setInputFiles({
      name: 'minutes-2026-11-20.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(PDF_BYTES),
    })
    await page.locator('.template-download').getByText('just uploaded').waitFor()
    await page.getByRole('button', { name: 'Save Page' }).click()
    await page.waitForURL(/\/meetings\/\?updated$/)
  },
  key: {
    target: {
      method: 'POST',
      path: CGI,
      operation: [
        { field: 'do', value: 'edit' },
        { field: '_submit', value: 'Save Page' },
      ],
    },
    inputs: [
      {
        recorded: 'minutes-2026-11-20.pdf',
        changed: ['minutes-2026-11-27.pdf', 'minutes-2026-12-04.pdf'],
      },
      // The page the person opened (and named): the file lands in its folder.
      { recorded: 'meetings', changed: ['onboarding', 'team_status'] },
    ],
    // The editor (sid, rcsinfo) and the widget's upload post, which holds the file's bytes.
    dependencies: [
      { method: 'GET', path: CGI, operation: { field: 'do', value: 'edit' } },
      { method: 'POST', path: CGI, operation: { field: 'do', value: 'edit' } },
    ],
    mutating: true,
    file: PDF_BYTES,
    async replayByHand(app, session) {
      const [name, page] = ['minutes-2026-11-27.pdf', 'onboarding']
      const html = await openForm(app, session, { do: 'edit', page })
      const text = /<textarea[^>]*name="editcontent"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1]
      const fields: Array<[string, string | Blob, string?]> = [
        ['_submitted', '1'],
        ['do', 'edit'],
        ['sid', sidOf(html)],
        ['from', ''],
        ['rcsinfo', hiddenField(html, 'rcsinfo') ?? ''],
        ['page', page],
        ['type', 'mdwn'],
        ['editcontent', (text ?? '').replace(/&amp;/g, '&')],
        ['editmessage', ''],
      ]
      // The widget's upload: the form without a button, plus the file.
      const upload = await postForm(
        app,
        session,
        [...fields, ['attachment', new Blob([PDF_BYTES], { type: 'application/pdf' }), name]],
        true,
      )
      const answer = await upload.text()
      if (!answer.includes('just uploaded'))
        throw new Error(`upload answered ${answer.slice(0, 200)}`)
      const save = await postForm(app, session, [...fields, ['_submit', 'Save Page']], true)
      await save.arrayBuffer()
      if (save.status !== 302) throw new Error(`saving answered ${save.status}`)
      mustPass(
        await uploadAttachment.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
          page,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, page] = [String(used[0]), String(used[1])]
      const size = await attachmentSize(app, page, name)
      // Held but never saved, or saved elsewhere: not on the page.
      if (size === null) return `${page}/${name} does not exist`
      return size === PDF_BYTES.length ? null : `${page}/${name} holds ${size} bytes, not the file`
    },
  },
}
