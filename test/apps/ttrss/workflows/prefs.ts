/**
 * Preferences (prefs.php). Adding a category (Feeds tab → Categories → Add category) and a label
 * (Labels tab → Create label) both ask for the name in the browser's own prompt and post
 * `op=pref-feeds&method=addCat&cat=` and `op=pref-labels&method=add&caption=`; these two start
 * signed out and log in through the login form first. Saving the Preferences form posts every
 * preference with `op=pref-prefs&method=saveconfig`.
 */
import type { Workflow } from '../../types'
import { backendCall, CSRF_PAGE, feedTree, labelNames, mustPass, prefValue } from '../keys'
import { answerOf, logIn, openPreferences } from '../person'
import { backend } from '../session'

/** Logs in, opens Preferences → Feeds, Categories → Add category, and names it Travel. */
export const createCategory: Workflow = {
  id: 'create_category',
  intent: "log in and create a feed category called 'Travel'",
  rewordings: {
    terse: 'new category Travel',
    chatty: "I'm going to follow some travel blogs, can you make me a 'Travel' category for them?",
    withoutValue: 'create a feed category',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openPreferences(page)
    await page.getByRole('tab', { name: /Feeds/ }).click()
    await page.getByRole('button', { name: /Categories/ }).click()
    page.once('dialog', (d) => void d.accept('Travel'))
    await answerOf(page, 'pref-feeds', 'addCat', () =>
      page.locator('.dijitPopup .dijitMenuItem', { hasText: 'Add category' }).click(),
    )
    await page.locator('#feedTree .dijitTreeLabel', { hasText: /^Travel$/ }).waitFor()
  },
  key: {
    target: backendCall('POST', 'pref-feeds', 'addCat'),
    inputs: [{ recorded: 'Travel', changed: ['Music', 'Sports'] }],
    dependencies: [CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await backend(app, session, { op: 'pref-feeds', method: 'addCat', cat: 'Music' })
      mustPass(
        await createCategory.key.check(app, { status: 'succeeded', result: null }, session, [
          'Music',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const categories = (await feedTree(app, session))
        .filter((e) => e.kind === 'category')
        .map((e) => e.name)
      if (!categories.includes(name)) return `there is no category "${name}"`
      if (categories.includes('Travel')) return 'the recorded category "Travel" was created instead'
      return null
    },
  },
}

/** Logs in, opens Preferences → Labels, Create label, and names it Weekend reading. */
export const createLabel: Workflow = {
  id: 'create_label',
  intent: "log in and create a label called 'Weekend reading'",
  rewordings: {
    terse: 'new label Weekend reading',
    chatty:
      "I'd like to tag long articles to read on Saturday, can you add a 'Weekend reading' label?",
    withoutValue: 'create a label for articles',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openPreferences(page)
    await page.getByRole('tab', { name: /Labels/ }).click()
    const create = page.getByRole('button', { name: /Create label/ })
    await create.waitFor()
    page.once('dialog', (d) => void d.accept('Weekend reading'))
    await answerOf(page, 'pref-labels', 'add', () => create.click())
    await page.locator('#labelTree .dijitTreeLabel', { hasText: 'Weekend reading' }).waitFor()
  },
  key: {
    target: backendCall('POST', 'pref-labels', 'add'),
    inputs: [{ recorded: 'Weekend reading', changed: ['Follow up', 'Share with Sam'] }],
    dependencies: [CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await backend(app, session, { op: 'pref-labels', method: 'add', caption: 'Follow up' })
      mustPass(
        await createLabel.key.check(app, { status: 'succeeded', result: null }, session, [
          'Follow up',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const labels = await labelNames(app, session)
      if (!labels.includes(name)) return `there is no label "${name}"`
      if (labels.includes('Weekend reading'))
        return 'the recorded label "Weekend reading" was created instead'
      return null
    },
  },
}

/** The seeded (default) value of FRESH_ARTICLE_MAX_AGE, in hours. */
const FRESH_DEFAULT = '24'

/** Preferences: types 48 into "Maximum age of fresh articles" and saves the configuration. */
export const changePreference: Workflow = {
  id: 'change_preference',
  intent: 'set the maximum age of fresh articles to 48 hours',
  rewordings: {
    terse: 'fresh articles max age 48',
    chatty: "a day is too short for 'fresh' articles, could you make it 48 hours in my settings?",
    withoutValue: 'change how long articles count as fresh',
  },
  startPath: '/prefs.php',
  signedIn: true,
  async play(page) {
    const age = page
      .locator('fieldset', { hasText: 'Maximum age of fresh articles' })
      .locator('input.dijitInputInner')
    await age.waitFor()
    await age.fill('48')
    // tt-rss answers PREFS_NEED_RELOAD here (the language is "auto") and reloads the page.
    const reloaded = page.waitForEvent('load')
    await answerOf(page, 'pref-prefs', 'saveconfig', () =>
      page.getByRole('button', { name: 'Save configuration' }).click(),
    )
    await reloaded
    await page
      .locator('input[name=FRESH_ARTICLE_MAX_AGE][value="48"]')
      .waitFor({ state: 'attached' })
  },
  key: {
    target: backendCall('POST', 'pref-prefs', 'saveconfig'),
    inputs: [{ recorded: '48', changed: ['36', '72'] }],
    dependencies: [CSRF_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await backend(app, session, {
        op: 'pref-prefs',
        method: 'saveconfig',
        FRESH_ARTICLE_MAX_AGE: '36',
        boolean_prefs: '',
      })
      mustPass(
        await changePreference.key.check(app, { status: 'succeeded', result: null }, session, [
          '36',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const value = await prefValue(app, session, 'FRESH_ARTICLE_MAX_AGE')
      if (value !== String(used[0]))
        return `the maximum age of fresh articles is ${value}, not ${String(used[0])}`
      if (value === FRESH_DEFAULT) return 'the preference was not saved'
      return null
    },
  },
}
