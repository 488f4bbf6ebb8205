/**
 * Workflows that create things, signed in: a draft from the dashboard's Quick Draft box (a form
 * POST to post.php, action=post-quickdraft-save) and an image through Media > Add New (plupload's
 * multipart POST to async-upload.php).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, Workflow } from '../types'
import { form, grab, mentions, mustPass, readPage } from './keys'
import { listedTitles } from './posts'

const DRAFT = {
  title: { recorded: 'Seed order for autumn', changed: ['Bulb order for spring', 'Compost rota'] },
  content: {
    recorded: 'Onion sets, garlic and broad beans.',
    changed: ['Tulips, alliums and crocus.', 'Turn the heaps every second Sunday.'],
  },
} as const

/** Titles in the Drafts view of the Posts list. */
async function draftTitles(app: AppInstance, session: StorageState): Promise<string[]> {
  const { text } = await readPage(
    app,
    '/wp-admin/edit.php?post_status=draft&post_type=post',
    session,
  )
  return listedTitles(text)
}

/** Fills the dashboard's Quick Draft box and presses Save Draft; waits for it under Your Drafts. */
export const quickDraft: Workflow = {
  id: 'create_draft',
  intent: `write a draft post titled ${DRAFT.title.recorded} saying "${DRAFT.content.recorded}"`,
  rewordings: {
    terse: `new draft: ${DRAFT.title.recorded}`,
    chatty: `Can you jot down a draft blog post for me? Call it "${DRAFT.title.recorded}" and put "${DRAFT.content.recorded}" in it.`,
    withoutValue: 'save a new draft post with a title and some text',
  },
  startPath: '/wp-admin/',
  signedIn: true,
  async play(page) {
    const box = page.locator('#quick-press')
    await box.getByLabel('Title').click()
    await box.getByLabel('Title').pressSequentially(DRAFT.title.recorded, { delay: 30 })
    await box.getByLabel('Content').click()
    await box.getByLabel('Content').pressSequentially(DRAFT.content.recorded, { delay: 20 })
    await box.getByRole('button', { name: 'Save Draft' }).click()
    await page
      .locator('.drafts')
      .getByRole('link', { name: `Edit “${DRAFT.title.recorded}”` })
      .waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/wp-admin/post.php',
      operation: { field: 'action', value: 'post-quickdraft-save' },
    },
    inputs: [
      { recorded: DRAFT.title.recorded, changed: [...DRAFT.title.changed] },
      { recorded: DRAFT.content.recorded, changed: [...DRAFT.content.changed] },
    ],
    // The form's _wpnonce ("add-post") and its post_ID, an auto-draft the dashboard creates on
    // each load, both come from the dashboard page.
    dependencies: [{ method: 'GET', path: '/wp-admin/' }],
    mutating: true,
    async replayByHand(app, session) {
      const dashboard = await readPage(app, '/wp-admin/', session)
      const quick = grab(
        dashboard.text,
        /(<form[^>]*id="quick-press"[\s\S]*?<\/form>)/,
        'Quick Draft',
      )
      const title = DRAFT.title.changed[0]
      const content = DRAFT.content.changed[0]
      const res = await app.fetch('/wp-admin/post.php', {
        session,
        ...form({
          post_title: title,
          content,
          action: 'post-quickdraft-save',
          post_ID: grab(quick, /name="post_ID" value="(\d+)"/, 'post_ID'),
          post_type: 'post',
          _wpnonce: grab(quick, /name="_wpnonce" value="([0-9a-f]+)"/, '_wpnonce'),
          _wp_http_referer: '/wp-admin/',
        }),
      })
      const text = await res.text()
      mustPass(
        await this.check(app, { status: String(res.status), result: text }, session, [
          title,
          content,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const title = String(used[0])
      const drafts = await draftTitles(app, session)
      return drafts.includes(title) ? null : `no draft titled "${title}"`
    },
  },
}

/** A 1×1 PNG: small enough that WordPress makes no resized copies. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
const UPLOAD = {
  recorded: 'plot-7-map.png',
  changed: ['bed-layout.png', 'greenhouse-plan.png'] as [string, string],
}

/** The media library's items whose title matches `search`, through the public REST API. */
async function mediaTitles(app: AppInstance, search: string): Promise<string[]> {
  const { text } = await readPage(app, `/wp-json/wp/v2/media?search=${encodeURIComponent(search)}`)
  const items = JSON.parse(text) as Array<{ title?: { rendered?: string } }>
  return items.map((item) => item.title?.rendered ?? '')
}

/** Picks a file with Media > Add New's "Select Files" button and waits until it is uploaded. */
export const uploadMedia: Workflow = {
  id: 'upload_media',
  intent: `upload the image ${UPLOAD.recorded} to the media library`,
  rewordings: {
    terse: `upload ${UPLOAD.recorded}`,
    chatty: `I've got a picture called ${UPLOAD.recorded}, could you put it into the blog's media library?`,
    withoutValue: 'upload an image to the media library',
  },
  startPath: '/wp-admin/media-new.php',
  signedIn: true,
  async play(page) {
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Select Files' }).click()
    await (await chooser).setFiles({ name: UPLOAD.recorded, mimeType: 'image/png', buffer: PNG })
    // Once stored, the item offers its URL to copy and an Edit link.
    await page
      .locator('#media-items')
      .getByRole('button', { name: 'Copy URL to clipboard' })
      .waitFor()
  },
  key: {
    // plupload's multipart POST (fields name, post_id, _wpnonce, type, tab, short=1 and the file
    // as async-upload), answered with the new attachment's id. The page then POSTs the same path
    // again (attachment_id=..&fetch=3) for the item's HTML. No operation field tells them apart
    // here: Chromium hands no body for a request whose FormData holds a file, so neither the
    // recorder nor a HAR has the upload's fields to match on.
    target: { method: 'POST', path: '/wp-admin/async-upload.php' },
    inputs: [{ recorded: UPLOAD.recorded, changed: UPLOAD.changed }],
    // The upload's _wpnonce is in the inline script `wpUploaderInit = {...multipart_params...}`.
    dependencies: [{ method: 'GET', path: '/wp-admin/media-new.php' }],
    mutating: true,
    file: PNG,
    async replayByHand(app, session) {
      const page = await readPage(app, '/wp-admin/media-new.php', session)
      const nonce = grab(page.text, /"multipart_params":\{[^}]*"_wpnonce":"([0-9a-f]+)"/, 'nonce')
      const name = UPLOAD.changed[0]
      const body = new FormData()
      body.set('name', name)
      body.set('post_id', '0')
      body.set('_wpnonce', nonce)
      body.set('type', '')
      body.set('tab', '')
      body.set('short', '1')
      body.set('async-upload', new Blob([PNG], { type: 'image/png' }), name)
      const res = await app.fetch('/wp-admin/async-upload.php', { method: 'POST', body, session })
      const text = await res.text()
      mustPass(await this.check(app, { status: String(res.status), result: text }, session, [name]))
    },
    async check(app, _run, _session, used) {
      const title = String(used[0]).replace(/\.[a-z]+$/, '')
      const found = await mediaTitles(app, title)
      return found.some((t) => mentions(t, title)) ? null : `no media item titled ${title}`
    },
  },
}
