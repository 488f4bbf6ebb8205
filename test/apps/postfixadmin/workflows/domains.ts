/**
 * Adding a mail domain: the "Add Domain" form posts `value[domain]`, `value[description]` and the
 * limits to `edit.php?table=domain` with the session's token; PostfixAdmin answers a 302 back to
 * the empty form with "The domain ... has been added." in the flash.
 */
import type { Workflow } from '../../types'
import { csvRow, EDIT_POST, FORM_PAGE, mustPass, postForm } from '../keys'
import { fillField, submitForm } from './person'

/** From the domain list: clicks "Add Domain", types the name and description, submits. */
export const addDomain: Workflow = {
  id: 'add_domain',
  intent: "add the mail domain northwind.test with the description 'Northwind Traders'",
  rewordings: {
    terse: "new domain northwind.test 'Northwind Traders'",
    chatty:
      "we're taking on a new customer, could you add their domain northwind.test to the mail " +
      "server and call it 'Northwind Traders'?",
    withoutValue: 'add a new mail domain',
  },
  startPath: '/list.php?table=domain',
  signedIn: true,
  async play(page) {
    await page.getByRole('button', { name: 'Add Domain' }).click()
    await page.waitForURL(/edit\.php\?table=domain/)
    await fillField(page, 'domain', 'northwind.test')
    await fillField(page, 'description', 'Northwind Traders')
    await submitForm(page, 'Add Domain', /edit\.php\?table=domain/)
    await page.getByText('northwind.test has been added').waitFor()
  },
  key: {
    target: EDIT_POST('domain'),
    inputs: [
      { recorded: 'northwind.test', changed: ['initech.test', 'umbrella.test'] },
      { recorded: 'Northwind Traders', changed: ['Initech Inc', 'Umbrella Corp'] },
    ],
    dependencies: [FORM_PAGE('domain')],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['initech.test', 'Initech Inc']
      const res = await postForm(app, session, '/edit.php?table=domain', {
        table: 'domain',
        'value[domain]': used[0]!,
        'value[description]': used[1]!,
        'value[aliases]': '10',
        'value[mailboxes]': '10',
        'value[maxquota]': '10',
        'value[quota]': '2048',
        'value[active]': '1',
        'value[default_aliases]': '1',
        'value[password_expiry]': '365',
        submit: 'Add Domain',
      })
      if (res.status !== 302) throw new Error(`adding a domain answered ${res.status}`)
      mustPass(await addDomain.key.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const row = await csvRow(app, session, 'domain', 'Domain', String(used[0]))
      if (!row) return `there is no domain ${String(used[0])}`
      if (row['Description'] !== String(used[1]))
        return `${String(used[0])} is described ${JSON.stringify(row['Description'])}`
      if (await csvRow(app, session, 'domain', 'Description', 'Northwind Traders'))
        return 'a domain is described as the recorded one (Northwind Traders)'
      return null
    },
  },
}
