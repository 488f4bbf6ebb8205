/**
 * PostfixAdmin alias writes: the alias form posts `value[localpart]`, `value[domain]` and
 * `value[goto]` (targets, one per line) to `edit.php?table=alias`, with `edit=<address>` in the
 * query when editing an existing alias, and the session's CSRF token.
 */
import type { Workflow } from '../../types'
import { csvRow, EDIT_POST, FORM_PAGE, mustPass, postForm } from '../keys'
import { fillField, logIn, rowOf, submitForm } from './person'

/** The targets of an alias as the CSV export lists them, sorted and comma-joined. */
async function targetsOf(
  app: Parameters<Workflow['play']>[1],
  session: Parameters<Workflow['key']['check']>[2],
  address: string,
): Promise<string | null> {
  const row = await csvRow(app, session, 'alias', 'Alias', address, address.split('@')[1])
  return row ? (row['To'] ?? '').split(',').sort().join(',') : null
}

/** In example.org's virtual list: clicks "Add Alias", types the alias and its target, submits. */
export const addAlias: Workflow = {
  id: 'add_alias',
  intent: 'add an alias orders@example.org that forwards to bob@example.org',
  rewordings: {
    terse: 'alias orders@example.org -> bob@example.org',
    chatty:
      'could you make an address orders@example.org and have everything sent to it go to ' +
      "Bob's mailbox bob@example.org?",
    withoutValue: 'add a forwarding alias to a mailbox',
  },
  startPath: '/list-virtual.php?domain=example.org',
  signedIn: true,
  async play(page) {
    await page.getByRole('button', { name: 'Add Alias', exact: true }).click()
    await page.waitForURL(/edit\.php\?table=alias/)
    await fillField(page, 'localpart', 'orders')
    await page.locator('select[name="value[domain]"]').selectOption('example.org')
    await fillField(page, 'goto', 'bob@example.org')
    await submitForm(page, 'Add Alias', /edit\.php\?table=alias/)
    await page.getByText('orders@example.org has been created').waitFor()
  },
  key: {
    target: EDIT_POST('alias'),
    inputs: [
      { recorded: 'orders', changed: ['press', 'jobs'] },
      { recorded: 'bob@example.org', changed: ['carol@example.org', 'dave@example.org'] },
      // Picked in the form's domain dropdown (and named in the intent's address).
      { recorded: 'example.org', changed: ['acme.test', 'globex.test'] },
    ],
    dependencies: [FORM_PAGE('alias')],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['press', 'carol@example.org', 'acme.test']
      const res = await postForm(app, session, '/edit.php?table=alias', {
        table: 'alias',
        'value[localpart]': used[0]!,
        'value[domain]': used[2]!,
        'value[goto]': used[1]!,
        'value[active]': '1',
        submit: 'Add Alias',
      })
      if (res.status !== 302) throw new Error(`adding an alias answered ${res.status}`)
      mustPass(await addAlias.key.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const address = `${String(used[0])}@${String(used[2])}`
      const targets = await targetsOf(app, session, address)
      if (targets === null) return `there is no alias ${address}`
      if (targets !== String(used[1])) return `${address} forwards to ${targets}`
      if ((await targetsOf(app, session, 'orders@example.org')) !== null)
        return 'orders@example.org (the recorded alias) exists'
      return null
    },
  },
}

/**
 * Signs in, opens example.org from the overview (the domain list), clicks "edit" on the sales
 * alias, replaces its targets with erin@example.org, saves.
 */
export const editAliasTargets: Workflow = {
  id: 'edit_alias_targets',
  intent: 'make the alias sales@example.org forward to erin@example.org only',
  rewordings: {
    terse: 'sales@example.org -> erin@example.org',
    chatty:
      'Erin is taking over sales, can you change the sales@example.org alias so mail only goes ' +
      'to erin@example.org from now on?',
    withoutValue: 'change where one of our aliases forwards to',
  },
  startPath: '/login.php',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    // "Overview" is the domain list; the domain's name opens its virtual list.
    await page.getByRole('link', { name: 'Overview' }).click()
    await page.waitForURL(/list\.php\?table=domain/)
    await page.getByRole('link', { name: 'example.org', exact: true }).click()
    await page.waitForURL(/list-virtual\.php\?domain=example\.org/)
    await rowOf(page, 'sales@example.org', 'alias').getByRole('link', { name: 'edit' }).click()
    await page.waitForURL(/edit=sales/)
    const box = page.locator('textarea[name="value[goto]"]')
    await box.click()
    await box.press('ControlOrMeta+a')
    await box.pressSequentially('erin@example.org', { delay: 10 })
    await submitForm(page, 'Save changes', /list-virtual\.php/)
    await rowOf(page, 'sales@example.org', 'alias').getByText('erin@example.org').waitFor()
  },
  key: {
    // The edited alias travels in the query (`edit=sales@example.org`), not in the body.
    target: EDIT_POST('alias'),
    inputs: [
      { recorded: 'erin@example.org', changed: ['frank@example.org', 'dave@example.org'] },
      // Picked by clicking the row's "edit" (and named in the intent).
      { recorded: 'sales@example.org', changed: ['support@example.org', 'info@example.org'] },
    ],
    dependencies: [FORM_PAGE('alias')],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['frank@example.org', 'support@example.org']
      const q = new URLSearchParams({ table: 'alias', edit: used[1]! })
      const res = await postForm(app, session, `/edit.php?${q}`, {
        table: 'alias',
        'value[goto]': used[0]!,
        'value[active]': '1',
        submit: 'Save changes',
      })
      if (res.status !== 302) throw new Error(`saving ${used[1]} answered ${res.status}`)
      mustPass(
        await editAliasTargets.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const alias = String(used[1])
      const targets = await targetsOf(app, session, alias)
      if (targets !== String(used[0])) return `${alias} forwards to ${targets}`
      const sales = await targetsOf(app, session, 'sales@example.org')
      if (sales !== 'bob@example.org,carol@example.org')
        return `sales@example.org (the recorded alias) changed to ${sales}`
      return null
    },
  },
}
