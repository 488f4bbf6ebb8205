/**
 * A list setting: the Settings tab opens the "List Identity" section, a form that posts every
 * field of the section (display name, description, info, subject prefix, advertised, language,
 * roster visibility, the news gateway's fields) with `csrfmiddlewaretoken` to
 * `/postorius/lists/<list id>/settings/list_identity`, answered with a redirect and "The
 * settings have been updated."
 */
import type { Workflow } from '../../types'
import { listConfig, listPage, mustPass } from '../keys'
import { listTab, openList, success } from '../person'
import { djangoForm } from '../../sessionFetch'
import { postForm } from '../session'

const IDENTITY = '/postorius/lists/team.lists.example.org/settings/list_identity'

/** Opens Team, Settings, replaces the description, Save changes. */
export const changeDescription: Workflow = {
  id: 'change_description',
  intent: "change the description of the Team mailing list to 'Weekly team updates and plans'",
  rewordings: {
    terse: 'Team list description: Weekly team updates and plans',
    chatty:
      "the team list's blurb is out of date, can you make it say 'Weekly team updates and plans'?",
    withoutValue: "update the team list's description",
  },
  startPath: '/postorius/lists/',
  signedIn: true,
  async play(page) {
    await openList(page, 'Team')
    await listTab(page, 'Settings')
    await page.waitForURL(/\/settings\//)
    await page.locator('#id_description').fill('Weekly team updates and plans')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await success(page, 'The settings have been updated')
  },
  key: {
    target: listPage('POST', 'settings/list_identity'),
    inputs: [
      {
        recorded: 'Weekly team updates and plans',
        changed: ['Team news and plans', 'Notes from the whole team'],
      },
    ],
    dependencies: [listPage('GET', 'settings/(list_identity)?')],
    mutating: true,
    async replayByHand(app, session) {
      // The section posts all its fields: keep the page's current values, change one.
      const { html } = await djangoForm(app, session, IDENTITY)
      const value = (name: string): string =>
        new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1] ?? ''
      const res = await postForm(app, session, IDENTITY, [
        ['advertised', 'True'],
        ['description', 'Team news and plans'],
        ['info', ''],
        ['display_name', value('display_name')],
        ['subject_prefix', value('subject_prefix')],
        ['preferred_language', 'en'],
        ['member_roster_visibility', 'moderators'],
        ['gateway_to_mail', 'False'],
        ['gateway_to_news', 'False'],
        ['linked_newsgroup', ''],
        ['newsgroup_moderation', 'none'],
        ['nntp_prefix_subject_too', 'True'],
      ])
      await res.arrayBuffer()
      mustPass(
        await changeDescription.key.check(app, { status: 'succeeded', result: null }, session, [
          'Team news and plans',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const config = await listConfig(app, 'team')
      if (config.description !== used[0])
        return `the Team list's description is "${String(config.description)}"`
      if (config.display_name !== 'Team')
        return `the display name became "${String(config.display_name)}"`
      return null
    },
  },
}
