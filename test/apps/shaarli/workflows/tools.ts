/**
 * Shaarli workflows on the Tools page, each a classic form with a one-time `token`:
 * - Manage tags: `POST /admin/tags` with `fromtag`, `totag`, `renametag` (the same form deletes
 *   with `deletetag`), answered with a redirect to the renamed tag's list;
 * - Configure your Shaarli: `POST /admin/configure` posts every setting of the page (title,
 *   timezone as continent and city, API secret, checkboxes...), not only the changed one;
 * - Import links: a multipart `POST /admin/import` with the Netscape bookmarks file in
 *   `filetoupload`, the privacy choice, `overwrite` and `default_tags` for every imported row.
 */
import type { Workflow } from '../../types'
import {
  allBookmarks,
  apiGet,
  getPage,
  mustPass,
  postForm,
  settings,
  tokenOf,
  type ApiBookmark,
} from '../keys'
import { openTool, row } from '../person'
import { BOOKMARKS, TIMEZONE } from '../seed'

/** The tag the person renames, and its new name. */
const TAG = { from: 'js', to: 'javascript' }

/** Tools, "Manage tags", types the tag and its new name, "Rename tag"; waits for the list. */
export const renameTag: Workflow = {
  id: 'rename_tag',
  intent: `rename the tag ${TAG.from} to ${TAG.to} on all my bookmarks`,
  rewordings: {
    terse: `tag ${TAG.from} → ${TAG.to}`,
    chatty: `I'd rather spell it out: could you rename my "${TAG.from}" tag to "${TAG.to}" everywhere?`,
    withoutValue: 'rename one of my tags',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openTool(page, 'Manage tags')
    await page.waitForURL(/\/admin\/tags/)
    await page.locator('input[name=fromtag]').fill(TAG.from)
    await page.locator('input[name=totag]').fill(TAG.to)
    await page.getByRole('button', { name: 'Rename tag' }).click()
    await page.waitForURL(/searchtags=javascript/)
    await row(page, 'MDN Web Docs: JavaScript').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/admin/tags',
      operation: { field: 'renametag', value: 'Rename tag' },
    },
    inputs: [
      { recorded: TAG.from, changed: ['golang', 'ml'] },
      { recorded: TAG.to, changed: ['go', 'machine-learning'] },
    ],
    dependencies: [{ method: 'GET', path: '/admin/tags' }],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const form = await getPage(app, session, '/admin/tags')
      const res = await postForm(app, session, '/admin/tags', {
        fromtag: used[0]!,
        totag: used[1]!,
        token: tokenOf(form, 'the tag form'),
        renametag: 'Rename tag',
      })
      if (res.status !== 302) throw new Error(`POST /admin/tags answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const [from, to] = used.map(String) as [string, string]
      const all = await allBookmarks(app)
      const still = all.filter((x) => x.tags.includes(from))
      if (still.length) return `${still.length} bookmarks still have the tag ${from}`
      const carriers = all.filter((x) => x.tags.includes(to)).map((x) => x.id)
      const seeded = BOOKMARKS.filter((b) => b.tags.includes(from)).map((b) => b.id)
      if (!seeded.length) return `no seeded bookmark had the tag ${from}`
      for (const id of seeded)
        if (!carriers.includes(id)) return `the bookmark ${id} did not get the tag ${to}`
      if (from !== TAG.from && !all.some((x) => x.tags.includes(TAG.from)))
        return `the recorded tag ${TAG.from} was renamed instead`
      return null
    },
  },
}

/** The new title of the Shaarli (the header and every page's <title>). */
const NEW_TITLE = 'Reading list'

/** Tools, "Configure your Shaarli", types the new title, Save; waits for the saved page. */
export const changeTitle: Workflow = {
  id: 'change_title',
  intent: `change the title of my Shaarli to "${NEW_TITLE}"`,
  rewordings: {
    terse: `Shaarli title: ${NEW_TITLE}`,
    chatty: `Can you go into the Shaarli settings and rename the site to "${NEW_TITLE}"? The header should say that.`,
    withoutValue: 'change the title of my Shaarli',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openTool(page, 'Configure your Shaarli')
    await page.waitForURL(/\/admin\/configure/)
    await page.locator('#title').fill(NEW_TITLE)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/admin\/configure/)
    await page.waitForFunction((t) => document.title.endsWith(t), NEW_TITLE)
  },
  key: {
    target: { method: 'POST', path: '/admin/configure' },
    inputs: [{ recorded: NEW_TITLE, changed: ['Team links', 'Bookmarks of Ada'] }],
    // The settings form: its token, and the current value of every other setting it posts back.
    dependencies: [{ method: 'GET', path: '/admin/configure' }],
    mutating: true,
    async replayByHand(app, session) {
      const title = String(this.inputs[0]!.changed[0])
      const form = await getPage(app, session, '/admin/configure')
      const [continent, city] = TIMEZONE.split('/') as [string, string]
      const res = await postForm(app, session, '/admin/configure', {
        title,
        titleLink: '/',
        theme: 'default',
        formatter: 'markdown',
        language: 'en',
        continent,
        city,
        enableRssPermalinks: 'on',
        enableApi: 'on',
        apiSecret: /name="apiSecret"[^>]*value="([^"]*)"/.exec(form)?.[1] ?? '',
        enableThumbnails: 'none',
        save: 'Save',
        token: tokenOf(form, 'the settings form'),
      })
      if (res.status !== 302) throw new Error(`POST /admin/configure answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [title]))
    },
    async check(app, _run, _session, used) {
      // A save that dropped the API checkbox or secret leaves the API closed: say so.
      const now = await settings(app).catch((error: Error) => error)
      if (now instanceof Error) return `the API no longer answers: ${now.message}`
      if (now['title'] !== String(used[0])) return `the title is "${String(now['title'])}"`
      if (now['timezone'] !== TIMEZONE) return `the timezone became ${String(now['timezone'])}`
      return null
    },
  },
}

/** A Netscape bookmarks file (what browsers export), with two links. */
function netscapeFile(links: Array<{ url: string; title: string; date: number }>): Buffer {
  return Buffer.from(
    [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
      '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
      '<TITLE>Bookmarks</TITLE>',
      '<H1>Bookmarks</H1>',
      '<DL><p>',
      ...links.map((l) => `    <DT><A HREF="${l.url}" ADD_DATE="${l.date}">${l.title}</A>`),
      '</DL><p>',
      '',
    ].join('\n'),
  )
}

/** The file the person imports. */
const FIREFOX_LINKS = [
  { url: 'https://sqlite.org/docs.html', title: 'SQLite Documentation', date: 1760000000 },
  { url: 'https://www.gnu.org/software/make/manual/', title: 'GNU make manual', date: 1760100000 },
]
const FIREFOX_FILE = netscapeFile(FIREFOX_LINKS)
/** The file a tool without the recorded bytes (a plain HAR's) imports: other links. */
const CHROME_LINKS = [
  { url: 'https://jqlang.github.io/jq/manual/', title: 'jq Manual', date: 1760200000 },
  { url: 'https://www.shellcheck.net/wiki/', title: 'ShellCheck wiki', date: 1760300000 },
]
const CHROME_FILE = netscapeFile(CHROME_LINKS)
const IMPORT_TAG = 'from-firefox'

/**
 * Tools, "Import links", picks the exported file, types a tag for every imported bookmark and
 * clicks Import; waits for Shaarli's report.
 */
export const importBookmarks: Workflow = {
  id: 'import_bookmarks',
  intent: `import my browser bookmarks from the file firefox-bookmarks.html and tag them ${IMPORT_TAG}`,
  rewordings: {
    terse: `import firefox-bookmarks.html, tag ${IMPORT_TAG}`,
    chatty: `I exported my Firefox bookmarks to firefox-bookmarks.html, can you pull them into Shaarli and tag them all ${IMPORT_TAG}?`,
    withoutValue: 'import a bookmarks file into Shaarli',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openTool(page, 'Import links')
    await page.waitForURL(/\/admin\/import/)
    await page.locator('input[name=filetoupload]').setInputFiles({
      name: 'firefox-bookmarks.html',
      mimeType: 'text/html',
      buffer: FIREFOX_FILE,
    })
    await page.locator('#default_tags').fill(IMPORT_TAG)
    await page.getByRole('button', { name: 'Import' }).click()
    await page.getByText('2 bookmarks imported').waitFor()
  },
  key: {
    target: { method: 'POST', path: '/admin/import' },
    inputs: [{ recorded: IMPORT_TAG, changed: ['from-chrome', 'from-safari'] }],
    dependencies: [{ method: 'GET', path: '/admin/import' }],
    mutating: true,
    file: CHROME_FILE,
    async replayByHand(app, session) {
      const tag = String(this.inputs[0]!.changed[0])
      const html = await getPage(app, session, '/admin/import')
      const form = new FormData()
      form.append('token', tokenOf(html, 'the import form'))
      form.append('MAX_FILE_SIZE', '16777216')
      form.append(
        'filetoupload',
        new Blob([new Uint8Array(CHROME_FILE)], { type: 'text/html' }),
        'chrome.html',
      )
      form.append('privacy', 'default')
      form.append('default_tags', tag)
      form.append('import_file', 'Import')
      const res = await app.fetch('/admin/import', { method: 'POST', session, body: form })
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`POST /admin/import answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [tag]))
    },
    async check(app, _run, _session, used) {
      const tag = String(used[0])
      const tagged =
        (await apiGet<ApiBookmark[]>(
          app,
          `/links?searchtags=${encodeURIComponent(tag)}&limit=all&visibility=all`,
        )) ?? []
      const urls = tagged.map((x) => x.url).sort()
      // The recording's tool posts the recorded file; a HAR's tool, which holds no bytes, the
      // key's file: either is right, as long as all its links and only them carry the tag.
      const files = [FIREFOX_LINKS, CHROME_LINKS].map((l) => l.map((x) => x.url).sort())
      if (!files.some((f) => JSON.stringify(f) === JSON.stringify(urls)))
        return `the bookmarks tagged ${tag} are [${urls.join(', ')}], not one file's links`
      if (tagged.some((x) => x.private)) return 'the imported bookmarks are private'
      const all = await allBookmarks(app)
      if (tag !== IMPORT_TAG && all.some((x) => x.tags.includes(IMPORT_TAG)))
        return `bookmarks were tagged with the recorded ${IMPORT_TAG}`
      return null
    },
  },
}
