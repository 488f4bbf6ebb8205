/**
 * Lists themselves: a new list from the list index's "Create New List" (a form posting
 * `listname`, the domain picked in `mail_host`, `list_owner`, `advertised`, `list_style`,
 * `description` and `csrfmiddlewaretoken` to `/postorius/lists/new/`), and a list deleted from
 * its Delete tab (a confirmation page whose button posts only `csrfmiddlewaretoken` to
 * `/postorius/lists/<list id>/delete`), after signing in through the login form.
 */
import type { Workflow } from '../../types'
import { listAddresses, listPage, mustPass } from '../keys'
import { listTab, logIn, openList, success } from '../person'
import { DOMAIN } from '../seed'
import { postForm } from '../session'

/** Lists → Create New List, types the name, picks the domain, Create List. */
export const createList: Workflow = {
  id: 'create_list',
  intent: "create a new mailing list called 'book-club' on lists.example.org",
  rewordings: {
    terse: 'new list book-club',
    chatty:
      "we're starting a book club at work, can you set up a mailing list named book-club for it?",
    withoutValue: 'create a new mailing list',
  },
  startPath: '/postorius/lists/',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Create New List' }).click()
    await page.waitForURL(/\/postorius\/lists\/new\/$/)
    await page.locator('#id_listname').fill('book-club')
    await page.locator('#id_mail_host').selectOption(DOMAIN)
    await page.getByRole('button', { name: 'Create List' }).click()
    await success(page, 'List created')
  },
  key: {
    target: { method: 'POST', path: '/postorius/lists/new/' },
    // The domain is picked in a select of the two seeded ones: each run creates its list on
    // another domain than the other run.
    inputs: [
      { recorded: 'book-club', changed: ['chess-club', 'film-club'] },
      { recorded: DOMAIN, changed: ['lists.example.net', DOMAIN] },
    ],
    dependencies: [{ method: 'GET', path: '/postorius/lists/new/' }],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, '/postorius/lists/new/', [
        ['listname', 'chess-club'],
        ['mail_host', 'lists.example.net'],
        ['list_owner', 'listadmin@example.org'],
        ['advertised', 'True'],
        ['list_style', 'legacy-default'],
        ['description', ''],
      ])
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`creating the list answered ${res.status}`)
      mustPass(
        await createList.key.check(app, { status: 'succeeded', result: null }, session, [
          'chess-club',
          'lists.example.net',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const lists = await listAddresses(app)
      const want = `${String(used[0])}@${String(used[1])}`
      if (!lists.includes(want)) return `there is no list ${want}`
      if (lists.some((l) => l.startsWith('book-club@')))
        return 'the recorded list book-club was created'
      return null
    },
  },
}

/** Signs in, opens Old-project from the list index, its Delete tab, confirms. */
export const deleteList: Workflow = {
  id: 'delete_list',
  intent: 'delete the old-project mailing list',
  rewordings: {
    terse: 'delete list old-project',
    chatty: 'that project wrapped up ages ago, please get rid of the old-project list for good',
    withoutValue: 'delete one of the mailing lists',
  },
  startPath: '/accounts/login/?next=/postorius/lists/',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openList(page, 'Old-project')
    await listTab(page, 'Delete')
    await page.waitForURL(/\/delete$/)
    await page.getByRole('button', { name: /Delete old-project@lists\.example\.org/ }).click()
    await page.waitForURL(/\/postorius\/lists\/$/)
  },
  key: {
    target: listPage('POST', 'delete'),
    inputs: [
      {
        recorded: 'old-project.lists.example.org',
        changed: ['retired-team.lists.example.org', 'spring-fair.lists.example.org'],
      },
    ],
    dependencies: [listPage('GET', 'delete')],
    mutating: true,
    async replayByHand(app, session) {
      const path = '/postorius/lists/retired-team.lists.example.org/delete'
      const res = await postForm(app, session, path, [])
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`deleting the list answered ${res.status}`)
      mustPass(
        await deleteList.key.check(app, { status: 'succeeded', result: null }, session, [
          'retired-team.lists.example.org',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const lists = await listAddresses(app)
      const gone = String(used[0]).replace(`.${DOMAIN}`, `@${DOMAIN}`)
      if (lists.includes(gone)) return `the list ${gone} is still there`
      if (!lists.includes(`old-project@${DOMAIN}`))
        return 'the recorded list old-project was deleted'
      if (!lists.includes(`team@${DOMAIN}`)) return 'the Team list was deleted too'
      return null
    },
  },
}
