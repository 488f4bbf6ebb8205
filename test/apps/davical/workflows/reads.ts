/**
 * The reads: the group list opened from the "User Functions" menu
 * (`GET admin.php?action=browse&t=principal&type=3`, a table of every group with its members),
 * and one person's page opened by clicking their row in the user list
 * (`GET admin.php?action=edit&t=principal&id=N`, the principal's form with its email).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { admin, mustPass, principalId, PRINCIPAL_LIST } from '../keys'
import { openList, openPrincipal } from '../person'
import { PRINCIPALS, TYPE } from '../seed'

const GROUPS = PRINCIPALS.filter((p) => p.type === TYPE.group).map((p) => p.fullname)

/** User Functions → List Groups. */
export const listGroups: Workflow = {
  id: 'list_groups',
  intent: 'show me all the groups in DAViCal',
  rewordings: {
    terse: 'list groups',
    chatty: 'which groups have we set up on the calendar server? can you list them for me?',
    withoutValue: 'list the groups',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openList(page, 'List Groups')
    await page.locator('#browse_table td', { hasText: 'Support Team' }).waitFor()
  },
  key: {
    target: admin('GET', 'browse', 'principal', { field: 'type', value: String(TYPE.group) }),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/admin.php?action=browse&t=principal&type=3', { session })
      mustPass(
        await listGroups.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          [],
        ),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = GROUPS.filter((g) => !text.includes(g))
      if (missing.length) return `the answer does not show the groups ${missing.join(', ')}`
      if (text.includes('Meeting Room A')) return 'the answer shows resources, not only groups'
      if (text.includes('carol@example.org')) return 'the answer shows people, not only groups'
      return null
    },
  },
}

/** User Functions → List Users, clicks Bob Stone's row, reads the email on his page. */
export const showUserEmail: Workflow = {
  id: 'show_user_email',
  intent: "what is Bob Stone's email address in DAViCal?",
  rewordings: {
    terse: 'email of Bob Stone',
    chatty:
      'I need to write to Bob Stone, could you look up the email address his calendar account has?',
    withoutValue: "look up a user's email address",
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openList(page, 'List Users')
    await openPrincipal(page, 'Bob Stone')
    await page.locator('input[name=email]').waitFor()
  },
  key: {
    target: admin('GET', 'edit', 'principal'),
    inputs: [{ recorded: 'Bob Stone', changed: ['Irene Walsh', 'Kevin Brown'] }],
    dependencies: [PRINCIPAL_LIST],
    mutating: false,
    async replayByHand(app, session) {
      const id = await principalId(app, session, 'Irene Walsh')
      const res = await app.fetch(`/admin.php?action=edit&t=principal&id=${id}`, { session })
      mustPass(
        await showUserEmail.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['Irene Walsh'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const who = PRINCIPALS.find((p) => p.fullname === String(used[0]))
      if (!who) return `no seeded person is called ${String(used[0])}`
      if (!text.includes(who.email)) return `the answer does not show ${who.email}`
      if (text.includes('bob@example.org'))
        return "the answer shows Bob Stone's email: the recorded id ran"
      return null
    },
  },
}
