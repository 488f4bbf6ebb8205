/**
 * A list's tunables, changed in its Config page (`edit.php?list=<list>`): one form holding every
 * tunable (text boxes, text areas, checkboxes) whose Submit posts all of them with `list` to
 * `save.php`, which rewrites each: a text posted empty or left out deletes that tunable, a box
 * left out switches it off. So a save carries the list's current values of everything it does
 * not change, which only the Config page of that list holds: every key here names that page as
 * the step before the save.
 */
import type { Workflow } from '../../types'
import { CONFIG_PAGE, mustPass, otherSettingsKept, SAVE } from '../keys'
import {
  answerLoginPrompt,
  openIndexSignedIn,
  openListPage,
  setSettingBox,
  submitSettings,
  typeSetting,
} from '../person'
import { postForm, readSettings, settingsForm, type ListSettings } from '../session'
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance } from '../../types'

/**
 * Saves the list `list` by hand as its Config form would: reads the page's current values,
 * applies `change`, posts them all to save.php; throws unless the "saved" page comes back.
 */
async function saveByHand(
  app: AppInstance,
  session: StorageState,
  list: string,
  change: (settings: ListSettings) => void,
): Promise<void> {
  const settings = await readSettings(app, list)
  change(settings)
  const res = await postForm(app, session, '/save.php', settingsForm(list, settings))
  const html = await res.text()
  if (res.status !== 200 || !html.includes(`${list} control values saved!`))
    throw new Error(`saving ${list} answered ${res.status}: ${html.slice(0, 300)}`)
}

/** Signed in, Config under book-club, types a new Prefix, Submit. */
export const setPrefix: Workflow = {
  id: 'set_prefix',
  intent: 'change the subject prefix of the book-club mailing list to [Books]',
  rewordings: {
    terse: 'book-club prefix [Books]',
    chatty:
      'the lowercase [book-club] tag in subject lines looks messy, can we make it [Books] instead?',
    withoutValue: 'change the subject prefix of the book-club list',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openIndexSignedIn(page, app)
    await openListPage(page, 'book-club', 'Config')
    await typeSetting(page, 'Prefix', '[Books]')
    await submitSettings(page, 'book-club')
  },
  key: {
    target: SAVE,
    inputs: [{ recorded: '[Books]', changed: ['[Readers]', '[Book Club]'] }],
    dependencies: [CONFIG_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await saveByHand(app, session, 'book-club', (s) => (s.values.prefix = '[Readers]'))
      mustPass(
        await setPrefix.key.check(app, { status: 'succeeded', result: null }, session, [
          '[Readers]',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const settings = await readSettings(app, 'book-club')
      if (settings.values.prefix !== String(used[0]))
        return `book-club's prefix is ${JSON.stringify(settings.values.prefix ?? '')}, not ${String(used[0])}`
      return otherSettingsKept('book-club', settings, ['prefix'])
    },
  },
}

/** Signed in, Config under hiking, ticks Moderated, Submit. */
export const moderateList: Workflow = {
  id: 'moderate_list',
  intent: 'turn on moderation for the hiking mailing list',
  rewordings: {
    terse: 'moderate hiking list',
    chatty:
      "people keep posting gear ads to the hiking list, can you make it so posts need a moderator's OK?",
    withoutValue: 'turn on moderation for a mailing list',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openIndexSignedIn(page, app)
    await openListPage(page, 'hiking', 'Config')
    await setSettingBox(page, 'Moderated', true)
    await submitSettings(page, 'hiking')
  },
  key: {
    target: SAVE,
    // The list is picked on the index: each run moderates another list, whose own settings the
    // save must carry (its Config page is the step).
    inputs: [{ recorded: 'hiking', changed: ['orchestra', 'youth-group'] }],
    dependencies: [CONFIG_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await saveByHand(app, session, 'orchestra', (s) => s.flags.add('moderated'))
      mustPass(
        await moderateList.key.check(app, { status: 'succeeded', result: null }, session, [
          'orchestra',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const list = String(used[0])
      const settings = await readSettings(app, list)
      if (!settings.flags.has('moderated')) return `${list} is not moderated`
      const kept = otherSettingsKept(list, settings, ['moderated'])
      if (kept) return kept
      const hiking = await readSettings(app, 'hiking')
      if (hiking.flags.has('moderated')) return 'the recorded list hiking was moderated'
      return null
    },
  },
}

/** Answers the login prompt, Config under choir, types a new Max. mail size, Submit. */
export const setMaxMailSize: Workflow = {
  id: 'set_max_mail_size',
  intent: 'limit mails to the choir list to 500000 bytes',
  rewordings: {
    terse: 'choir max mail size 500000',
    chatty:
      'someone sent the whole score as a 5 MB attachment again, can you cap choir list mails at 500000 bytes?',
    withoutValue: 'set the maximum mail size of the choir list',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await answerLoginPrompt(page, app)
    await openListPage(page, 'choir', 'Config')
    await typeSetting(page, 'Max. mail size', '500000')
    await submitSettings(page, 'choir')
  },
  key: {
    target: SAVE,
    inputs: [{ recorded: '500000', changed: ['250000', '750000'] }],
    dependencies: [CONFIG_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await saveByHand(app, session, 'choir', (s) => (s.values.maxmailsize = '250000'))
      mustPass(
        await setMaxMailSize.key.check(app, { status: 'succeeded', result: null }, session, [
          '250000',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const settings = await readSettings(app, 'choir')
      if (settings.values.maxmailsize !== String(used[0]))
        return `choir's max. mail size is ${JSON.stringify(settings.values.maxmailsize ?? '')}, not ${String(used[0])}`
      return otherSettingsKept('choir', settings, ['maxmailsize'])
    },
  },
}

/** Signed in, Config under board, unticks "Subscribers only post", Submit. */
export const allowNonSubscribers: Workflow = {
  id: 'allow_non_subscribers',
  intent: 'let people who are not subscribed post to the board list',
  rewordings: {
    terse: 'board list: turn off subscribers only post',
    chatty:
      'the auditors need to write to the board list but they are not on it, can you stop it rejecting non-subscribers?',
    withoutValue: 'allow non-subscribers to post to a list',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openIndexSignedIn(page, app)
    await openListPage(page, 'board', 'Config')
    await setSettingBox(page, 'Subscribers only post', false)
    await submitSettings(page, 'board')
  },
  key: {
    target: SAVE,
    inputs: [],
    dependencies: [CONFIG_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await saveByHand(app, session, 'board', (s) => s.flags.delete('subonlypost'))
      mustPass(
        await allowNonSubscribers.key.check(
          app,
          { status: 'succeeded', result: null },
          session,
          [],
        ),
      )
    },
    async check(app) {
      const settings = await readSettings(app, 'board')
      if (settings.flags.has('subonlypost'))
        return 'board still accepts posts from subscribers only'
      return otherSettingsKept('board', settings, ['subonlypost'])
    },
  },
}
