/**
 * Workflows on the admin's Posts list (/wp-admin/edit.php), signed in: filtering by category,
 * renaming with Quick Edit (admin-ajax.php, action=inline-save) and moving a post to the Trash.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, Workflow } from '../types'
import { form, grab, mustPass, readPage } from './keys'
import { CATEGORIES, POSTS, seedPost } from './seed'

const category = (id: number) => {
  const found = CATEGORIES.find((c) => c.id === id)
  if (!found) throw new Error(`no seeded category ${id}`)
  return found
}

/**
 * Post titles of an admin list page, raw HTML or the engine's page view (`{title, text, links}`).
 * HTML: each row's hidden Quick Edit data (`<div class="post_title">`), since the Trash view
 * shows titles without links. Page view: the links to a post's editor whose text is not "Edit".
 */
export function listedTitles(page: unknown): string[] {
  if (typeof page === 'string')
    return [...page.matchAll(/<div class="post_title">([^<]*)<\/div>/g)].map((m) => m[1] ?? '')
  const links = (page as { links?: unknown } | null)?.links
  if (!Array.isArray(links)) return []
  return links
    .filter((l): l is { text: string; href: string } => typeof l?.text === 'string')
    .filter((l) => /post\.php\?post=\d+&action=edit/.test(String(l.href)) && l.text !== 'Edit')
    .map((l) => l.text.trim())
}

/** A post's title link in the list (its accessible name is `“Title” (Edit)`). */
function titleLink(page: Page, title: string) {
  return page.locator('#the-list a.row-title', { hasText: title })
}

/** The row of a post in the list: Quick Edit and Trash show only when it is hovered. */
function row(page: Page, title: string) {
  return page.locator('#the-list tr').filter({ has: page.getByRole('link', { name: title }) })
}

const FILTER = { recorded: 4, changed: [3, 2] as [number, number] }

/** Picks a category in the list's "All Categories" menu and presses Filter. */
export const filterByCategory: Workflow = {
  id: 'filter_posts_by_category',
  intent: `list the posts in the category ${category(FILTER.recorded).name}`,
  rewordings: {
    terse: `${category(FILTER.recorded).name} posts`,
    chatty: `Can you show me all the blog posts I've filed under ${category(FILTER.recorded).name}?`,
    withoutValue: 'list the posts of one category',
  },
  startPath: '/wp-admin/edit.php',
  signedIn: true,
  async play(page) {
    await page.locator('#cat').selectOption({ label: category(FILTER.recorded).name })
    await page.getByRole('button', { name: 'Filter', exact: true }).click()
    await page.waitForURL(/cat=4/)
    await titleLink(page, seedPost(22).title).waitFor()
    await titleLink(page, seedPost(21).title).waitFor({ state: 'detached' })
  },
  key: {
    // The filter form is a GET of the list; WordPress first answers it with a 302 that drops the
    // form's _wpnonce and _wp_http_referer, and the list is the redirected GET.
    target: { method: 'GET', path: '/wp-admin/edit.php' },
    inputs: [{ recorded: FILTER.recorded, changed: FILTER.changed }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const cat = FILTER.changed[0]
      const { status, text } = await readPage(
        app,
        `/wp-admin/edit.php?post_status=all&post_type=post&cat=${cat}&filter_action=Filter`,
        session,
      )
      mustPass(await this.check(app, { status: String(status), result: text }, session, [cat]))
    },
    async check(_app, run, _session, used) {
      const cat = Number(used[0])
      const listed = listedTitles(run.result)
      // Titles may have been renamed or trashed by other workflows: compare on what is left.
      const inside = POSTS.filter((p) => p.category === cat).map((p) => p.title)
      const outside = POSTS.filter((p) => p.category !== cat).map((p) => p.title)
      if (!inside.some((t) => listed.includes(t)))
        return `the list holds none of the ${category(cat).name} posts`
      const stray = listed.find((t) => outside.includes(t))
      if (stray) return `the list holds "${stray}", which is not in ${category(cat).name}`
      return null
    },
  },
}

const RENAME = {
  post: seedPost(17),
  recorded: 'Weekly Roundup',
  changed: ['Weekly Digest', 'Weekly Allotment Notes'] as [string, string],
}

/** The title of a post as the public REST API gives it. */
async function publicTitle(app: AppInstance, id: number): Promise<string> {
  const { status, text } = await readPage(app, `/wp-json/wp/v2/posts/${id}`)
  if (status !== 200) return `(status ${status})`
  const body = JSON.parse(text) as { title?: { rendered?: string } }
  return body.title?.rendered ?? ''
}

/** Opens Quick Edit on a post's row, replaces the title and presses Update. */
export const renamePost: Workflow = {
  id: 'rename_post',
  intent: `rename the post ${RENAME.post.title} to ${RENAME.recorded}`,
  rewordings: {
    terse: `retitle ${RENAME.post.title} -> ${RENAME.recorded}`,
    chatty: `Hey, the post "${RENAME.post.title}" should really be called "${RENAME.recorded}", could you change its title?`,
    withoutValue: `give the post ${RENAME.post.title} a new title`,
  },
  startPath: '/wp-admin/edit.php',
  signedIn: true,
  async play(page) {
    const line = row(page, RENAME.post.title)
    await line.hover()
    await line.getByRole('button', { name: `Quick edit “${RENAME.post.title}” inline` }).click()
    const editor = page.locator('#the-list tr.inline-editor')
    const title = editor.locator('input[name="post_title"]')
    await title.waitFor()
    await title.fill('')
    await title.pressSequentially(RENAME.recorded, { delay: 40 })
    await editor.getByRole('button', { name: 'Update' }).click()
    await titleLink(page, RENAME.recorded).waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/wp-admin/admin-ajax.php',
      operation: { field: 'action', value: 'inline-save' },
    },
    inputs: [{ recorded: RENAME.recorded, changed: RENAME.changed }],
    // The _inline_edit nonce is a hidden field of the Posts list page.
    dependencies: [{ method: 'GET', path: '/wp-admin/edit.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const list = await readPage(app, '/wp-admin/edit.php', session)
      const nonce = grab(list.text, /name="_inline_edit" value="([0-9a-f]+)"/, '_inline_edit')
      const title = RENAME.changed[0]
      const p = RENAME.post
      const res = await app.fetch('/wp-admin/admin-ajax.php', {
        session,
        ...form({
          action: 'inline-save',
          _inline_edit: nonce,
          post_ID: String(p.id),
          post_type: 'post',
          screen: 'edit-post',
          post_view: 'list',
          post_title: title,
          post_name: p.slug,
          post_author: '1',
          _status: 'publish',
          'post_category[]': String(p.category),
          comment_status: 'open',
          ping_status: 'open',
          jj: p.date.slice(8, 10),
          mm: p.date.slice(5, 7),
          aa: p.date.slice(0, 4),
          hh: p.date.slice(11, 13),
          mn: p.date.slice(14, 16),
          ss: p.date.slice(17, 19),
        }),
      })
      const text = await res.text()
      mustPass(
        await this.check(app, { status: String(res.status), result: text }, session, [title]),
      )
    },
    async check(app, _run, _session, used) {
      const wanted = String(used[0])
      const title = await publicTitle(app, RENAME.post.id)
      return title === wanted
        ? null
        : `post ${RENAME.post.id} is titled "${title}", not "${wanted}"`
    },
  },
}

const TRASH = { post: seedPost(18), changed: [19, 20] as [number, number] }

/** Titles in the Trash view of the Posts list. */
async function trashedTitles(app: AppInstance, session: Parameters<typeof readPage>[2]) {
  const { text } = await readPage(
    app,
    '/wp-admin/edit.php?post_status=trash&post_type=post',
    session,
  )
  return listedTitles(text)
}

/** Hovers a post's row and clicks its Trash link; waits for the "moved to the Trash" notice. */
export const trashPost: Workflow = {
  id: 'trash_post',
  intent: `move the post ${TRASH.post.title} to the trash`,
  rewordings: {
    terse: `trash ${TRASH.post.title}`,
    chatty: `The post "${TRASH.post.title}" is out of date, could you throw it in the bin for me?`,
    withoutValue: 'delete a blog post',
  },
  startPath: '/wp-admin/edit.php',
  signedIn: true,
  async play(page) {
    const line = row(page, TRASH.post.title)
    await line.hover()
    await line.getByRole('link', { name: `Move “${TRASH.post.title}” to the Trash` }).click()
    await page.getByText('1 post moved to the Trash.').waitFor()
  },
  key: {
    // A plain link: GET post.php?post=ID&action=trash&_wpnonce=..., answered with a 302 back to
    // the list. The nonce is per post ("trash-post_ID"), so it is read from the list page.
    target: {
      method: 'GET',
      path: '/wp-admin/post.php',
      operation: { field: 'action', value: 'trash' },
    },
    inputs: [{ recorded: TRASH.post.id, changed: TRASH.changed }],
    dependencies: [{ method: 'GET', path: '/wp-admin/edit.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const id = TRASH.changed[0]
      const list = await readPage(app, '/wp-admin/edit.php', session)
      const nonce = grab(
        list.text,
        new RegExp(`post\\.php\\?post=${id}&amp;action=trash&amp;_wpnonce=([0-9a-f]+)`),
        `trash nonce of post ${id}`,
      )
      const res = await app.fetch(`/wp-admin/post.php?post=${id}&action=trash&_wpnonce=${nonce}`, {
        session,
      })
      await res.arrayBuffer()
      mustPass(await this.check(app, { status: String(res.status), result: '' }, session, [id]))
    },
    async check(app, _run, session, used) {
      const post = seedPost(Number(used[0]))
      const trashed = await trashedTitles(app, session)
      return trashed.includes(post.title) ? null : `"${post.title}" is not in the Trash`
    },
  },
}
