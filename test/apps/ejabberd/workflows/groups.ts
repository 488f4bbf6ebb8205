/**
 * ejabberd workflows on shared roster groups (`mod_shared_roster`'s web admin pages): create one
 * from the list page's "Add New" box, and change a group's description on its own page, whose one
 * form posts every field of the group (label, description, members, displayed groups) at once.
 */
import type { Workflow } from '../../types'
import {
  GROUPS_PATH,
  GROUP_PAGE,
  buttonKey,
  groupNames,
  groupPath,
  groupState,
  mustPass,
} from '../keys'
import {
  answerLogin,
  openGroup,
  openHostSection,
  openAdminSignedIn,
  press,
  submitted,
} from '../person'
import { HOST, seededGroup } from '../seed'
import { getText, postForm } from '../session'

/** Shared Roster Groups, type a name into the box under the list, "Add New". Signed out first. */
export const createSharedGroup: Workflow = {
  id: 'create_shared_group',
  intent: 'create a shared roster group called support in ejabberd',
  rewordings: {
    terse: 'new shared roster group support',
    chatty:
      "We're setting up a support rota and everyone on it should see each other in their chat clients, can you make a shared roster group named support?",
    withoutValue: 'add a shared roster group on the XMPP server',
  },
  startPath: '/admin/',
  signedIn: false,
  async play(page, app) {
    await answerLogin(page, app)
    await openHostSection(page, 'Shared Roster Groups')
    await page.locator('#content input[name="namenew"]').fill('support')
    await press(page, 'Add New')
    await page.locator('#content').getByRole('link', { name: 'support', exact: true }).waitFor()
  },
  key: {
    target: buttonKey(GROUPS_PATH, 'addnew', 'Add New'),
    inputs: [{ recorded: 'support', changed: ['marketing', 'engineering'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'marketing'
      await postForm(app, session, GROUPS_PATH, [
        ['namenew', name],
        ['addnew', 'Add New'],
      ])
      mustPass(
        await createSharedGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      return (await groupNames(app)).includes(name)
        ? null
        : `there is no shared roster group ${name} on ${HOST}`
    },
  },
}

/** The new descriptions, one per run: the person's, then the two the working check uses. */
const DESCRIPTIONS = [
  'Sales team, EMEA and APAC',
  'Budget owners, all regions',
  'Contract reviewers, all regions',
] as const

/**
 * Shared Roster Groups, click sales, replace the Description box's text, "Submit". The form posts
 * the group's label, members and displayed groups too, as the page showed them, so a tool must
 * read the group's page first or it overwrites them with the recorded group's.
 */
export const describeGroup: Workflow = {
  id: 'describe_group',
  intent: 'set the description of the sales shared roster group to "Sales team, EMEA and APAC"',
  rewordings: {
    terse: 'sales group description: Sales team, EMEA and APAC',
    chatty:
      'The sales group now covers Asia too, could you update its description in the ejabberd admin to say "Sales team, EMEA and APAC"?',
    withoutValue: 'change the description of a shared roster group',
  },
  startPath: '/admin/',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openHostSection(page, 'Shared Roster Groups')
    await openGroup(page, 'sales')
    await page.locator('#content textarea[name="description"]').fill(DESCRIPTIONS[0])
    await press(page, 'Submit')
    await submitted(page)
  },
  key: {
    target: buttonKey(GROUP_PAGE, 'submit', 'Submit'),
    inputs: [
      { recorded: 'sales', changed: ['finance', 'legal'] },
      { recorded: DESCRIPTIONS[0], changed: [DESCRIPTIONS[1], DESCRIPTIONS[2]] },
    ],
    // The group's page: its label and members, which the post must send back unchanged.
    dependencies: [{ method: 'GET', path: GROUP_PAGE }],
    mutating: true,
    async replayByHand(app, session) {
      const [name, description] = ['finance', DESCRIPTIONS[1]]
      const html = await getText(app, session, groupPath(name))
      const label = /name='label' value='([^']*)'/.exec(html)?.[1]
      const members = /<textarea name='members'[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1]
      if (label === undefined || members === undefined)
        throw new Error(`the page of ${name} shows no label or members box`)
      await postForm(app, session, groupPath(name), [
        ['label', label],
        ['description', description],
        ['members', members],
        ['dispgroups', ''],
        ['submit', 'Submit'],
      ])
      mustPass(
        await describeGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
          description,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, description] = used.map(String) as [string, string]
      const seeded = seededGroup(name)
      const now = await groupState(app, name)
      if (now.description !== description)
        return `${name}'s description is "${now.description}", not "${description}"`
      if (now.label !== seeded.label) return `${name}'s label became "${now.label}"`
      const members = seeded.members.map((m) => `${m}@${HOST}`).sort()
      if (now.members.join(' ') !== members.join(' '))
        return `${name}'s members became ${now.members.join(', ') || 'none'} (were ${members.join(', ')})`
      return null
    },
  },
}
