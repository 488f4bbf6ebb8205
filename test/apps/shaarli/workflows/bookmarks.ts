/**
 * Shaarli workflows that write bookmarks. Creating and editing both post the shaare form to
 * `POST /admin/shaare` (every field: `lf_url`, `lf_title`, `lf_description`, `lf_tags`, an edit's
 * `lf_id`, and the form's one-time `token`; Shaarli forgets a token once checked). A new bookmark
 * starts with `GET /admin/shaare?post=<url>`, which renders the form. Deleting is a GET link in
 * the row, `/admin/shaare/delete?id=<id>&token=<token of the list page>`, behind a confirm().
 */
import type { Workflow } from '../../types'
import {
  allBookmarks,
  bookmarkById,
  EDIT_FORM,
  getPage,
  LIST,
  mustPass,
  postForm,
  rowId,
  SAVE,
  saveEdited,
  tokenOf,
} from '../keys'
import { openEditor, row, saveShaare, signInFromHeader } from '../person'
import { bookmarkTitled } from '../seed'

/** The bookmark the person adds, and what the working-tools runs add instead. */
const NEW = {
  url: 'https://htmx.org/docs/',
  title: 'htmx documentation',
  description: 'Attributes, events and the JavaScript API.',
  tags: 'web frontend',
}

/**
 * "Shaare" in the header, types the URL, "Add link"; in the shaare form types the title, the
 * description and the tags, and saves; waits for the new row in the list.
 */
export const addBookmark: Workflow = {
  id: 'add_bookmark',
  intent: `bookmark ${NEW.url} with the title "${NEW.title}", the description "${NEW.description}" and the tags ${NEW.tags}`,
  rewordings: {
    terse: `save ${NEW.url}: "${NEW.title}", "${NEW.description}", tags ${NEW.tags}`,
    chatty: `Hey, could you add ${NEW.url} to my Shaarli? Call it "${NEW.title}", describe it as "${NEW.description}" and tag it ${NEW.tags}.`,
    withoutValue: 'add a bookmark with a title, description and tags',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#shaarli-menu-shaare').click()
    await page.waitForURL(/\/admin\/add-shaare/)
    await page.locator('input[name=post]').fill(NEW.url)
    await page.getByRole('button', { name: 'Add link' }).click()
    await page.waitForURL(/\/admin\/shaare\?post=/)
    await page.locator('#lf_title').fill(NEW.title)
    await page.locator('#lf_description').fill(NEW.description)
    await page.locator('#lf_tags').fill(NEW.tags)
    await saveShaare(page)
    await row(page, NEW.title).waitFor()
  },
  key: {
    target: SAVE,
    inputs: [
      { recorded: NEW.url, changed: ['https://alpinejs.dev/start-here', 'https://hotwired.dev/'] },
      { recorded: NEW.title, changed: ['Alpine.js: start here', 'Hotwire'] },
      {
        recorded: NEW.description,
        changed: [
          'Reactive behaviour in the markup, from one script tag.',
          'HTML over the wire with Turbo and Stimulus.',
        ],
      },
      { recorded: NEW.tags, changed: ['frontend alpine', 'frontend rails'] },
    ],
    // The form that `?post=<url>` renders holds the token the save must send.
    dependencies: [{ method: 'GET', path: '/admin/shaare' }],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const [url, title, description, tags] = used as [string, string, string, string]
      const form = await getPage(app, session, `/admin/shaare?post=${encodeURIComponent(url)}`)
      const res = await postForm(app, session, '/admin/shaare', {
        lf_url: url,
        lf_title: title,
        lf_description: description,
        lf_tags: tags,
        save_edit: 'Save',
        token: tokenOf(form, 'the shaare form'),
        source: '',
        returnurl: `${app.origin}/admin/add-shaare`,
      })
      if (res.status !== 302) throw new Error(`POST /admin/shaare answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const [url, title, description, tags] = used.map(String) as [string, string, string, string]
      const all = await allBookmarks(app)
      const found = all.filter((x) => x.url === url)
      if (found.length !== 1) return `${found.length} bookmarks have the URL ${url}`
      const got = found[0]!
      if (got.title !== title) return `the new bookmark is titled "${got.title}", not "${title}"`
      if (got.description !== description)
        return `the new bookmark's description is "${got.description}"`
      if (got.tags.join(' ') !== tags) return `the new bookmark's tags are "${got.tags.join(' ')}"`
      if (got.private) return 'the new bookmark is private'
      if (url !== NEW.url && all.some((x) => x.url === NEW.url))
        return `the recorded bookmark ${NEW.url} was created too`
      return null
    },
  },
}

/** The bookmark the person renames, picked in the list by its title, and its new title. */
const RENAMED = { from: 'Rust by Example', to: 'Rust by Example (2024 edition)' }

/**
 * A write to a seeded bookmark picked by title: the check finds it by its seeded id and
 * compares; the recorded bookmark must be as seeded when another one was asked for.
 */
async function seededChanged(
  app: Parameters<Workflow['key']['check']>[0],
  pickedTitle: string,
  recordedTitle: string,
  expect: { title?: string; tags?: string },
): Promise<string | null> {
  const seeded = bookmarkTitled(pickedTitle)
  const got = await bookmarkById(app, seeded.id)
  if (!got) return `the bookmark ${seeded.id} ("${pickedTitle}") is gone`
  const title = expect.title ?? seeded.title
  const tags = expect.tags ?? seeded.tags.join(' ')
  if (got.title !== title)
    return `the bookmark ${seeded.id} is titled "${got.title}", not "${title}"`
  if (got.tags.join(' ') !== tags)
    return `the bookmark ${seeded.id} has the tags "${got.tags.join(' ')}", not "${tags}"`
  if (got.url !== seeded.url) return `the bookmark ${seeded.id}'s URL became ${got.url}`
  if (got.description !== seeded.description)
    return `the bookmark ${seeded.id}'s description changed`
  const all = await allBookmarks(app)
  if (all.filter((x) => x.url === seeded.url).length !== 1)
    return `the save created another bookmark for ${seeded.url}`
  if (pickedTitle !== recordedTitle) {
    const recorded = bookmarkTitled(recordedTitle)
    const other = await bookmarkById(app, recorded.id)
    if (other?.title !== recorded.title || other.tags.join(' ') !== recorded.tags.join(' '))
      return `the recorded bookmark "${recordedTitle}" was changed instead`
  }
  return null
}

/** Finds the row's id in the list page, as the person's click on its pencil does. */
async function idFromList(
  app: Parameters<Workflow['key']['check']>[0],
  session: Parameters<Workflow['key']['check']>[2],
  title: string,
): Promise<number> {
  const id = rowId(await getPage(app, session, '/'), title)
  if (id === null) throw new Error(`the list has no row titled "${title}"`)
  return id
}

/** Clicks the pencil of the row "Rust by Example", types the new title and applies the change. */
export const editTitle: Workflow = {
  id: 'edit_title',
  intent: `rename the bookmark "${RENAMED.from}" to "${RENAMED.to}"`,
  rewordings: {
    terse: `"${RENAMED.from}" → "${RENAMED.to}"`,
    chatty: `My bookmark called "${RENAMED.from}" needs a better name, can you change its title to "${RENAMED.to}"?`,
    withoutValue: 'change the title of one of my bookmarks',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openEditor(page, RENAMED.from)
    await page.locator('#lf_title').fill(RENAMED.to)
    await saveShaare(page)
    await row(page, RENAMED.to).waitFor()
  },
  key: {
    target: SAVE,
    inputs: [
      { recorded: RENAMED.from, changed: ['Vim Cheat Sheet', 'regex101'] },
      {
        recorded: RENAMED.to,
        changed: ['Vim cheat sheet: motions and macros', 'regex101: online regex tester'],
      },
    ],
    // The row's id comes from the list; the edit form holds the token and the other fields.
    dependencies: [LIST, EDIT_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const id = await idFromList(app, session, used[0]!)
      await saveEdited(app, session, id, { lf_title: used[1]! })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const [picked, title] = used.map(String) as [string, string]
      return seededChanged(app, picked, RENAMED.from, { title })
    },
  },
}

/** The bookmark the person deletes, picked in the list by its title. */
const DELETED = 'Old company wiki'

/** Clicks the trash icon of the row "Old company wiki", confirms, waits until the row is gone. */
export const deleteBookmark: Workflow = {
  id: 'delete_bookmark',
  intent: `delete the bookmark "${DELETED}"`,
  rewordings: {
    terse: `delete "${DELETED}"`,
    chatty: `The "${DELETED}" link is dead since we moved, could you remove that bookmark for me?`,
    withoutValue: 'delete one of my bookmarks',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    page.once('dialog', (dialog) => void dialog.accept())
    await row(page, DELETED).locator('a.delete-link:visible').first().click()
    await page.waitForURL((url) => url.pathname === '/')
    await row(page, DELETED).waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'GET', path: '/admin/shaare/delete' },
    inputs: [{ recorded: DELETED, changed: ['GeoCities archive', 'Flash games archive'] }],
    // The list page holds both the row's id and the token of its delete links.
    dependencies: [LIST],
    mutating: true,
    async replayByHand(app, session) {
      const title = String(this.inputs[0]!.changed[0])
      const html = await getPage(app, session, '/')
      const id = rowId(html, title)
      if (id === null) throw new Error(`the list has no row titled "${title}"`)
      const token = tokenOf(html, 'the list')
      const res = await app.fetch(`/admin/shaare/delete?id=${id}&token=${token}`, { session })
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`the delete answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [title]))
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      const seeded = bookmarkTitled(title)
      if (await bookmarkById(app, seeded.id)) return `the bookmark "${title}" still exists`
      if (title !== DELETED && !(await bookmarkById(app, bookmarkTitled(DELETED).id)))
        return `the recorded bookmark "${DELETED}" was deleted instead`
      return null
    },
  },
}

/** The bookmark whose tags the person replaces after signing in, and the new tags. */
const RETAGGED = { title: 'Hacker News', tags: 'news daily' }

/**
 * Signed out on the list: signs in with the header's Login, clicks the pencil of the row
 * "Hacker News", replaces its tags and applies the change.
 */
export const signInAndRetag: Workflow = {
  id: 'sign_in_and_retag',
  intent: `sign in and change the tags of the bookmark "${RETAGGED.title}" to ${RETAGGED.tags}`,
  rewordings: {
    terse: `tags of "${RETAGGED.title}": ${RETAGGED.tags}`,
    chatty: `Please log into my Shaarli and retag "${RETAGGED.title}" so its tags are just ${RETAGGED.tags}.`,
    withoutValue: 'change the tags of a bookmark',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromHeader(page, app)
    await openEditor(page, RETAGGED.title)
    await page.locator('#lf_tags').fill(RETAGGED.tags)
    await saveShaare(page)
    await row(page, RETAGGED.title).getByRole('link', { name: 'daily', exact: true }).waitFor()
  },
  key: {
    target: SAVE,
    inputs: [
      { recorded: RETAGGED.title, changed: ['Lobsters', 'LWN.net'] },
      { recorded: RETAGGED.tags, changed: ['news weekly', 'linux kernel'] },
    ],
    dependencies: [LIST, EDIT_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const id = await idFromList(app, session, used[0]!)
      await saveEdited(app, session, id, { lf_tags: used[1]! })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const [picked, tags] = used.map(String) as [string, string]
      return seededChanged(app, picked, RETAGGED.title, { tags })
    },
  },
}
