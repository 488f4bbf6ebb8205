/**
 * Uploading a file: "Upload a file" in the sidebar opens `/_upload`, a multipart form with the
 * file, `wikiname` (the name on the wiki, which the page's script fills with the picked file's
 * name), the `overwrite` box and `logMsg`; Upload posts it back to `/_upload`, which commits the
 * file to the repository and answers 200 "Upload successful".
 */
import type { Workflow } from '../../types'
import { committedFile, mustPass } from '../keys'
import { FLOOR_PLAN_PNG, OTHER_PNG } from '../seed'

/** Opens "Upload a file", picks floor-plan.png, types a description, Upload. */
export const uploadFile: Workflow = {
  id: 'upload_file',
  intent: 'upload the image floor-plan.png to the wiki',
  rewordings: {
    terse: 'upload floor-plan.png',
    chatty: "I've got the new office floor plan as floor-plan.png, could you put it on the wiki?",
    withoutValue: 'upload a file to the wiki',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('.sitenav').getByRole('link', { name: 'Upload a file' }).click()
    await page.waitForURL(/\/_upload$/)
    await page.locator('#file').setInputFiles({
      name: 'floor-plan.png',
      mimeType: 'image/png',
      buffer: FLOOR_PLAN_PNG,
    })
    await page.locator('#logMsg').fill('Office floor plan')
    await page.locator('#upload').click()
    await page.locator('h1.pageTitle', { hasText: 'Upload successful' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/_upload' },
    inputs: [{ recorded: 'floor-plan.png', changed: ['seating-chart.png', 'fire-exits.png'] }],
    dependencies: [],
    mutating: true,
    file: OTHER_PNG,
    async replayByHand(app, session) {
      const name = 'seating-chart.png'
      const form = new FormData()
      form.append('file', new Blob([OTHER_PNG], { type: 'image/png' }), name)
      form.append('wikiname', name)
      form.append('logMsg', 'Seating chart')
      form.append('upload', 'Upload')
      const res = await app.fetch('/_upload', { method: 'POST', session, body: form })
      const html = await res.text()
      if (!html.includes('Upload successful')) throw new Error(`the upload answered ${res.status}`)
      mustPass(
        await uploadFile.key.check(app, { status: 'succeeded', result: html }, session, [name]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      const bytes = await committedFile(app, name)
      if (bytes === null) return `the wiki holds no file ${name}`
      if (!bytes.equals(OTHER_PNG) && !bytes.equals(FLOOR_PLAN_PNG))
        return `${name} holds ${bytes.length} bytes that are not the uploaded image`
      if ((await committedFile(app, 'floor-plan.png')) !== null)
        return 'the recorded floor-plan.png was uploaded'
      return null
    },
  },
}
