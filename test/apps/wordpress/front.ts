/**
 * Workflows on the public blog (not signed in): a search from the footer's search box and opening
 * a post from the home page's list.
 */
import type { Workflow } from '../types'
import { mentions, mustPass, readPage, resultText } from './keys'
import { seedPost } from './seed'

/** A term that two seeded titles share; the changed terms each find one other post. */
const SEARCH = { recorded: 'tomato', changed: ['dahlia', 'zucchini'] as [string, string] }
const SEARCH_FINDS: Record<string, string> = {
  dahlia: seedPost(14).title,
  zucchini: seedPost(16).title,
}

/** A post's title as a result heading of twentytwentyone's search page. */
const ENTRY_TITLE = /class="entry-title[^"]*"><a href="[^"]*">([^<]+)<\/a>/g

/** Types a term into the search box at the foot of the home page and waits for the results. */
export const searchPosts: Workflow = {
  id: 'search_posts',
  intent: `search the blog for posts about ${SEARCH.recorded}`,
  rewordings: {
    terse: `blog search ${SEARCH.recorded}`,
    chatty: `Could you look through the allotment blog and find me every post that mentions ${SEARCH.recorded}?`,
    withoutValue: 'search the blog posts for a word',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    const box = page.getByRole('searchbox', { name: 'Search' })
    await box.scrollIntoViewIfNeeded()
    await box.click()
    await box.pressSequentially(SEARCH.recorded, { delay: 50 })
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('heading', { name: `Results for "${SEARCH.recorded}"` }).waitFor()
    await page.getByRole('link', { name: seedPost(15).title }).waitFor()
  },
  key: {
    // The search block's form is a plain GET of the front page with ?s=.
    target: { method: 'GET', path: '/' },
    inputs: [{ recorded: SEARCH.recorded, changed: SEARCH.changed }],
    dependencies: [],
    mutating: false,
    async replayByHand(app) {
      const term = SEARCH.changed[0]
      const { status, text } = await readPage(app, `/?s=${encodeURIComponent(term)}`)
      mustPass(
        await this.check(app, { status: String(status), result: text }, emptySession, [term]),
      )
    },
    async check(_app, run, _session, used) {
      const term = String(used[0])
      const title = SEARCH_FINDS[term]
      if (!title) return `no expected post for ${term}`
      // The result is the page (HTML) or the engine's view of it ({title, text, links}).
      const text = resultText(run.result)
      // Raw HTML: tags out and WordPress's curly quotes (&#8220; &#8221;) back to plain ones.
      const plain = text.replace(/<[^>]*>/g, '').replace(/&#82(?:20|21);|&quot;/g, '"')
      if (!new RegExp(`Results for\\W+${term}\\W`, 'i').test(plain))
        return `the result is not the search for ${term}`
      if (!mentions(text, title)) return `the search for ${term} does not list "${title}"`
      // Raw HTML tells result headings from the footer's Recent Posts: check those too.
      const listed = [...text.matchAll(ENTRY_TITLE)].map((m) => m[1] ?? '')
      if (listed.length && !listed.includes(title))
        return `the search for ${term} does not list "${title}"`
      return null
    },
  },
}

const VIEW = {
  post: seedPost(13),
  changed: [seedPost(14).slug, seedPost(22).slug] as [string, string],
}

/** Clicks a post's title on the home page and waits for the post's text. */
export const viewPost: Workflow = {
  id: 'view_post',
  intent: `open the post ${VIEW.post.title}`,
  rewordings: {
    terse: `read post ${VIEW.post.title}`,
    chatty: `I'd like to read the blog post called "${VIEW.post.title}", can you pull it up for me?`,
    withoutValue: 'open one blog post',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: VIEW.post.title, exact: true }).first().click()
    await page.getByRole('heading', { level: 1, name: VIEW.post.title }).waitFor()
    await page.getByText('Soak the seeds overnight').waitFor()
  },
  key: {
    // Pretty permalinks (/%postname%/): the post is named by its slug, the path's one segment.
    target: { method: 'GET', path: /^\/[a-z0-9-]+\/$/ },
    inputs: [{ recorded: VIEW.post.slug, changed: VIEW.changed }],
    dependencies: [],
    mutating: false,
    async replayByHand(app) {
      const slug = VIEW.changed[0]
      const { status, text } = await readPage(app, `/${slug}/`)
      mustPass(
        await this.check(app, { status: String(status), result: text }, emptySession, [slug]),
      )
    },
    async check(_app, run, _session, used) {
      const slug = String(used[0])
      const post = [seedPost(14), seedPost(22)].find((p) => p.slug === slug)
      if (!post) return `no seeded post with slug ${slug}`
      const text = resultText(run.result)
      const firstWords = post.content
        .replace(/<[^>]+>/g, '')
        .trim()
        .slice(0, 30)
      if (!mentions(text, firstWords)) return `the result does not hold the text of "${post.title}"`
      return null
    },
  },
}

const emptySession = { cookies: [], origins: [] }
