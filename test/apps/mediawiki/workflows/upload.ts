/** The upload workflow: a picture through Special:Upload (a multipart form post). */
import type { Workflow } from '../../types'
import { getPage, pageInfo, postForm, rawText } from '../http'
import { hiddenField } from '../session'

/** A 1×1 PNG: the file the person picks from their disk. */
const PICTURE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

/** A 2×1 PNG: the file a tool compiled from the plain HAR (which keeps no bytes) uploads. */
const OTHER_PICTURE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR42mP8z8DwnwEIGGEMAB3+Av9xXG8FAAAAAElFTkSuQmCC',
  'base64',
)

/** A write's check: File:`name` exists and its description page holds `description`. */
async function fileHolds(
  app: Parameters<Workflow['play']>[1],
  name: string,
  description: string,
): Promise<string | null> {
  if ((await pageInfo(app, `File:${name}`)).missing) return `no file ${name}`
  const text = await rawText(app, `File:${name}`)
  return text?.includes(description) ? null : `File:${name} lacks the description "${description}"`
}

/**
 * Opens "Upload file" in the sidebar, picks the picture (its name fills the destination field),
 * types a description, ticks "Ignore any warnings" (the same picture under another name would
 * otherwise stop on a duplicate warning) and uploads.
 */
export const uploadFile: Workflow = {
  id: 'upload_file',
  intent: 'upload the picture Sunset.png with the description "A sunset over the bay"',
  rewordings: {
    terse: 'upload Sunset.png, description: A sunset over the bay',
    chatty: 'can you put my picture Sunset.png on the wiki? describe it as "A sunset over the bay"',
    withoutValue: 'upload a picture to the wiki with a description',
  },
  startPath: '/index.php/Main_Page',
  signedIn: true,
  async play(page) {
    await page.waitForLoadState('load')
    await page.locator('#t-upload a').click()
    await page
      .locator('#wpUploadFile')
      .setInputFiles({ name: 'Sunset.png', mimeType: 'image/png', buffer: PICTURE })
    const description = page.locator('#wpUploadDescription')
    await description.click()
    await description.pressSequentially('A sunset over the bay', { delay: 25 })
    await page.locator('#wpIgnoreWarning').check()
    await page.locator('input[name="wpUpload"]').click()
    await page.locator('#firstHeading', { hasText: 'File:Sunset.png' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/index.php/Special:Upload' },
    inputs: [
      { recorded: 'Sunset.png', changed: ['Harbor.png', 'Meadow.png'] },
      { recorded: 'A sunset over the bay', changed: ['Harbor at dawn', 'Meadow in spring'] },
    ],
    // The upload form holds the session's wpEditToken.
    dependencies: [{ method: 'GET', path: '/index.php/Special:Upload' }],
    mutating: true,
    // Another picture than the recorded one: the recording's run uploads that one first, and
    // MediaWiki asks before it takes a duplicate (the HAR does not say "ignore warnings").
    file: OTHER_PICTURE,
    async replayByHand(app, session) {
      const [name, description] = ['Harbor.png', 'Harbor at dawn']
      const form = await getPage(app, '/index.php/Special:Upload', session)
      const body = new FormData()
      body.append('wpUploadFile', new Blob([PICTURE], { type: 'image/png' }), name)
      body.append('wpDestFile', name)
      body.append('wpUploadDescription', description)
      body.append('wpLicense', '')
      body.append('wpWatchthis', '1')
      body.append('wpIgnoreWarning', '1')
      body.append('wpEditToken', hiddenField(form, 'wpEditToken'))
      body.append('title', 'Special:Upload')
      body.append('wpDestFileWarningAck', '')
      body.append('wpUpload', 'Upload file')
      const res = await postForm(app, '/index.php/Special:Upload', session, body)
      if (res.status !== 302) throw new Error(`the upload was refused (HTTP ${res.status})`)
      const problem = await this.check(app, { status: 'succeeded', result: null }, session, [
        name,
        description,
      ])
      if (problem) throw new Error(problem)
    },
    async check(app, _run, _session, used) {
      return fileHolds(app, String(used[0]), String(used[1]))
    },
  },
}
