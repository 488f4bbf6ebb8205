/**
 * Uploading a file with DokuWiki's media manager. Its uploader (qq FileUploader) sends the file's
 * bytes as the raw body of an XHR `POST /lib/exe/ajax.php?...&sectok=...&call=mediaupload&qqfile=
 * <name>&ow=false` (`Content-Type: application/octet-stream`, `X-File-Name`): the operation, the
 * target namespace, the file name and the CSRF token all travel in the query, not in a form.
 */
import type { Workflow } from '../../types'
import { hiddenField, mediaSize, mustPass } from '../keys'
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
    // The uploader takes its parameters, the sectok among them, from the upload form
    // (#dw__upload) of the Upload tab, which the media manager loads with ajax.php
    // call=medialist. (Every page viewed signed in holds the same per-session sectok, so a tool
    // reading it from GET /doku.php would work too; the key names what the UI reads.)
    dependencies: [
      {
        method: 'POST',
        path: '/lib/exe/ajax.php',
        operation: { field: 'call', value: 'medialist' },
      },
    ],
    mutating: true,
    file: PDF_BYTES,
    async replayByHand(app, session) {
      const [name, ns] = ['minutes-2026-11-27.pdf', 'projects']
      // The Upload tab, as the media manager loads it: its form holds the sectok.
      const tab = await app.fetch('/lib/exe/ajax.php', {
        method: 'POST',
        session,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ call: 'medialist', tab_files: 'upload', do: 'media', ns }),
      })
      const sectok = hiddenField(await tab.text(), 'sectok')
      if (!sectok) throw new Error('the Upload tab holds no sectok')
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
      const size = await mediaSize(app, session, id)
      // An upload whose body was lost saves an empty file: not what the person uploaded.
      if (size === null) return `the media file ${id} does not exist`
      return size === PDF_BYTES.length ? null : `${id} holds ${size} bytes, not the uploaded file`
    },
  },
}
