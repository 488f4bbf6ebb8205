/**
 * Adding an NZB file. The Add dialog reads the picked file in the page (FileReader) and sends it
 * base64-encoded inside the JSON body, no multipart: `POST /jsonrpc` with `{"method": "append",
 * "params": ["<file name>", "<base64 of the file>", "<category>", <priority>, <add to top>,
 * <add paused>, "<dupe key>", <dupe score>, "<dupe mode>", [<post-processing parameters>]]}`,
 * answered with the new download's NZBID. The download's name is the file name without `.nzb`.
 */
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import { appendParams } from '../server'
import { openSignedIn } from '../person'
import { call, groups, history, mustPass, poll } from '../rpc'
import { OTHER_UPLOAD_NAME, OTHER_UPLOAD_NZB, UPLOAD_NAME, UPLOAD_NZB } from '../seed'
import { rpcTarget } from './queue'

/**
 * How many downloads of the two upload files (queue and history: NZBGet may file a second copy
 * of a name as a duplicate) each instance held at its last check. An upload tool takes no typed
 * input (the file is the input), so the check cannot tell from `used` which file was sent; it
 * asks that one more of them is there than before.
 */
const uploadsSeen = new WeakMap<AppInstance, number>()

/** Downloads named after either upload file, in the queue and the history. */
async function uploadCount(app: AppInstance, session: StorageState): Promise<number> {
  const c = { fetch: app.fetch, session }
  const names = [UPLOAD_NAME, OTHER_UPLOAD_NAME]
  const queued = (await groups(c)).filter((g) => names.includes(g.NZBName)).length
  const past = (await history(c)).filter((h) => names.includes(h.Name)).length
  return queued + past
}

/** Add, "Select files", picks the NZB, Submit; the Downloads tab's count goes up by one. */
export const uploadNzb: Workflow = {
  id: 'upload_nzb',
  intent: 'add the NZB file Valkaama 2010 720p WEB-DL.nzb to NZBGet',
  rewordings: {
    terse: 'upload Valkaama 2010 720p WEB-DL.nzb',
    chatty:
      'I just grabbed Valkaama 2010 720p WEB-DL.nzb from my indexer, can you add that file to NZBGet so it starts downloading?',
    withoutValue: 'upload an .nzb file to NZBGet',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openSignedIn(page, app)
    const before = Number(await page.locator('#DownloadsTabBadge').textContent())
    await page.locator('#TBAddButton').getByRole('button', { name: 'Add' }).click()
    const dialog = page.locator('#AddDialog')
    await dialog.getByText('Add NZB-Files to Download Queue').waitFor()
    const chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('link', { name: 'Select files' }).click()
    await (
      await chooser
    ).setFiles({
      name: `${UPLOAD_NAME}.nzb`,
      mimeType: 'application/x-nzb',
      buffer: Buffer.from(UPLOAD_NZB),
    })
    await dialog.getByText(`${UPLOAD_NAME} nzb`).waitFor()
    await dialog.getByRole('link', { name: 'Submit' }).click()
    await dialog.waitFor({ state: 'hidden' })
    // The new download goes to the end of the queue (another page): the tab's count shows it.
    await page.locator('#DownloadsTabBadge', { hasText: new RegExp(`^${before + 1}$`) }).waitFor()
  },
  key: {
    target: rpcTarget('append'),
    inputs: [],
    dependencies: [],
    mutating: true,
    file: OTHER_UPLOAD_NZB,
    async replayByHand(app, session) {
      const c = { fetch: app.fetch, session }
      const id = await call(
        c,
        'append',
        appendParams(OTHER_UPLOAD_NAME, OTHER_UPLOAD_NZB, '', 0, false),
      )
      if (typeof id !== 'number' || id <= 0) throw new Error(`append answered ${String(id)}`)
      mustPass(await uploadNzb.key.check(app, { status: 'succeeded', result: id }, session, []))
    },
    async check(app, _run, session) {
      const before = uploadsSeen.get(app) ?? 0
      const count = await poll(async () => {
        const n = await uploadCount(app, session)
        return n > before ? n : null
      })
      if (count === null)
        return `no download of an uploaded file was added (${before} of them were there before)`
      uploadsSeen.set(app, count)
      return null
    },
  },
}
