/**
 * Uploading a file with DokuWiki's media manager. Its uploader (qq FileUploader) sends the file's
 * bytes as the raw body of an XHR `POST /lib/exe/ajax.php?...&sectok=...&call=mediaupload&qqfile=
 * <name>&ow=false` (`Content-Type: application/octet-stream`, `X-File-Name`): the operation, the
 * target namespace, the file name and the CSRF token all travel in the query, not in a form.
 */
import type { Workflow } from '../../types'
import { hiddenField, mediaExists, mustPass } from '../keys'
import { PDF_BYTES } from '../seed'

const NS = 'meetings'

/**
 * Opens the media manager, picks the `meetings` namespace in its tree, switches to the Upload
 * tab, picks the file and clicks Upload; waits until the uploader reports the file done.
 */
export const uploadFile: Workflow = {
  id: 'upload_file',
  intent: 'upload the file minutes-2026-11-20.pdf to the meetings media folder',
  rewordings: {
    terse: 'upload minutes-2026-11-20.pdf to meetings',
    chatty:
      "can you put minutes-2026-11-20.pdf into the wiki's media files, in the meetings folder?",
    withoutValue: 'upload a file to the wiki',
  },
  startPath: '/doku.php?id=start',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Media Manager' }).first().click()
    await page.waitForURL(/do=media/)
    await page.locator('#media__tree').getByRole('link', { name: NS, exact: true }).click()
    await page.locator('.filelist h3').getByText(NS, { exact: true }).waitFor()
    await page.locator('.filelist .tabs').getByRole('link', { name: 'Upload' }).click()
    const input = page.locator('#mediamanager__uploader input[type=file]')
    await input.waitFor({ state: 'attached' })
    await input.setInputFiles({
      name: 'minutes-2026-11-20.pdf',
      mimeType: 'application/pdf',
      buffer: PDF_BYTES,
    })
    await page.locator('#mediamanager__upload_button').click()
    // When the upload answered, the uploader marks the item done and links the new file.
    await page.locator('.qq-upload-success').getByText('minutes-2026-11-20.pdf').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/lib/exe/ajax.php',
      operation: { field: 'call', value: 'mediaupload' },
    },
    inputs: [
      {
        recorded: 'minutes-2026-11-20.pdf',
        changed: ['minutes-2026-11-27.pdf', 'minutes-2026-12-04.pdf'],
      },
      // The namespace the person picked in the media tree (and named in the intent); an upload
      // to a namespace without media creates it.
      { recorded: NS, changed: ['projects', 'team'] },
    ],
    // The sectok comes from any page viewed signed in (the media manager's forms hold it).
    dependencies: [{ method: 'GET', path: '/doku.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const [name, ns] = ['minutes-2026-11-27.pdf', 'projects']
      const page = await app.fetch(`/doku.php?id=start&do=media&ns=${ns}`, { session })
      const sectok = hiddenField(await page.text(), 'sectok')
      if (!sectok) throw new Error('the media manager holds no sectok')
      const query = new URLSearchParams({
        tab_files: 'files',
        tab_details: 'view',
        do: 'media',
        ns,
        sectok,
        mediaid: '',
        call: 'mediaupload',
        qqfile: name,
        ow: 'false',
      })
      const res = await app.fetch(`/lib/exe/ajax.php?${query}`, {
        method: 'POST',
        session,
        headers: {
          'content-type': 'application/octet-stream',
          'x-requested-with': 'XMLHttpRequest',
          'x-file-name': name,
        },
        body: PDF_BYTES,
      })
      const answer = (await res.json()) as { success?: boolean; error?: string }
      if (!answer.success) throw new Error(`upload refused: ${answer.error ?? res.status}`)
      mustPass(
        await uploadFile.key.check(app, { status: 'succeeded', result: answer }, session, [
          name,
          ns,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const id = `${String(used[1])}:${String(used[0])}`
      return (await mediaExists(app, session, id)) ? null : `the media file ${id} does not exist`
    },
  },
}
