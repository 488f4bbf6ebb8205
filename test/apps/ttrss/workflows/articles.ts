/**
 * Writes on an article the person clicks in the headlines (combined view, the default): a click
 * on the article's text marks it read (`op=rpc&method=catchupSelected&ids=<id>&cmode=0`), a
 * click on its star toggles the star (`op=rpc&method=markSelected&ids=<id>&cmode=2`). A tool
 * naming the article by title must look its id up in a headlines answer first.
 */
import type { Workflow } from '../../types'
import { articleNamed, CSRF_PAGE, headlines, HEADLINES, backendCall, mustPass } from '../keys'
import { answerOf, articleRow, mainReady } from '../person'
import { backend } from '../session'

/** Clicks the text of an article in Fresh articles (the start page): tt-rss marks it read. */
export const markArticleRead: Workflow = {
  id: 'mark_article_read',
  intent: "mark the article 'Tram depot open day on Saturday' as read",
  rewordings: {
    terse: 'read Tram depot open day on Saturday',
    chatty:
      "I've already seen the 'Tram depot open day on Saturday' story elsewhere, can you mark it read?",
    withoutValue: 'mark an article as read',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await mainReady(page)
    const row = articleRow(page, 'Tram depot open day on Saturday')
    await answerOf(page, 'rpc', 'catchupSelected', () => row.locator('.content-inner').click())
    await page
      .locator('#headlines-frame .cdm.active:not(.Unread)', {
        has: page.locator('.title', { hasText: 'Tram depot open day on Saturday' }),
      })
      .waitFor()
  },
  key: {
    target: backendCall('POST', 'rpc', 'catchupSelected'),
    inputs: [
      {
        recorded: 'Tram depot open day on Saturday',
        changed: ['Pumpkin risotto step by step', 'Jupiter at opposition'],
      },
    ],
    dependencies: [HEADLINES, CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Pumpkin risotto step by step'
      const article = await articleNamed(app, session, title)
      await backend(app, session, {
        op: 'rpc',
        method: 'catchupSelected',
        ids: String(article.id),
        cmode: '0',
      })
      mustPass(
        await markArticleRead.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const title = String(used[0])
      const all = await headlines(app, session, -4)
      const article = all.find((h) => h.title === title)
      if (!article) return `there is no article "${title}"`
      if (article.unread) return `"${title}" is still unread`
      if (!all.find((h) => h.title === 'Tram depot open day on Saturday')?.unread)
        return 'the recorded article "Tram depot open day on Saturday" was marked read instead'
      return null
    },
  },
}

/** Clicks the star of an article in Fresh articles (the start page). */
export const starArticle: Workflow = {
  id: 'star_article',
  intent: "star the article 'Spotting the Andromeda galaxy'",
  rewordings: {
    terse: 'star Spotting the Andromeda galaxy',
    chatty:
      "I want to try the 'Spotting the Andromeda galaxy' tips this weekend, please star that article",
    withoutValue: 'star an article',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await mainReady(page)
    const row = articleRow(page, 'Spotting the Andromeda galaxy')
    await answerOf(page, 'rpc', 'markSelected', () => row.locator('.marked-pic').click())
    await page
      .locator('#headlines-frame .cdm.marked', {
        has: page.locator('.title', { hasText: 'Spotting the Andromeda galaxy' }),
      })
      .waitFor()
  },
  key: {
    target: backendCall('POST', 'rpc', 'markSelected'),
    inputs: [
      {
        recorded: 'Spotting the Andromeda galaxy',
        changed: ['Why your laptop battery wears out', 'Nest boxes to put up in autumn'],
      },
    ],
    dependencies: [HEADLINES, CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Why your laptop battery wears out'
      const article = await articleNamed(app, session, title)
      await backend(app, session, {
        op: 'rpc',
        method: 'markSelected',
        ids: String(article.id),
        cmode: '2',
      })
      mustPass(
        await starArticle.key.check(app, { status: 'succeeded', result: null }, session, [title]),
      )
    },
    async check(app, _run, session, used) {
      const title = String(used[0])
      const starred = (await headlines(app, session, -1)).map((h) => h.title)
      if (!starred.includes(title)) return `"${title}" is not starred`
      if (starred.includes('Spotting the Andromeda galaxy'))
        return 'the recorded article "Spotting the Andromeda galaxy" was starred instead'
      return null
    },
  },
}
