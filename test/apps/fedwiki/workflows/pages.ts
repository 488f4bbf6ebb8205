/**
 * Creating and deleting pages, and discarding a page from the recycler. A new page starts as a
 * link to it: clicking `[[Harvest Festival]]` on Meeting Notes opens a "ghost" page with a
 * "create" button, which sends `PUT /page/harvest-festival/action` with
 * `action={"type":"create","item":{"title":"Harvest Festival","story":[]},...}`. A page is
 * deleted from its first revision: clicking the journal's ☼ (create) opens `<slug>_rev0`, whose
 * ⚑ button sends `DELETE /<slug>.json` (the page goes to the recycler). The ☰ menu's "Recycled
 * Pages" lists the recycler; a row's ✕ sends `DELETE /recycler/<slug>.json`.
 */
import type { Workflow } from '../../types'
import { mustPass, putAction, readPage, recycledSlugs } from '../keys'
import { followLink, searchAndOpen, shownPage } from '../person'

/** Meeting Notes → Harvest Festival (a link to no page yet) → create. */
export const createPage: Workflow = {
  id: 'create_page',
  intent: 'create a new wiki page called "Harvest Festival"',
  rewordings: {
    terse: 'new page Harvest Festival',
    chatty:
      'the festival planning needs a home, can you start a page named Harvest Festival on the wiki?',
    withoutValue: 'create a new page',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    await followLink(page, 'welcome-visitors', 'Meeting Notes', 'meeting-notes')
    const ghost = page.locator('.page[id="harvest-festival"]')
    await page
      .locator('.page[id="meeting-notes"] a.internal', { hasText: 'Harvest Festival' })
      .click()
    const saved = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().includes('/page/harvest-festival/action'),
    )
    await ghost.locator('button.create').first().click()
    await saved
    await page.locator('.page[id="harvest-festival"]:not(.ghost)').waitFor()
  },
  key: {
    target: { method: 'PUT', path: /\/page\/[a-z0-9-]+\/action/ },
    inputs: [
      { recorded: 'harvest-festival', changed: ['winter-jobs', 'plant-sale'] },
      { recorded: 'Harvest Festival', changed: ['Winter Jobs', 'Plant Sale'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await putAction(app, session, 'winter-jobs', {
        type: 'create',
        item: { title: 'Winter Jobs', story: [] },
      })
      mustPass(
        await createPage.key.check(app, { status: 'succeeded', result: 'ok' }, session, [
          'winter-jobs',
          'Winter Jobs',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [slug, title] = used.map(String) as [string, string]
      const page = await readPage(app, slug)
      if (!page) return `there is no page ${slug}`
      if (page.title !== title) return `the page ${slug} is titled "${page.title}", not "${title}"`
      if (await readPage(app, 'harvest-festival'))
        return 'the recorded page Harvest Festival was created'
      return null
    },
  },
}

/** Search "rota" → Old Rota → its journal's ☼ → the first revision's ⚑: the page is deleted. */
export const deletePage: Workflow = {
  id: 'delete_page',
  intent: 'delete the Old Rota page from the wiki',
  rewordings: {
    terse: 'delete page old-rota',
    chatty: 'nobody needs the 2023 watering rota any more, please get rid of the Old Rota page',
    withoutValue: 'delete a page',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    const paper = await searchAndOpen(page, 'rota', 'Old Rota', 'old-rota')
    await paper.locator('.journal a.action.create').click()
    const rev0 = await shownPage(page, 'old-rota_rev0')
    const deleted = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().endsWith('/old-rota.json'),
    )
    await rev0.locator('.fork-page').click()
    await deleted
    await page.locator('.page.ghost').first().waitFor()
  },
  key: {
    target: { method: 'DELETE', path: /\/[a-z0-9-]+\.json/ },
    inputs: [{ recorded: 'old-rota', changed: ['seed-swap', 'compost-heap'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await app.fetch('/seed-swap.json', { method: 'DELETE', session })
      if (!res.ok) throw new Error(`DELETE /seed-swap.json answered ${res.status}`)
      await res.arrayBuffer()
      mustPass(
        await deletePage.key.check(app, { status: 'succeeded', result: '' }, session, [
          'seed-swap',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const slug = String(used[0])
      if (await readPage(app, slug)) return `the page ${slug} is still there`
      if (!(await readPage(app, 'old-rota'))) return 'the recorded page Old Rota was deleted'
      return null
    },
  },
}

/** ☰ → Recycled Pages → the ✕ of Old Minutes: the copy is discarded for good. */
export const discardRecycled: Workflow = {
  id: 'discard_recycled_page',
  intent: 'permanently discard the "Old Minutes" page from the wiki\'s recycler',
  rewordings: {
    terse: 'empty old-minutes from recycler',
    chatty: 'the Old Minutes page is sitting in the recycler, can you throw it away for good?',
    withoutValue: 'discard a page from the recycler',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    await shownPage(page, 'welcome-visitors')
    await page.locator('footer span', { hasText: '☰' }).click()
    const menu = page.locator('.page', { hasText: 'Selected Plugin Pages' })
    await menu.locator('a.internal', { hasText: 'Recycled Pages' }).first().click()
    const paper = await shownPage(page, 'recycled-pages')
    const row = paper.locator('.item.recycler li', { hasText: 'Old Minutes' })
    page.once('dialog', (d) => void d.accept())
    const gone = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().includes('/recycler/old-minutes.json'),
    )
    await row.locator('button.delete').click()
    await gone
    await row.waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'DELETE', path: /\/recycler\/[a-z0-9-]+\.json/ },
    inputs: [{ recorded: 'old-minutes', changed: ['draft-budget', 'spare-plots'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await app.fetch('/recycler/draft-budget.json', { method: 'DELETE', session })
      if (!res.ok) throw new Error(`DELETE /recycler/draft-budget.json answered ${res.status}`)
      await res.arrayBuffer()
      mustPass(
        await discardRecycled.key.check(app, { status: 'succeeded', result: '' }, session, [
          'draft-budget',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const slugs = await recycledSlugs(app, session)
      if (slugs.includes(String(used[0]))) return `${String(used[0])} is still in the recycler`
      if (!slugs.includes('old-minutes')) return 'the recorded page Old Minutes was discarded'
      return null
    },
  },
}
